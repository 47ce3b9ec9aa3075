# 493: fuzz the .hp heap profile reader, the band statistics and the
# writers for ~20 s (libFuzzer + ASan/UBSan, the format's words as a
# dictionary) from seeds: small written .hp files, the .hp files leakscope
# writes from the real GHC 9.6 eventlogs, and a real run's if ghc is here.
. "$(dirname "$0")/../lib.sh"
command -v clang > /dev/null || skip "clang is not installed"
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' > "$T/probe.c"
clang -fsanitize=fuzzer -o "$T/probe" "$T/probe.c" 2> /dev/null || skip "clang has no libFuzzer"
make -C "$ROOT" fuzz > "$T/build.log" 2>&1 || { tail -n 20 "$T/build.log"; fail "make fuzz"; }
C=$T/corpus
mkdir -p "$C"
printf 'JOB "p"\nDATE "d"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\nBEGIN_SAMPLE 0.00\nEND_SAMPLE 0.00\n' > "$C/empty.hp"
printf 'JOB "./p +RTS -hT"\nBEGIN_SAMPLE 0.1\nTHUNK_2_0\t48\n(,) a b\t16\nEND_SAMPLE 0.1\nMARK 0.15\nBEGIN_SAMPLE 0.2\nTHUNK_2_0\t96\nEND_SAMPLE 0.2\n' > "$C/two.hp"
printf 'JOB "p"\r\nBEGIN_SAMPLE 2\r\nx 5\r\nx\t7\r\nEND_SAMPLE 2\r\nBEGIN_SAMPLE 1\r\ny\t1\r\n' > "$C/cut.hp"
for f in "$ROOT"/tests/fixtures/eventlog/*.eventlog; do
	"$LEAKSCOPE" eventlog --format hp -o "$C/$(basename "$f" .eventlog).hp" "$f" ||
		fail "cannot write a seed from $f"
done
if command -v ghc > /dev/null && bin=$(victim hs_lazy_thunk); then
	(cd "$T" && "$bin" +RTS -hT -i0.01 -RTS > /dev/null && mv ./*.hp "$C/") || fail "victim failed"
fi
cd "$T" || exit 1
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	"$ROOT/build-fuzz/hp_fuzz" -dict="$ROOT/tests/fuzz/hp.dict" -max_total_time=20 \
	-max_len=8192 -timeout=10 -rss_limit_mb=1024 "$C" > "$T/fuzz.log" 2>&1 ||
	{ tail -n 40 "$T/fuzz.log"; fail "the fuzzer found a crash"; }
tail -n 3 "$T/fuzz.log"
exit 0
