# 612: the bash and zsh completion scripts (made by tools/completion.sh
# from the help) offer every command and every option of every command;
# bash completes commands, options, the values of -f, --cost and --color, files
# for -o, and a program's own command line after run's options; the zsh
# script parses.
. "$(dirname "$0")/../lib.sh"
B=$(dirname "$LEAKSCOPE")
bash_c=$B/completion/leakscope zsh_c=$B/completion/_leakscope
[ -s "$bash_c" ] && [ -s "$zsh_c" ] || fail "no completion scripts in $B/completion (make builds them)"
sh "$ROOT/tools/completion.sh" "$LEAKSCOPE" bash | cmp -s - "$bash_c" || fail "$bash_c is stale"
cmds=$("$LEAKSCOPE" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
for c in $cmds; do
	grep -q "\\b$c\\b" "$bash_c" || fail "bash completion lacks the command $c"
	grep -q "'$c:" "$zsh_c" || fail "zsh completion lacks the command $c"
	case $c in help|version) continue ;; esac
	grep -q "^_leakscope_$c()" "$zsh_c" || fail "zsh completion has no function for $c"
	"$LEAKSCOPE" help "$c" | sed -nE 's/^  (-([a-zA-Z]), |    )--([a-z][a-z-]*).*/\2 --\3/p' |
	while read -r short long; do
		[ -n "$long" ] || { long=$short; short=; }
		grep -q -- "^	$c) echo \".* $long\\b" "$bash_c" ||
			grep -q -- "^	$c) echo \"$long\\b" "$bash_c" || fail "bash: $c lacks $long"
		[ -z "$short" ] || grep -q -- "^	$c) echo \".*-$short $long" "$bash_c" ||
			fail "bash: $c lacks -$short"
		[ "$long" = --help ] && continue
		awk "/^_leakscope_$c\\(\\)/,/^}/" "$zsh_c" | grep -Eq -- "$long(=|\\[|\\})" || fail "zsh: $c lacks $long"
		[ -z "$short" ] || awk "/^_leakscope_$c\\(\\)/,/^}/" "$zsh_c" | grep -q -- "{-$short[+,]" ||
			fail "zsh: $c lacks -$short"
	done || exit 1
done

command -v bash > /dev/null || skip "no bash: the scripts' contents were checked"
cat > "$T/c.bash" <<EOS
. "$bash_c"
c() { COMP_WORDS=("\$@"); COMP_CWORD=\$((\${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _leakscope; echo "\${COMPREPLY[*]}"; }
cd "$T"
: > file.lstrace
c leakscope ""
c leakscope rec
c leakscope run --no-f
c leakscope report -f ""
c leakscope report --cost al
c leakscope report --format = js
c leakscope diff -o file.l
c leakscope help ru
c leakscope report fi
c leakscope run -o x --frames 3 -- ls
c leakscope check -
c leakscope run --color ""
EOS
bash "$T/c.bash" > "$T/got" 2> "$T/err" || { cat "$T/err"; fail "bash completion failed"; }
[ ! -s "$T/err" ] || { cat "$T/err"; fail "bash completion wrote errors"; }
expect() { # line regex
	sed -n "${1}p" "$T/got" | grep -Eq -- "$2" || { cat "$T/got"; fail "completion $1: not /$2/"; }
}
expect 1 '^run record .*diff help version --help --version$'
expect 2 '^record$'
expect 3 '^--no-follow$'
expect 4 '^text json html pprof folded massif$'
expect 5 '^allocations allocated$'
expect 6 '^json$'
expect 7 '^file.lstrace$'
expect 8 '^run$'
expect 9 '^file.lstrace$'
expect 10 '(^| )ls( |$)'
expect 11 '^-f --format --why --top --full-stacks --color -h --help$'
expect 12 '^auto always never$'

if command -v zsh > /dev/null; then
	zsh -n "$zsh_c" || fail "zsh cannot parse $zsh_c"
fi
exit 0
