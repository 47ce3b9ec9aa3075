# 610: a man page for leakscope and for each of its commands, complete
# (every section), free of groff warnings, and agreeing with --help: every
# option --help shows is in the page's OPTIONS, and every option there is
# in --help. leakscope(1) documents every environment variable the
# sources read, and so does the README.
. "$(dirname "$0")/../lib.sh"
MAN=$ROOT/man
cmds=$("$LEAKSCOPE" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p' | grep -vx 'help\|version')
[ "$(echo "$cmds" | wc -l)" -ge 11 ] || fail "too few commands in --help: $cmds"
version=$("$LEAKSCOPE" --version | sed 's/^leakscope //')

# troff source -> plain text of one section (no fonts, no escapes)
section() { # page name
	awk -v s="$2" '/^\.SH / { on = ($0 == ".SH " s || $0 == ".SH \"" s "\"") ; next } on' "$1" |
		sed 's/\\-/-/g; s/\\f[BIRP]//g; s/\\c$//; s/"//g'
}
# the options a command's --help shows: "-x --name" or "--name"
help_options() { # cmd
	"$LEAKSCOPE" help "$1" | sed -nE 's/^  (-([a-zA-Z]), |    )--([a-z][a-z-]*).*/\2 --\3/p'
}

for page in leakscope $(for c in $cmds; do echo "leakscope-$c"; done); do
	f=$MAN/$page.1
	[ -f "$f" ] || fail "no man page $page.1"
	for s in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" ENVIRONMENT FILES EXAMPLES "SEE ALSO"; do
		grep -Eq "^\\.SH \"?$s\"?\$" "$f" || fail "$page.1 has no $s section"
	done
	grep -q "^\\.TH .* \"leakscope $version\"" "$f" || fail "$page.1 is not of leakscope $version"
	section "$f" "EXIT STATUS" | grep -Eq '^(\.B )?2$' || fail "$page.1: usage errors (2) not in EXIT STATUS"
	if command -v groff > /dev/null; then
		groff -man -Tutf8 -ww "$f" > "$T/out" 2> "$T/warn" || fail "groff failed on $page.1"
		[ -s "$T/warn" ] && { cat "$T/warn"; fail "groff warns about $page.1"; }
		[ -s "$T/out" ] || fail "groff wrote nothing for $page.1"
	fi
	if command -v man > /dev/null; then
		MANWIDTH=80 man -l "$f" > "$T/man" 2> "$T/manerr" || { cat "$T/manerr"; fail "man -l $page.1"; }
		grep -q "^NAME" "$T/man" || fail "man -l $page.1 shows no NAME"
	fi
done

for c in $cmds; do
	f=$MAN/leakscope-$c.1
	section "$f" OPTIONS > "$T/opts"
	help_options "$c" > "$T/help"
	[ -s "$T/help" ] || fail "no options in 'leakscope help $c'"
	while read -r short long; do
		[ -n "$long" ] || { long=$short; short=; }
		grep -q -- "$long\\b" "$T/opts" || fail "leakscope-$c.1 does not document $long"
		[ -z "$short" ] || grep -Eq -- "(^|[ ,])-$short([ ,]|\$)" "$T/opts" ||
			fail "leakscope-$c.1 does not document -$short ($long)"
	done < "$T/help"
	# and nothing the command does not have
	awk '/^\.TP/ { getline; print }' "$MAN/leakscope-$c.1" |
		sed 's/\\-/-/g; s/\\f[BIRP]//g' | grep -oE -- '--[a-z][a-z-]*' | sort -u |
	while read -r long; do
		grep -q -- " $long\$" "$T/help" || fail "leakscope-$c.1 documents $long, 'leakscope help $c' does not"
	done || exit 1
	section "$f" SYNOPSIS | grep -q "leakscope $c" || fail "leakscope-$c.1: no synopsis"
	grep -q "leakscope-$c(1)\\|leakscope\\\\-$c (1)" "$MAN/leakscope.1" || fail "leakscope.1 does not name leakscope-$c(1)"
done

# every environment variable the sources read, in leakscope.1 and the README
vars=$(cd "$ROOT" && { grep -rhoE 'getenv\("[A-Z_]+"\)' src | sed 's/getenv("//; s/")//'
	grep -rhoE '#define LK_ENV_[A-Z]+ +"[A-Z_]+"' src | sed 's/.*"\(.*\)"/\1/'; } | sort -u)
[ -n "$vars" ] || fail "no getenv found in src/"
for v in $vars; do
	section "$MAN/leakscope.1" ENVIRONMENT | grep -q "^$v\$\|^\.B $v\$\|$v" ||
		fail "leakscope.1 does not document the environment variable $v"
	grep -q "$v" "$ROOT/README.md" || fail "README.md does not mention the environment variable $v"
done
exit 0
