# 611: one command line for every command: 'leakscope help CMD' is
# 'leakscope CMD --help' for each; --version and 'version'; every usage
# error (unknown option, missing value, bad value, missing operand) exits
# 2 with one line naming the command and a pointer to its help, in every
# command; -f/--format, -o/--output, --top and -q/--quiet are accepted with
# the same spellings wherever the help lists them; old spellings still work.
. "$(dirname "$0")/../lib.sh"
cmds=$("$LEAKSCOPE" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p' | grep -vx 'help\|version')
[ "$(echo "$cmds" | wc -l)" -ge 11 ] || fail "too few commands in --help"
"$LEAKSCOPE" --help > "$T/top" || fail "--help exited $?"
expect_grep "$T/top" '--version'
expect_grep "$T/top" 'leakscope help'

# --version, version
v=$("$LEAKSCOPE" --version) || fail "--version exited $?"
echo "$v" | grep -Eqx 'leakscope [0-9]+\.[0-9]+(\.[0-9]+)?' || fail "--version says '$v'"
[ "$("$LEAKSCOPE" version)" = "$v" ] || fail "'leakscope version' differs from --version"
[ "$("$LEAKSCOPE" help version)" = "$v" ] || fail "'leakscope help version' differs from --version"

usage_error() { # what regex command-args...
	what=$1 re=$2; shift 2
	rc=0; "$LEAKSCOPE" "$@" > "$T/out" 2> "$T/err" < /dev/null || rc=$?
	[ "$rc" = 2 ] || { cat "$T/err"; fail "$what: 'leakscope $*' exited $rc, not 2"; }
	[ ! -s "$T/out" ] || fail "$what: 'leakscope $*' wrote on stdout"
	grep -Eq "$re" "$T/err" || { cat "$T/err"; fail "$what: 'leakscope $*' did not say /$re/"; }
	[ "$(wc -l < "$T/err")" -eq 2 ] || { cat "$T/err"; fail "$what: not two lines"; }
	grep -q "^try 'leakscope help $1'\$" "$T/err" || { cat "$T/err"; fail "$what: no pointer to the help"; }
}

for c in $cmds; do
	# help CMD == CMD --help == CMD -h, on stdout, status 0
	"$LEAKSCOPE" help "$c" > "$T/h1" || fail "help $c exited $?"
	"$LEAKSCOPE" "$c" --help > "$T/h2" || fail "$c --help exited $?"
	"$LEAKSCOPE" "$c" -h > "$T/h3" || fail "$c -h exited $?"
	cmp -s "$T/h1" "$T/h2" && cmp -s "$T/h1" "$T/h3" || fail "help $c, $c --help and $c -h differ"
	expect_grep "$T/h1" "^usage: leakscope $c"
	expect_grep "$T/h1" '^  -h, --help '
	expect_grep "$T/h1" '^exit status: .*2 usage error|2 usage error'
	grep -q 'man leakscope-'"$c" "$T/h1" || fail "help $c does not name its man page"
	# the same usage errors, the same status
	usage_error "unknown option" "^leakscope: $c: unknown option '--no-such-option'\$" "$c" --no-such-option x
	usage_error "unknown short option" "^leakscope: $c: unknown option '-Z'\$" "$c" -Z x
	usage_error "flag with a value" "^leakscope: $c: option '--help' takes no value\$" "$c" --help=1
done
for c in run record check; do usage_error "no operand" "^leakscope: $c: " "$c"; done
for c in dump report eventlog; do usage_error "no operand" "^leakscope: $c: no [a-z]+ given\$" "$c"; done
usage_error "no operand" "^leakscope: diff: two points are needed" diff
usage_error "too many operands" "^leakscope: mark: too many arguments\$" mark 1 a b
usage_error "missing value" "^leakscope: run: option '--frames' needs a value\$" run --frames
usage_error "missing value" "^leakscope: report: option '-o' needs a value\$" report -o
usage_error "bad number" "^leakscope: record: --frames wants a number from 1 to 128, not 'x'\$" record --frames x -- true
usage_error "bad count" "^leakscope: report: --top wants a number from 0 to 1000000000, not '-1'\$" report --top -1 t
usage_error "bad choice" "^leakscope: diff: unknown format 'xml' \\(text, json or html\\)\$" diff -f xml a b
usage_error "ambiguous" "^leakscope: run: ambiguous option '--show'\$" run --show -- true
usage_error "not a command" "^leakscope: help: 'nosuch' is not a command\$" help nosuch
rc=0; "$LEAKSCOPE" nosuch 2> "$T/err" || rc=$?
[ $rc -eq 2 ] || fail "an unknown command exited $rc"
rc=0; "$LEAKSCOPE" 2> "$T/err" || rc=$?
[ $rc -eq 2 ] || fail "no command exited $rc"
expect_grep "$T/err" '^usage: leakscope COMMAND'

# the shared options, where the help lists them: the same spellings
for c in $cmds; do
	"$LEAKSCOPE" help "$c" > "$T/h"
	for o in "-o, --output FILE" "-f, --format " "--top N" "-q, --quiet"; do
		if grep -q -- "^  .*$o" "$T/h"; then echo "$c $o"; fi
	done
	# an option named like a shared one has its shared spelling
	grep -Eq -- '^      --(output|format|quiet)' "$T/h" && fail "$c has a long-only --output, --format or --quiet"
	grep -Eq -- '^  -[ofq], --' "$T/h" && ! grep -Eq -- '^  -(o, --output|f, --format|q, --quiet)' "$T/h" &&
		fail "$c gives -o, -f or -q another meaning"
done > "$T/shared"
for want in "run -o, --output FILE" "run -f, --format " "record -o, --output FILE" "record -q, --quiet" \
	"report -o, --output FILE" "report -f, --format " "report --top N" "report -q, --quiet" \
	"diff -o, --output FILE" "diff -f, --format " "diff --top N" "diff -q, --quiet" \
	"eventlog -o, --output FILE" "eventlog -f, --format " "eventlog --top N" "eventlog -q, --quiet" \
	"check -f, --format "; do
	grep -qxF "$want" "$T/shared" || fail "not in the help: $want"
done

# and they work: one eventlog report, every spelling, the same bytes
"$ROOT/build/unit/eventlog_test" --write-seeds "$T" > /dev/null || fail "cannot write seeds"
ev=$T/seed0.eventlog
"$LEAKSCOPE" eventlog --format text --top 3 -o "$T/a.txt" "$ev" || fail "eventlog long options: $?"
"$LEAKSCOPE" eventlog -f text --top=3 --output "$T/b.txt" "$ev" || fail "eventlog short options: $?"
"$LEAKSCOPE" eventlog "$ev" -ftext --top 3 -o"$T/c.txt" || fail "eventlog options after the operand: $?"
"$LEAKSCOPE" eventlog --form=text --to 3 --out="$T/d.txt" -- "$ev" || fail "eventlog abbreviations: $?"
cmp "$T/a.txt" "$T/b.txt" && cmp "$T/a.txt" "$T/c.txt" && cmp "$T/a.txt" "$T/d.txt" ||
	fail "the spellings of -f, -o, --top give different reports"
[ "$(grep -Ec '^ +[0-9]+ ' "$T/a.txt")" -eq 3 ] || fail "--top 3 does not show 3 bands"
# -q: the file a report was written to is not said
"$LEAKSCOPE" eventlog "$ev" 2> "$T/err" || fail "eventlog html: $?"
expect_grep "$T/err" "^leakscope: wrote "
rm -f "$ev.html"
"$LEAKSCOPE" eventlog -q "$ev" 2> "$T/err" || fail "eventlog -q: $?"
[ -s "$ev.html" ] || fail "eventlog -q wrote no report"
[ ! -s "$T/err" ] || { cat "$T/err"; fail "eventlog -q said something"; }
"$LEAKSCOPE" eventlog --quiet -f json -o - "$ev" > /dev/null 2> "$T/err" || fail "eventlog --quiet: $?"
[ ! -s "$T/err" ] || fail "eventlog --quiet said something"
exit 0
