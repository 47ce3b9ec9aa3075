#!/bin/sh
# run.sh [PATTERN] - run every test; the last line is "N passed, N failed".
#
# A test is a unit binary (build/unit/*, and its ASan/UBSan twin in
# build-san/unit/*) or a script tests/cli/*.sh. Exit 0 = pass, 77 = skip
# (the script prints why), anything else = fail. Output of failing tests is
# shown; everything goes to tests/out/ for later reading.
cd "$(dirname "$0")/.." || exit 1
pattern=${1:-}
out=tests/out
rm -rf "$out" && mkdir -p "$out"
pass=0 fail=0 skip=0 failed=""

run_one() { # name command...
	name=$1; shift
	case "$name" in *"$pattern"*) ;; *) return ;; esac
	log="$out/$(echo "$name" | tr '/' '_').log"
	start=$(date +%s)
	"$@" > "$log" 2>&1
	rc=$?
	secs=$(( $(date +%s) - start ))
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1)); echo "ok    $name (${secs}s)"
	elif [ $rc -eq 77 ]; then
		skip=$((skip + 1)); echo "skip  $name: $(tail -n 1 "$log")"
	else
		fail=$((fail + 1)); failed="$failed $name"
		echo "FAIL  $name (exit $rc, ${secs}s)"
		tail -n 30 "$log" | sed 's/^/      /'
	fi
}

for t in build/unit/* build-san/unit/*; do
	[ -x "$t" ] && run_one "$t" "$t"
done
for t in tests/cli/*.sh; do
	[ -f "$t" ] && run_one "$t" sh "$t"
done

[ -n "$failed" ] && echo "failed:$failed"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
