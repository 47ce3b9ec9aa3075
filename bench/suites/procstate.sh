#!/bin/sh
# procstate.sh - what a program sees of its own process, from the shell and
# from programs it execs: environment names, umask, limits, nice, signal
# mask and dispositions, seccomp, capabilities, CPU affinity, personality,
# open descriptors, process group and session relations, the state of a
# stopped child. Under leakscope
# the same is expected except what preloading and tracing must change
# (LD_PRELOAD and LEAKSCOPE_* in the environment; TracerPid), which
# bench/real-suites.sh filters. Used by bench/real-suites.sh.
echo "environment names: $(env | sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)=.*/\1/p' | sort | tr '\n' ' ')"
echo "umask: $(umask)"
echo "nice: $(nice)"
echo "limits:"
ulimit -a 2> /dev/null | sed 's/^/  /'
echo "status of an exec'd grep:"
grep -E '^(SigQ|SigPnd|ShdPnd|SigBlk|SigIgn|SigCgt|NoNewPrivs|Seccomp|CapInh|CapPrm|CapEff|CapBnd|CapAmb|Cpus_allowed_list|TracerPid):' /proc/self/status |
	sed -e 's/^SigQ:\t[0-9]*\//SigQ: _\//' -e 's/^/  /'
echo "personality: $(cat /proc/self/personality)"
echo "oom_score_adj: $(cat /proc/self/oom_score_adj)"
echo "descriptors of an exec'd ls (its own directory one left out):"
ls -l /proc/self/fd 2> /dev/null | awk 'NR > 1 && $NF !~ /^\/proc\/[0-9]+\/fd$/ { print "  " $(NF - 2), $(NF - 1), $NF }' |
	sed 's/\[[0-9]*\]/[N]/'
echo "descriptors of this shell: $(ls /proc/$$/fd | sort -n | tr '\n' ' ')"
# fields 5-7 of /proc/PID/stat: pgrp, session, tty (after the comm field)
stat_of() { sed 's/^.*) //' "/proc/$1/stat" | cut -d' ' -f3-5; }
set -- $(stat_of $$)
sh_pgrp=$1 sh_sess=$2 sh_tty=$3
sleep 0.2 &
child=$!
set -- $(stat_of $child)
echo "a child: same process group $([ "$1" = "$sh_pgrp" ] && echo yes || echo no), same session $([ "$2" = "$sh_sess" ] && echo yes || echo no), tty $3 (shell's $sh_tty)"
wait $child
# a stopped child, as ps and /proc show it (T: stopped; t: stopped by a tracer)
sleep 5 &
child=$!
sleep 0.2
kill -STOP $child
sleep 0.2
echo "a child stopped by SIGSTOP: state $(sed 's/^.*) //' /proc/$child/stat | cut -d' ' -f1)"
kill -CONT $child
kill -TERM $child
# (whether the shell says "Terminated" depends on whether the child died
# before the wait began: a race of the script, with or without leakscope)
wait $child 2> /dev/null
echo "the stopped child, continued and killed: status $?"
echo "the shell leads its group: $([ "$sh_pgrp" = $$ ] && echo yes || echo no), its session: $([ "$sh_sess" = $$ ] && echo yes || echo no)"
[ -t 0 ] && echo "stdin: a terminal" || echo "stdin: not a terminal"
echo "cwd: $(pwd -P | sed "s|$HOME|~|")"
