# 423: several eventlogs in one call make one HTML page, a tab each (as
# eventlog2html takes several files): each tab shows that file's report,
# checked in chromium against its JSON; other formats and a page without
# -o are usage errors.
. "$(dirname "$0")/../lib.sh"
F=$ROOT/tests/fixtures/eventlog
set -- "$F/cost-centres-hc.eventlog" "$F/large-thunk-hT.eventlog" "$F/map-leak-hi.eventlog"
i=0
for e in "$@"; do
	"$LEAKSCOPE" eventlog --format json -o "$T/$i.json" "$e" || fail "json exit $?"
	i=$((i + 1))
done
"$LEAKSCOPE" eventlog -o "$T/all.html" "$@" || fail "html exit $?"
rc=0; "$LEAKSCOPE" eventlog --format text "$@" > /dev/null 2>&1 || rc=$?
expect_rc 2
rc=0; "$LEAKSCOPE" eventlog "$@" > /dev/null 2>&1 || rc=$?
expect_rc 2
# one damaged input: nothing written, exit 1
printf 'not an eventlog' > "$T/bad.eventlog"
rc=0; "$LEAKSCOPE" eventlog -o "$T/bad.html" "$1" "$T/bad.eventlog" 2> "$T/err" || rc=$?
expect_rc 1
expect_grep "$T/err" "bad.eventlog"
browser_check "the tabs" check_pages.mjs "$T/all.html" "$T/0.json" "$T/1.json" "$T/2.json"
exit 0
