# 404: an eventlog cut inside an event (a killed run, a full disk) still
# gives a report, with a warning that says where and up to when.
. "$(dirname "$0")/../lib.sh"
command -v ghc > /dev/null || skip "ghc is not installed"
bin=$(victim hs_lazy_thunk) || exit 1
(cd "$T" && "$bin" +RTS -l -hT -i0.01 -ol"$T/full.eventlog" -RTS > /dev/null) || fail "victim failed"
size=$(wc -c < "$T/full.eventlog")
# heap samples sit near the end (global buffer): cut 3 bytes before the end
head -c $((size - 3)) "$T/full.eventlog" > "$T/cut.eventlog"
"$LEAKSCOPE" eventlog --format json -o "$T/cut.json" "$T/cut.eventlog" 2> "$T/err" || { cat "$T/err"; fail "exit $? on a truncated file"; }
cat "$T/err"
expect_grep "$T/err" "^leakscope: cannot read '.*cut.eventlog': truncated at offset [0-9]+ \(last complete event at [0-9]+\.[0-9]{3} s\)"
expect_json "$T/cut.json" '.warnings[0] | test("^truncated at offset [0-9]+")'
expect_json "$T/cut.json" '(.times_ns | length) >= 1'
# cut inside the header: nothing to show, exit 1
head -c 100 "$T/full.eventlog" > "$T/hdr.eventlog"
"$LEAKSCOPE" eventlog --format json "$T/hdr.eventlog" > /dev/null 2> "$T/err2" && fail "header cut should fail"
expect_grep "$T/err2" "^leakscope: cannot read '.*hdr.eventlog': truncated inside the header"
exit 0
