# agreement: leakscope on the agreement corpus (tests/agreement: our own
# victims for the situations valgrind's memcheck/tests and LLVM's lsan
# TestCases check, each with what a correct checker says) agrees with
# every expectation, at every optimization level the corpus builds.
. "$(dirname "$0")/../lib.sh"
command -v cc > /dev/null || skip "no C compiler"
sh "$ROOT/tests/agreement/run.sh" --tools leakscope > "$T/agree.log" 2>&1
rc=$?
tail -n 1 "$T/agree.log"
grep DISAGREE "$T/agree.log"
[ $rc = 0 ] || fail "leakscope disagrees with the corpus: $(tail -n 1 "$T/agree.log")"
exit 0
