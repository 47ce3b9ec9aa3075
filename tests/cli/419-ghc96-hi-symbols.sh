# 419: -hi bands without an IPE entry (library and RTS closures) are named
# from the executable's symbol table, z-decoded and marked as named by
# symbol; an executable that does not fit the eventlog names nothing and
# says why. The executable is the real one of map-leak-hi.eventlog, less
# its code and data (make-fixtures.sh).
. "$(dirname "$0")/../lib.sh"
command -v xz > /dev/null || skip "xz is not installed"
FIX=$ROOT/tests/fixtures/eventlog
in=$FIX/map-leak-hi.eventlog
xz -dc "$FIX/map-leak.syms.xz" > "$T/MapLeak" || fail "cannot unpack the symbols"
named() { # json
	expect_json "$1" '.warnings == []'
	expect_json "$1" '.bands[0].id == "0x43d840" and .bands[0].label == "containers-0.6.7:Data.Map.Internal.Bin_con_info" and .bands[0].details.named_by == "symbol"'
	expect_json "$1" '.bands[0].details.description == "containerszm0zi6zi7_DataziMapziInternal_Bin_con_info"'
	expect_json "$1" '[.bands[] | select(.id == "0xa65cf0" or .id == "0xa96498") | .label] | sort == ["ghc-prim:GHC.Types.:_con_info", "stg_BLACKHOLE_info"]'
	# IPE entries still name their bands
	expect_json "$1" '[.bands[] | select(.details.named_by == "IPE") | .label] | index("Entry_Main_1_con_info") != null'
	expect_json "$1" '[.bands[] | select(.details.named_by == "IPE") | .details.source_location] | index("MapLeak.hs:15:11-46") != null'
	# a library's local closure has no symbol: left as its address
	expect_json "$1" '[.bands[] | select(.id == "0x8b8690") | .label, .details.named_by] == ["0x8b8690", null]'
	expect_json "$1" '[.bands[] | select(.label | startswith("0x"))] | length <= 5 and all(.details.named_by == null)'
	expect_json "$1" '[.bands[] | select(.details.named_by == "symbol")] | length >= 15'
}
"$LEAKSCOPE" eventlog --format json -o "$T/b.json" --binary "$T/MapLeak" "$in" 2> "$T/err" ||
	{ cat "$T/err"; fail "--binary exit $?"; }
named "$T/b.json"
# without --binary: the program's path in the eventlog ("./MapLeak")
expect_json "$T/b.json" '.meta.program | startswith("./MapLeak ")'
(cd "$T" && "$LEAKSCOPE" eventlog --format json -o "$T/p.json" "$in") || fail "exit $?"
named "$T/p.json"
# the text marks the bands named by symbol
"$LEAKSCOPE" eventlog --format text --top 1 --binary "$T/MapLeak" "$in" > "$T/t.txt" || fail "text exit $?"
expect_grep "$T/t.txt" 'containers-0\.6\.7:Data\.Map\.Internal\.Bin_con_info \| .* \| symbol$'
# refused: a position-independent executable, one that does not fit
echo 'int main(void) { return 0; }' > "$T/c.c"
cc -fPIE -pie -o "$T/pie" "$T/c.c" && cc -no-pie -o "$T/nopie" "$T/c.c" || fail "cannot build C programs"
for exe in pie nopie; do
	"$LEAKSCOPE" eventlog --format json -o "$T/$exe.json" --binary "$T/$exe" "$in" 2> "$T/err" ||
		fail "$exe: exit $?"
	cat "$T/err"
	expect_json "$T/$exe.json" '.bands[0].label == "0x43d840" and (.detail_columns | index("named_by")) == null'
done
expect_grep "$T/err" "^leakscope: warning: '.*map-leak-hi.eventlog': -hi bands not named by symbol: '.*nopie' does not match the eventlog \(the table at 0x[0-9a-f]+ is not in its code\)$"
expect_json "$T/pie.json" '.warnings == ["-hi bands not named by symbol: '"'$T/pie'"' is position-independent (the run-time addresses of its info tables are not known)"]'
exit 0
