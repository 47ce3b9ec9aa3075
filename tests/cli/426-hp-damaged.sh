# 426: a damaged or cut .hp heap profile. A sample the end of the file cuts
# (the program was killed) is left out of the report and its trends, with
# a warning, as for an eventlog; a line that is not of the format stops the
# reading there with its number and what was expected, and the report
# shows the censuses before it; input that is no .hp file is refused
# (exit 1), never a crash. CRLF line ends and an empty sample between two
# censuses (nothing live) are read.
. "$(dirname "$0")/../lib.sh"
command -v ghc > /dev/null || skip "ghc is not installed"
bin=$(victim hs_lazy_thunk) || exit 1
name=$(basename "$bin")
(cd "$T" && "$bin" +RTS -hT -i0.01 -RTS > /dev/null) || fail "victim failed"
full=$T/$name.hp
"$LEAKSCOPE" eventlog --format json -o "$T/full.json" "$full" || fail "full exit $?"
n=$(jq '.times_ns | length' "$T/full.json")
[ "$n" -ge 5 ] || fail "only $n censuses"
seen='map(select(.values | any(. > 0))) | sort_by(.id)'

# cut inside the last census: at a line's end, and inside a line
last=$(grep -n '^BEGIN_SAMPLE' "$full" | tail -n 2 | head -n 1 | cut -d: -f1)
grep -n '^END_SAMPLE' "$full" | tail -n 2 | head -n 1 | cut -d: -f1 > "$T/end"
end=$(cat "$T/end")
[ $((end - last)) -ge 3 ] || fail "the last census has too few bands"
mid=$(((last + end) / 2))
head -n "$mid" "$full" > "$T/cut1.hp"
{ head -n "$mid" "$full"; sed -n "$((mid + 1))p" "$full" | head -c 5; } > "$T/cut2.hp"
for c in cut1 cut2; do
	"$LEAKSCOPE" eventlog --format json -o "$T/$c.json" "$T/$c.hp" 2> "$T/err" ||
		{ cat "$T/err"; fail "$c: exit $? on a cut file"; }
	expect_grep "$T/err" "^leakscope: warning: '.*$c.hp': census at [0-9.]+ s is incomplete \(the file ends before its end\): left out of the report$"
	expect_json "$T/$c.json" '.warnings | length == 1'
	expect_json "$T/$c.json" "(.times_ns | length) == $n - 1 and .meta.censuses == $n - 1"
	jq --slurpfile full "$T/full.json" -e "
		([.bands[] | {id: .id, values: .values}] | $seen) ==
		([\$full[0].bands[] | {id: .id, values: .values[:-1]}] | $seen)" "$T/$c.json" > /dev/null ||
		fail "$c: the bands differ from those of the whole file"
	# the growing band's trend without the cut census: no fall to 0
	expect_json "$T/$c.json" '.bands[0].label | startswith("THUNK")'
	expect_json "$T/$c.json" '.bands[0].stats.fit > 0.8'
done

