# 127: colours in text reports: --color=always paints (also into a file
# and over NO_COLOR), never does not, auto does on a terminal only (not
# with NO_COLOR set and not empty, nor TERM=dumb); JSON never has them.
. "$(dirname "$0")/../lib.sh"
v=$(victim leak-one) || exit
esc=$(printf '\033')
painted() { grep -q "$esc\\[" "$1"; }

"$LEAKSCOPE" run --color=always -o "$T/always.txt" -- "$v" > /dev/null
painted "$T/always.txt" || fail "--color=always does not paint"
expect_grep "$T/always.txt" "^$esc\\[1;31mleakscope: 1,000 bytes lost in 1 object "
expect_grep "$T/always.txt" "#0  $esc\\[1mhello$esc\\[0m "     # where the program allocated
NO_COLOR=1 "$LEAKSCOPE" run --color always -o "$T/always2.txt" -- "$v" > /dev/null
painted "$T/always2.txt" || fail "--color always gives way to NO_COLOR"
for c in never auto; do
	"$LEAKSCOPE" run --color=$c -o "$T/$c.txt" -- "$v" > /dev/null
	painted "$T/$c.txt" && fail "--color=$c paints a file"
done
"$LEAKSCOPE" run -- "$v" > /dev/null 2> "$T/pipe.txt"
painted "$T/pipe.txt" && fail "the default paints into a pipe"
"$LEAKSCOPE" run --color=always -f json -o "$T/r.json" -- "$v" > /dev/null
painted "$T/r.json" && fail "JSON is painted"
jq -e . "$T/r.json" > /dev/null || fail "JSON with --color=always does not parse"
rc=0; "$LEAKSCOPE" run --color=sometimes -- "$v" > /dev/null 2> "$T/usage" || rc=$?
expect_rc 2
expect_grep "$T/usage" "^leakscope: run: unknown color 'sometimes' \\(auto, always or never\\)$"

# on a terminal: script(1) gives the command one
command -v script > /dev/null || skip "no script(1): no terminal to check auto on"
tty_run() { # file env...
	out=$1; shift
	env "$@" script -qec "'$LEAKSCOPE' run -- '$v'" /dev/null > "$out" 2>&1 < /dev/null
}
tty_run "$T/tty.txt" TERM=xterm NO_COLOR=
painted "$T/tty.txt" || { cat "$T/tty.txt"; fail "auto does not paint on a terminal"; }
expect_grep "$T/tty.txt" "1,000 bytes lost in 1 object"
tty_run "$T/tty-no.txt" TERM=xterm NO_COLOR=1
painted "$T/tty-no.txt" && fail "auto paints with NO_COLOR=1"
tty_run "$T/tty-dumb.txt" TERM=dumb NO_COLOR=
painted "$T/tty-dumb.txt" && fail "auto paints with TERM=dumb"
expect_grep "$T/tty-dumb.txt" "1,000 bytes lost in 1 object"
exit 0
