# docs/valgrind-agreement.md: on `perl -e 1` with its hash seed fixed, the
# scan's definitely, indirectly and possibly lost totals equal valgrind's
# LEAK SUMMARY exactly, bytes and blocks, once perl sees the same
# environment under both tools. Perl copies every environment variable into
# %ENV (a hash entry, a key, a value and a magic each, and the hash's bucket
# array grows with the count), and each tool adds its own variables: so each
# run is given the other's, with values of the same length (the preload
# library is copied to a path as long as valgrind's LD_PRELOAD value).
. "$(dirname "$0")/../lib.sh"
command -v valgrind > /dev/null || skip "no valgrind"
perl=$(command -v perl) || skip "no perl"
show_env='print "$_=$ENV{$_}\n" for sort keys %ENV'

# valgrind's own additions, seen from inside perl
env -i PWD="$(pwd)" valgrind -q "$perl" -e "$show_env" > "$T/vg.env" 2> /dev/null ||
	fail "valgrind perl failed"
vg_preload=$(sed -n 's/^LD_PRELOAD=//p' "$T/vg.env")
vg_libpath=$(sed -n 's/^LD_LIBRARY_PATH=//p' "$T/vg.env")
[ -n "$vg_preload" ] || fail "valgrind sets no LD_PRELOAD"
dir=$T/p
while [ $(( ${#dir} + 16 )) -lt ${#vg_preload} ]; do dir=${dir}x; done
mkdir -p "$dir" && cp "$(dirname "$LEAKSCOPE")/libleakscope.so" "$dir/" || fail "cannot copy the library"
lib=$dir/libleakscope.so
[ ${#lib} -eq ${#vg_preload} ] || fail "library path of ${#lib} characters, want ${#vg_preload}"

set -- PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0 PWD="$(pwd)" LEAKSCOPE_FRAMES=64 LEAKSCOPE_PRELOAD="$lib"
for v in $(grep -E '^GLIBC(PP|XX)_FORCE_NEW=' "$T/vg.env"); do set -- "$@" "$v"; done
[ -n "$vg_libpath" ] && ls_libpath="LD_LIBRARY_PATH=$vg_libpath" || ls_libpath=
env -i "$@" $ls_libpath "$LEAKSCOPE" run --no-follow -- "$perl" -e "$show_env" > "$T/ls.env" 2> /dev/null
sock=$(sed -n 's/^LEAKSCOPE_SOCKET=//p' "$T/ls.env" | sed 's/./x/g')
env -i "$@" ${sock:+LEAKSCOPE_SOCKET=$sock} valgrind -q "$perl" -e "$show_env" > "$T/vg2.env" 2> /dev/null
# the same names and value lengths
shape() { sed 's/=/ /' "$1" | awk '{ print $1, length($2) }'; }
shape "$T/ls.env" > "$T/ls.shape"
shape "$T/vg2.env" > "$T/vg.shape"
cmp -s "$T/ls.shape" "$T/vg.shape" || { diff "$T/ls.shape" "$T/vg.shape"; fail "environments differ"; }

env -i "$@" $ls_libpath "$LEAKSCOPE" run --exit-code 0 --no-follow -f json -o "$T/r.json" -- "$perl" -e 1 \
	2> "$T/stderr" || { cat "$T/stderr"; fail "leakscope run failed"; }
env -i "$@" ${sock:+LEAKSCOPE_SOCKET=$sock} valgrind --leak-check=full "$perl" -e 1 2> "$T/vg.txt" ||
	fail "valgrind failed"
summary() { # kind -> "BYTES BLOCKS"
	sed -nE "s/^==[0-9]+== +$1 lost: ([0-9,]+) bytes in ([0-9,]+) blocks/\1 \2/p" "$T/vg.txt" | tr -d ,
}
for k in definitely indirectly possibly; do
	set -- $(summary $k)
	[ $# -eq 2 ] || { cat "$T/vg.txt"; fail "no '$k lost' line in valgrind's summary"; }
	expect_json "$T/r.json" "root.classes[\"$k-lost\"] == {\"bytes\": $1, \"objects\": $2}"
done
# not a trivial agreement: perl leaves possibly lost blocks at exit
expect_json "$T/r.json" 'root.classes["possibly-lost"].objects > 100'
exit 0