# a line that is not of the format, in the third census: the two before
third=$(grep -n '^BEGIN_SAMPLE' "$full" | sed -n 4p | cut -d: -f1)
bad=$((third + 2))
check_bad() { # what expected-regex [outside: no sample is open]
	"$LEAKSCOPE" eventlog --format json -o "$T/bad.json" "$T/bad.hp" 2> "$T/err" ||
		{ cat "$T/err"; fail "$1: exit $?, not 0 with what was read"; }
	expect_grep "$T/err" "^leakscope: cannot read '.*bad.hp': line $bad: expected $2; the report shows what was read before\$"
	if [ "${3-}" = outside ]; then
		grep -q incomplete "$T/err" && fail "$1: a census left out"
	else
		expect_grep "$T/err" "census at [0-9.]+ s is incomplete \(line $bad cannot be read\)"
	fi
	expect_json "$T/bad.json" '(.times_ns | length) == 2 and .meta.censuses == 2'
	expect_json "$T/bad.json" '.warnings[0] | startswith("line '"$bad"': expected")'
}
sed "${bad}s/.*/garbage here/" "$full" > "$T/bad.hp"
check_bad "a word" "'band<TAB>bytes' or END_SAMPLE, found 'garbage here'"
sed "${bad}s/\t\([0-9]*\)\$/\t\1x/" "$full" > "$T/bad.hp"
check_bad "a value" "'band<TAB>bytes' or END_SAMPLE, found '.*[0-9]x'"
sed "${bad}s/.*/BEGIN_SAMPLE 1.0/" "$full" > "$T/bad.hp"
check_bad "a sample in a sample" "END_SAMPLE of the sample of line $third, found 'BEGIN_SAMPLE 1.0'"
sed "${bad}s/\t.*/\t99999999999999999999999/" "$full" > "$T/bad.hp"
check_bad "a value too large" "'band<TAB>bytes' or END_SAMPLE, found '.*\\x0999999999999999999999999'"
sed "${third}s/.*/BEGIN_SAMPLE -1/" "$full" > "$T/bad.hp"
bad=$third
check_bad "a negative time" "BEGIN_SAMPLE and a time in seconds, found 'BEGIN_SAMPLE -1'" outside
sed "${third}s/.*/THUNK\t16/" "$full" > "$T/bad.hp"
check_bad "a band outside a sample" "BEGIN_SAMPLE, MARK or a header line .*, found 'THUNK\\\\x0916'" outside

# no .hp file (nor eventlog): refused with the line and what was expected
printf 'JOBS "x"\nBEGIN_SAMPLE 0\n' > "$T/nojob.hp"
printf 'JOB x\n' > "$T/unquoted.hp"
printf 'J\001\000\002binary' > "$T/binary.hp"
for f in nojob unquoted binary; do
	"$LEAKSCOPE" eventlog --format json -o "$T/$f.json" "$T/$f.hp" 2> "$T/err" && fail "$f: accepted"
	[ $? -eq 1 ] || fail "$f: exit status not 1"
	grep -q 'Sanitizer\|runtime error' "$T/err" && { cat "$T/err"; fail "$f: sanitizer"; }
	cat "$T/err"
done
expect_grep "$T/err" "cannot read '.*binary.hp': line 1: a NUL byte"
"$LEAKSCOPE" eventlog --format json -o "$T/x.json" "$T/nojob.hp" 2> "$T/err"
expect_grep "$T/err" "cannot read '.*nojob.hp': line 1: expected JOB \"program\" .*, found 'JOBS \"x\"'"
"$LEAKSCOPE" eventlog --format json -o "$T/x.json" "$T/unquoted.hp" 2> "$T/err"
expect_grep "$T/err" "cannot read '.*unquoted.hp': line 1: expected JOB \"...\", found 'JOB x'"

# CRLF line ends: the same report
sed 's/$/\r/' "$full" > "$T/crlf.hp"
"$LEAKSCOPE" eventlog --format json -o "$T/crlf.json" "$T/crlf.hp" || fail "crlf exit $?"
jq -S '.bands' "$T/crlf.json" | cmp -s - "$(jq -S '.bands' "$T/full.json" > "$T/fb"; echo "$T/fb")" ||
	fail "CRLF: the bands differ"
# an empty sample between two censuses is one, where every band is 0
at=$(grep -n '^BEGIN_SAMPLE' "$full" | sed -n 3p | cut -d: -f1)
t=$(sed -n "${at}p" "$full" | cut -d' ' -f2)
sed "${at}i BEGIN_SAMPLE $t\nEND_SAMPLE $t" "$full" > "$T/gap.hp"
"$LEAKSCOPE" eventlog --format json -o "$T/gap.json" "$T/gap.hp" || fail "gap exit $?"
expect_json "$T/gap.json" "(.times_ns | length) == $n + 1 and .warnings == []"
expect_json "$T/gap.json" 'all(.bands[]; .values[1] == 0)'
exit 0
