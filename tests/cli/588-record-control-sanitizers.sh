# Tests 585-587 (record's control socket, program marks, the window) with
# the ASan/UBSan build of leakscope (build-san/): each fails on a
# sanitizer report in record's stderr or a non-zero exit.
. "$(dirname "$0")/../lib.sh"
SAN=$ROOT/build-san/leakscope
[ -x "$SAN" ] || skip "no sanitizer build (make SAN=1)"
for t in 585-record-control 586-record-program-marks 587-record-paused-start; do
	LEAKSCOPE=$SAN sh "$ROOT/tests/cli/$t.sh" > "$T/$t.log" 2>&1 ||
		{ cat "$T/$t.log"; fail "$t with the sanitizer build"; }
done
exit 0
