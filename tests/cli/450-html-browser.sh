# The HTML report in a real browser: Debian's chromium, driven headless by
# playwright-core, checks what a person sees (tests/browser/check.mjs):
# charts with the top bands, markers with their text, tooltips, sorting by
# slope, search, pagination, native allocation stacks; no console error and
# no request but the file itself. Screenshots: tests/out/screenshots/.
. "$(dirname "$0")/../lib.sh"
[ -x /usr/bin/chromium ] || skip "chromium is not installed (apt-get install chromium)"
command -v node > /dev/null || skip "node is not installed"
B=$ROOT/tests/browser
if [ ! -d "$B/node_modules/playwright-core" ]; then
	(cd "$B" && npm install --no-audit --no-fund --silent > "$T/npm.log" 2>&1) ||
		{ cat "$T/npm.log"; skip "npm cannot install playwright-core here"; }
fi
cc -std=gnu11 -D_GNU_SOURCE -I"$ROOT/src" -O1 -g -o "$T/gen" "$B/gen_fixture.c" \
	"$ROOT/build/libcore.a" -ldw -lelf -lzstd -liberty -lm -lpthread || fail "cannot build gen_fixture"
for f in ipe native big; do
	"$T/gen" $f "$T/$f.html" || fail "gen_fixture $f failed"
done
shots=$ROOT/tests/out/screenshots
(cd "$B" && timeout 180 node check.mjs "$T/ipe.html" "$T/native.html" "$T/big.html" "$shots") \
	> "$T/check.log" 2>&1
rc=$?
cat "$T/check.log"
[ $rc -eq 0 ] || fail "browser checks failed (exit $rc)"
grep -q '^not ok' "$T/check.log" && fail "a browser check failed"
grep -q '^ok ' "$T/check.log" || fail "no browser check ran"
exit 0
