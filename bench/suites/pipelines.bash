#!/bin/bash
# pipelines.bash - bash pipelines, jobs, traps and signals, deterministic
# output (bench/real-suites.sh compares it plain and under leakscope): pipes
# and PIPESTATUS (`yes | head -1`: yes dies of SIGPIPE, 141), process
# substitution, subshells and their status, command substitution, traps on
# EXIT and TERM, background jobs and wait (with their statuses), a
# `kill -TERM $$` that the trap handles, a read from a here-document, a
# coprocess, a SIGPIPE-ignoring writer.
set -u
trap 'echo "EXIT trap: status $?"' EXIT
trap 'echo "TERM trap: caught"; got_term=1' TERM
got_term=0

echo "== pipes"
yes | head -n 1
echo "PIPESTATUS: ${PIPESTATUS[*]}"
seq 1 100000 | grep 7 | sort -r | head -n 3
echo "PIPESTATUS: ${PIPESTATUS[*]}"
false | true
echo "false|true: ${PIPESTATUS[*]}"
set -o pipefail
false | true
echo "pipefail: $?"
set +o pipefail
printf '%s\n' c a b | sort | tr 'a-z' 'A-Z' | paste -sd,

echo "== process substitution"
diff <(printf '1\n2\n3\n') <(printf '1\n3\n4\n'); echo "diff: $?"
while read -r n sq; do echo "row $n $sq"; done < <(for i in 1 2 3; do echo "$i $((i * i))"; done)
wc -l < <(seq 1 1000)

echo "== subshells"
(exit 7); echo "subshell: $?"
x=outer; (x=inner; echo "in: $x"); echo "out: $x"
v=$(echo nested $(echo deeper $(echo deepest))); echo "$v"
( cd /; pwd ); echo "cwd kept: $([ "$PWD" = "$(pwd)" ] && echo yes)"
out=$( { echo to-stdout; echo to-stderr >&2; } 2>&1 ); echo "$out" | sort | paste -sd' '

echo "== here-doc"
while IFS=: read -r name value; do
	echo "$name=$value"
done <<HERE
alpha:1
beta:$((2 + 3))
gamma:$(echo three)
HERE
cat <<'RAW' | tr -d '\n'; echo
$not_expanded `neither`
RAW

echo "== background jobs"
for i in 1 2 3; do (sleep 0.$i; exit $((i + 10))) & pids[$i]=$!; done
for i in 1 2 3; do wait "${pids[$i]}"; echo "job $i: $?"; done
sleep 0.1 & sleep 0.2 & wait; echo "wait all: $?"
sleep 10 & p=$!; sleep 0.2; kill -TERM "$p"; wait "$p"; echo "killed job: $?"
(trap 'exit 42' USR1; while :; do sleep 0.05; done) & p=$!
sleep 0.3; kill -USR1 "$p"; wait "$p"; echo "USR1 job: $?"

echo "== coprocess"
coproc UPPER { tr 'a-z' 'A-Z'; }
echo "hello coproc" >&"${UPPER[1]}"
exec {UPPER[1]}>&-
read -r line <&"${UPPER[0]}"; echo "$line"
wait "$UPPER_PID"; echo "coproc: $?"

echo "== signals"
kill -TERM $$
echo "after kill -TERM \$\$: got_term=$got_term"
(trap '' PIPE; yes 2> /dev/null | head -c 10 > /dev/null; echo "ignored PIPE: ${PIPESTATUS[*]}")
bash -c 'kill -KILL $$'; echo "KILL: $?"
bash -c 'kill -SEGV $$'; echo "SEGV: $?"
sh -c 'exit 3'; echo "sh exit: $?"
ulimit -c 0
echo "== arithmetic and arrays"
declare -A h=([one]=1 [two]=2 [three]=3)
for k in $(printf '%s\n' "${!h[@]}" | sort); do echo "$k -> ${h[$k]}"; done
a=(5 3 9 1); IFS=$'\n' sorted=($(sort -n <<<"${a[*]}")); unset IFS; echo "${sorted[*]}"
echo "sum: $(( $(seq -s + 1 100) ))"
exit 5
