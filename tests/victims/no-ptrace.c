/*
 * no-ptrace PROGRAM ARGS... - not a victim but a test helper: run PROGRAM
 * where ptrace(2) fails with EPERM, as in a container that forbids it or
 * under Yama ptrace_scope 3, without touching any system setting: a
 * seccomp filter (inherited by every child, kept across exec) answers
 * every ptrace call with EPERM.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ptrace, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {.len = sizeof(code) / sizeof(*code), .filter = code};
	if (argc < 2) {
		fprintf(stderr, "usage: no-ptrace PROGRAM [ARGS...]\n");
		return 2;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
		fprintf(stderr, "no-ptrace: cannot install the filter: %s\n", strerror(errno));
		return 2;
	}
	if (syscall(SYS_ptrace, 0 /* PTRACE_TRACEME */, 0, 0, 0) == 0 || errno != EPERM) {
		fprintf(stderr, "no-ptrace: ptrace was not denied\n");
		return 2;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "no-ptrace: cannot run '%s': %s\n", argv[1], strerror(errno));
	return 127;
}
