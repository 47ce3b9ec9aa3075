# --suppressions FILE (LeakSanitizer style: "leak:PATTERN" lines, # comments):
# a leak whose stack matches a pattern moves from "leaks" to "suppressed",
# tagged with that pattern, and leaves the summary's leaked counts; the
# others stay. A pattern matches a frame's function, file, or module by
# its name or its full path. A missing file or a bad line is a leakscope failure (125).
. "$(dirname "$0")/../lib.sh"
v=$(victim alloc-entry) || exit
cat > "$T/supp" <<'EOS'
# the calloc leak is known
leak:leak_calloc

leak:^leak_valloc$
EOS
ls_run "$T/r.json" --suppressions "$T/supp" -- "$v"
expect_rc 23
j=$T/r.json
expect_json "$j" '[root.leaks[] | select(has_fn("leak_calloc") or has_fn("leak_valloc"))] | length == 0'
expect_json "$j" 'root.suppressed | map(select(has_fn("leak_calloc"))) | length == 1
	and .[0].suppression == "leak_calloc" and .[0].bytes == 1011'
expect_json "$j" 'root.suppressed | map(select(has_fn("leak_valloc"))) | length == 1
	and .[0].suppression == "^leak_valloc$" and .[0].bytes == 1400'
expect_json "$j" 'root.summary.leaked_objects == 14'
expect_json "$j" 'root.leaks | any(.[]; has_fn("leak_malloc"))'
# the default suppressions still apply next to a file's
expect_json "$j" 'root.suppressed | any(.[]; .suppression != "leak_calloc" and .suppression != "^leak_valloc$")'

# a module by its full path, or a glob over it, as LeakSanitizer matches
mkdir -p "$T/vendor/lib"
cp "$v" "$T/vendor/lib/prog"
for pat in "*/vendor/*" "$T/vendor/lib/prog"; do
	echo "leak:$pat" > "$T/path.supp"
	ls_run "$T/p.json" --suppressions "$T/path.supp" -- "$T/vendor/lib/prog"
	expect_json "$T/p.json" "root.leaks | map(select(.stack[0].module == \"prog\")) | length == 0"
	expect_json "$T/p.json" "root.suppressed | map(select(.suppression == \"$pat\")) | length >= 3"
done

printf 'leak:ok\nthis is not a suppression\n' > "$T/bad"
for f in "$T/bad" "$T/missing"; do
	rc=0
	"$LEAKSCOPE" run --suppressions "$f" -- "$v" > "$T/stdout" 2> "$T/stderr" || rc=$?
	expect_rc 125
	expect_grep "$T/stderr" "^leakscope: .*$(basename "$f")"
done
exit 0
