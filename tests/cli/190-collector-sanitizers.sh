# The collector built with ASan/UBSan (build-san/) runs real victims - a
# leaky program, threads, fork and a killed program - with no sanitizer
# report and the same leak totals as the plain build, the scan included.
. "$(dirname "$0")/../lib.sh"
SAN=$ROOT/build-san/leakscope
[ -x "$SAN" ] || skip "no sanitizer build (make SAN=1)"
cc -g -O1 -o "$T/leaky" "$ROOT/examples/leaky.c" || fail "cannot build example"
cat > "$T/forky.c" <<'C'
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
static void *work(void *a) { for (int i = 0; i < 100000; i++) free(malloc(i % 300 + 1)); return malloc(321); }
int main(void) {
	pthread_t t; void *r;
	pthread_create(&t, 0, work, 0); pthread_join(t, &r);
	pid_t p = fork();
	if (p == 0) { (void)malloc(777); _exit(0); }
	waitpid(p, 0, 0);
	return 0;
}
C
cc -g -O0 -o "$T/forky" "$T/forky.c" -lpthread || fail "cannot build forky"
rc=0
"$SAN" run -f json -o "$T/a.json" -- "$T/leaky" > /dev/null 2> "$T/a.err" || rc=$?
expect_rc 23 # leaky loses two structures
rc=0
"$SAN" run --show-reachable -f json -o "$T/b.json" -- "$T/forky" 2> "$T/b.err" || rc=$?
expect_leak_rc "$T/b.json"
for e in "$T/a.err" "$T/b.err"; do
	if grep -Eq 'AddressSanitizer|LeakSanitizer|runtime error' "$e"; then
		cat "$e"; fail "sanitizer report in $e"
	fi
done
expect_json "$T/a.json" '.processes[0].summary.leaked_bytes == 172 and .processes[0].summary.leaked_objects == 6'
# whatever the class a register or stack word gives them (--show-reachable)
expect_json "$T/b.json" '[.processes[] | select(.forked) | [.leaks[].bytes] | add] == [777]'
expect_json "$T/b.json" '[.processes[] | select(.root) | [.leaks[].bytes] | add] == [321]'
expect_json "$T/b.json" 'all(.processes[]; .scanned)'
