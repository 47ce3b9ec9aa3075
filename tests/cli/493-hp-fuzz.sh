# 493: fuzz the .hp heap profile reader, the band statistics and the
# writers for ~20 s (libFuzzer + ASan/UBSan, the format's words as a
# dictionary) from seeds: small written .hp files, the .hp files leakscope
# writes from the real GHC 9.6 eventlogs, and a real run's if ghc is here.
. "$(dirname "$0")/../lib.sh"
build_fuzzers
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
run_fuzzer hp_fuzz -dict="$ROOT/tests/fuzz/hp.dict" -max_len=8192 -rss_limit_mb=1024 "$C"
exit 0
