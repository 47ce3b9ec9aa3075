# 614: the Debian package. A copy of the tree is built with
# 'dpkg-buildpackage -b -us -uc'; the .deb is extracted (dpkg-deb -x,
# nothing is installed on this machine) and what it holds is run: its
# leakscope says the version of debian/changelog, finds its interposer
# under usr/lib/leakscope and reports a leak of a small C program, its man
# pages read with 'man -l', its control file names what the static
# command was built from. Skipped where dpkg-dev, debhelper or the build
# dependencies are missing. (Rules-Requires-Root: no - the build needs no
# root, and nothing is installed.)
. "$(dirname "$0")/../lib.sh"
for t in dpkg-buildpackage dpkg-deb dpkg-checkbuilddeps dpkg-parsechangelog dh; do
	command -v "$t" > /dev/null || skip "no $t (dpkg-dev, debhelper: tools/install-deps.sh test)"
done
(cd "$ROOT" && dpkg-checkbuilddeps) > "$T/deps" 2>&1 || skip "build dependencies missing: $(cat "$T/deps")"
v=$(victim leak-one) || exit

# a copy of the sources: what git tracks (and new files it does not ignore)
src=$T/src/leakscope
mkdir -p "$src"
if git -C "$ROOT" rev-parse --git-dir > /dev/null 2>&1; then
	(cd "$ROOT" && git ls-files -co --exclude-standard -z | tar cf - --no-recursion --null -T -) | tar xf - -C "$src"
else
	(cd "$ROOT" && tar cf - --exclude='./build*' --exclude=./tests/out --exclude=node_modules .) | tar xf - -C "$src"
fi
[ -x "$src/debian/rules" ] || fail "no executable debian/rules in the copy"
(cd "$src" && dpkg-buildpackage -b -us -uc) > "$T/build.log" 2>&1 ||
	{ tail -n 40 "$T/build.log"; fail "dpkg-buildpackage failed"; }
version=$(cd "$src" && dpkg-parsechangelog -S Version)
deb=$(ls "$T"/src/leakscope_"$version"_*.deb 2>/dev/null | head -n 1)
[ -f "$deb" ] || { ls "$T/src"; fail "no leakscope_${version}_*.deb built"; }

dpkg-deb -I "$deb" > "$T/control" || fail "dpkg-deb -I"
expect_grep "$T/control" '^ Built-Using: .*elfutils \(= .*glibc \(= .*libiberty \(= '
expect_grep "$T/control" '^ Depends: libc6'
dpkg-deb -c "$deb" > "$T/contents" || fail "dpkg-deb -c"
for f in usr/bin/leakscope usr/lib/leakscope/libleakscope.so usr/include/leakscope.h \
	usr/share/man/man1/leakscope.1.gz usr/share/man/man1/leakscope-run.1.gz \
	usr/share/bash-completion/completions/leakscope usr/share/zsh/vendor-completions/_leakscope \
	usr/share/doc/leakscope/copyright; do
	grep -q " \\./$f\$" "$T/contents" || fail "the package lacks /$f"
done
grep -Eq ' \./usr/local/| \./build' "$T/contents" && fail "the package holds files outside /usr"

root=$T/root
dpkg-deb -x "$deb" "$root" || fail "dpkg-deb -x"
ls=$root/usr/bin/leakscope
[ "$("$ls" --version)" = "leakscope $version" ] ||
	fail "the packaged leakscope says '$("$ls" --version)', debian/changelog $version"
unset LEAKSCOPE_PRELOAD
out=$("$ls" run --exit-code 0 -- sh -c 'echo "$LD_PRELOAD"' 2> /dev/null) || fail "packaged leakscope run failed"
[ "$out" = "$root/usr/lib/leakscope/libleakscope.so" ] || fail "the program was given LD_PRELOAD='$out'"
rc=0
"$ls" run -f json -o "$T/r.json" -- "$v" > /dev/null 2> "$T/stderr" || rc=$?
expect_rc 23
expect_json "$T/r.json" '[all_leaks[] | select(.class == "definitely-lost" and has_fn("hello") and .bytes == 1000)] | length == 1'
if command -v man > /dev/null; then
	MANWIDTH=80 man -l "$root/usr/share/man/man1/leakscope-run.1.gz" > "$T/man" 2>&1 || fail "man -l"
	expect_grep "$T/man" '^EXIT STATUS'
fi
exit 0
