# 613: make install with PREFIX and DESTDIR puts the command, the
# interposer (where the command finds it), the header, the man pages, the
# completion scripts and the docs under DESTDIR/PREFIX; the installed
# command runs a leaking program with the installed interposer and finds
# the leak; make uninstall removes every file it installed.
. "$(dirname "$0")/../lib.sh"
command -v make > /dev/null || skip "no make"
[ "$LEAKSCOPE" = "$ROOT/build/leakscope" ] || skip "make install installs build/, not $LEAKSCOPE"
v=$(victim leak-one) || exit
root=$T/root prefix=/opt/leakscope-test
# PGO=0: install what is built, never a new profile-guided build
make -s -C "$ROOT" PGO=0 install DESTDIR="$root" PREFIX="$prefix" > "$T/install.log" 2>&1 ||
	{ cat "$T/install.log"; fail "make install failed"; }
p=$root$prefix
for f in bin/leakscope lib/leakscope/libleakscope.so include/leakscope.h \
	share/man/man1/leakscope.1 share/man/man1/leakscope-run.1 share/man/man1/leakscope-report.1 \
	share/bash-completion/completions/leakscope share/zsh/vendor-completions/_leakscope \
	share/doc/leakscope/README.md share/doc/leakscope/docs/json-leaks.md; do
	[ -f "$p/$f" ] || fail "make install did not install $prefix/$f"
done
[ -x "$p/bin/leakscope" ] || fail "the installed command is not executable"
for c in $("$LEAKSCOPE" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p' | grep -vx 'help\|version'); do
	[ -f "$p/share/man/man1/leakscope-$c.1" ] || fail "no man page installed for $c"
done
find "$root" -type f | grep -v "^$p/" && fail "make install wrote outside PREFIX"
cmp -s "$p/include/leakscope.h" "$ROOT/include/leakscope.h" || fail "installed header differs"

# the installed command, with the installed interposer
unset LEAKSCOPE_PRELOAD
"$p/bin/leakscope" --version | grep -qx "$("$LEAKSCOPE" --version)" || fail "installed --version"
out=$("$p/bin/leakscope" run --exit-code 0 -- sh -c 'echo "$LD_PRELOAD"' 2> /dev/null) ||
	fail "installed leakscope run failed"
[ "$out" = "$p/lib/leakscope/libleakscope.so" ] || fail "the program was given LD_PRELOAD='$out'"
rc=0
"$p/bin/leakscope" run -f json -o "$T/r.json" -- "$v" > /dev/null 2> "$T/stderr" || rc=$?
expect_rc 23
expect_json "$T/r.json" '[all_leaks[] | select(.class == "definitely-lost" and has_fn("hello"))] | length == 1'
if command -v man > /dev/null; then
	MANWIDTH=80 man -l "$p/share/man/man1/leakscope-run.1" > "$T/man" 2>&1 || fail "man -l of the installed page"
	expect_grep "$T/man" '^NAME'
fi

make -s -C "$ROOT" PGO=0 uninstall DESTDIR="$root" PREFIX="$prefix" > "$T/uninstall.log" 2>&1 ||
	{ cat "$T/uninstall.log"; fail "make uninstall failed"; }
left=$(find "$root" ! -type d)
[ -z "$left" ] || fail "make uninstall left: $left"
[ ! -d "$p/lib/leakscope" ] || fail "make uninstall left lib/leakscope/"
[ ! -d "$p/share/doc/leakscope" ] || fail "make uninstall left share/doc/leakscope/"
exit 0
