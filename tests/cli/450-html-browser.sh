# The HTML report in a real browser: Debian's chromium, driven headless by
# playwright-core, checks what a person sees (tests/browser/check.mjs):
# charts with the top bands, markers with their text, tooltips, sorting by
# slope, search, pagination, native allocation stacks; no console error and
# no request but the file itself. Screenshots: tests/out/screenshots/.
. "$(dirname "$0")/../lib.sh"
B=$ROOT/tests/browser
cc -std=gnu11 -D_GNU_SOURCE -I"$ROOT/src" -O1 -g -o "$T/gen" "$B/gen_fixture.c" \
	"$ROOT/build/libcore.a" -ldw -lelf -lzstd -lz -liberty -lm -lpthread || fail "cannot build gen_fixture"
for f in ipe native big; do
	"$T/gen" $f "$T/$f.html" || fail "gen_fixture $f failed"
done
browser_check "the pages were written; nothing" check.mjs "$T/ipe.html" "$T/native.html" "$T/big.html" \
	"$ROOT/tests/out/screenshots"
exit 0
