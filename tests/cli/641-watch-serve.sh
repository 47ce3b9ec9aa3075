# leakscope watch --serve: the page, in headless chromium
# (tests/browser/check_watch.mjs), follows a recording of watch-grow (10 s,
# 1000 bytes kept every 50 ms by grow_cache, a mark each second): it is the
# HTML report of the trace so far, updating itself while the program runs
# (a mark sent with leakscope mark shows; the window brushed stays), and it
# ends as the report of the finished trace; every request without the
# token printed on start gets 403. The server listens on the loopback when
# no address is given, serves the last page after the end, and watch exits
# 0 on SIGINT.
. "$(dirname "$0")/../lib.sh"
v=$(victim watch-grow) || exit
export XDG_RUNTIME_DIR=$T/xdg
mkdir -m 700 "$XDG_RUNTIME_DIR"
tr=$T/w.lstrace
[ -x /usr/bin/chromium ] || skip "chromium is not installed (watch --serve was checked)"

"$LEAKSCOPE" record -o "$tr" -- "$v" 10 2> "$T/rec.err" &
recpid=$!
"$LEAKSCOPE" watch --serve 0 --interval 500 "$tr" > "$T/out" 2> "$T/err" &
wpid=$!
i=0
until grep -q "serving http" "$T/err"; do
	i=$((i + 1)); [ $i -lt 200 ] || { cat "$T/err"; kill $wpid; fail "watch never said its address"; }
	sleep 0.05
done
url=$(sed -n 's/^leakscope: watch: serving \(http[^ ]*\)$/\1/p' "$T/err")
echo "$url" | grep -Eq '^http://127\.0\.0\.1:[0-9]+/\?token=[0-9a-f]{32}$' ||
	{ kill $wpid; fail "not a loopback address with a token: '$url'"; }
port=$(echo "$url" | sed 's/.*:\([0-9]*\)\/.*/\1/')
if command -v ss > /dev/null; then
	ss -ltn | grep -q " 127\.0\.0\.1:$port " || { ss -ltn; kill $wpid; fail "not listening on 127.0.0.1:$port"; }
fi

# the report of the finished trace, for the page to meet once the recording ended
(
	while kill -0 $recpid 2> /dev/null; do sleep 0.1; done
	"$LEAKSCOPE" report "$tr" > "$T/report" 2> /dev/null
	"$LEAKSCOPE" report --format html -o "$T/static.html" "$tr" 2> /dev/null
	"$LEAKSCOPE" report -f json "$tr" > "$T/expected.tmp" 2> /dev/null && mv "$T/expected.tmp" "$T/expected.json"
) &
browser_check "watch --serve" check_watch.mjs "$url" "$LEAKSCOPE" "$tr" "$T/expected.json" "$T/static.html" \
	"$ROOT/tests/out/screenshots"
grep -q '^  live at the end *200,000 bytes' "$T/report" || fail "the report is not of 200 blocks"

# the recording is over; watch serves its last view until interrupted
kill -0 $wpid || fail "watch --serve did not go on serving after the end"
kill -INT $wpid
rc=0
wait $wpid || rc=$?
[ $rc -eq 0 ] || fail "watch --serve exited $rc on SIGINT"
grep -q ', ended$' "$T/out" || fail "no block after the end on standard output"
exit 0
