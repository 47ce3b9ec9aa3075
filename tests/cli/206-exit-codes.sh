# CI semantics of run: 23 (LeakSanitizer's convention) when definitely or
# indirectly lost bytes remain after suppressions and the program itself
# succeeded; --exit-code N changes it, 0 turns it off; the program's own
# failure (status, 128+signal) always wins; possibly lost or still
# reachable blocks alone do not fail; with --no-scan, not-freed blocks do.
. "$(dirname "$0")/../lib.sh"
v=$(victim chains) || exit
paths=$(victim exit-paths) || exit

status() { # want leakscope-run-args...
	want=$1; shift
	rc=0
	"$LEAKSCOPE" run "$@" > /dev/null 2> "$T/stderr" || rc=$?
	[ "$rc" = "$want" ] || { cat "$T/stderr"; fail "run $* exited $rc, not $want"; }
}

status 23 -- "$v" direct                   # definitely lost
status 23 -- "$v" list                     # definitely and indirectly lost
status 0 -- "$v" interior                  # possibly lost only
status 0 -- "$v" global                    # still reachable only
status 7 --exit-code 7 -- "$v" direct
status 0 --exit-code 0 -- "$v" direct
printf 'leak:^direct$\n' > "$T/supp"
status 0 --suppressions "$T/supp" -- "$v" direct
status 23 --no-scan -- "$v" global          # not freed, unscanned: counts
status 0 --no-scan --exit-code 0 -- "$v" global
# the program failed: its status, not 23
status 3 -- "$paths" return                 # its block is definitely lost (104)
status 3 --exit-code 9 -- "$paths" return
( ulimit -c 0; status 139 -- "$paths" segv ) || exit 1
# bad values are usage errors (2, as in every command), refused before
# anything runs
status 2 --exit-code 300 -- "$v" direct
expect_grep "$T/stderr" "^leakscope: run: --exit-code wants a number from 0 to 255, not '300'$"
status 2 --exit-code x -- "$v" direct
exit 0
