#!/bin/sh
# pgo-train.sh LEAKSCOPE PROFILE_DIR - the training run of the
# profile-guided build (Makefile, PGO=1): runs LEAKSCOPE, a command built
# with -fprofile-generate, on inputs that are none of the benchmarks'; it
# writes its profiles (*.gcda) under PROFILE_DIR, where the optimised
# build reads them.
#
# Inputs: a recording of the C compiler compiling one of our sources (a
# real allocator's stream: about 10^6 events, thousands of stacks) and its
# report as text, JSON and HTML; every GHC eventlog fixture likewise. The
# commands as most runs give them: with windows, size filters, diffs and
# the other formats added, the plain report gained half as much.
# Fails (status 1) when no profile was written.
set -u
ls=$1
profiles=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/leakscope-pgo.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

"$ls" record -o "$tmp/cc.lstrace" -- ${CC:-cc} -O2 -std=gnu11 -D_GNU_SOURCE -Isrc -Iinclude \
	-c src/history/history.c -o "$tmp/history.o" > /dev/null 2>&1
trace=$(ls -S "$tmp"/cc*.lstrace 2>/dev/null | head -n 1)
if [ -n "$trace" ]; then
	for fmt in text json html; do
		"$ls" report --format "$fmt" -o "$tmp/out" "$trace" > /dev/null 2>&1
	done
fi
logs=$(ls tests/fixtures/eventlog/*.eventlog)
for log in $logs; do
	for fmt in text json html; do
		"$ls" eventlog --format "$fmt" -o "$tmp/out" "$log" > /dev/null 2>&1
	done
done

n=$(find "$profiles" -name '*.gcda' 2>/dev/null | wc -l)
echo "  PGO     $n profiles${trace:+ (trained on $(basename "$trace"))}"
[ "$n" -gt 0 ]
