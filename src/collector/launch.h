/*
 * launch.h - start the program to trace: find it like execvp does, refuse
 * what LD_PRELOAD cannot reach (static or setuid programs) with a clear
 * reason, and fork/exec it with the interposer preloaded.
 */
#ifndef LK_COLLECTOR_LAUNCH_H
#define LK_COLLECTOR_LAUNCH_H

#include <signal.h>
#include <sys/types.h>

enum lk_launch_error {
	LK_LAUNCH_NOT_FOUND = 127,   /* exit codes, as env(1) and timeout(1) */
	LK_LAUNCH_NOT_EXEC = 126,
	LK_LAUNCH_UNTRACEABLE = 125,
};

/* Resolve name through PATH into a malloc'ed path. On failure returns one of
 * lk_launch_error and sets the error detail. */
int lk_launch_resolve(const char *name, char **path);

/* The signal state leakscope found, before it ignored the signals a
 * terminal sends to its whole foreground group (the program acts on them;
 * leakscope follows it): the program gets it back as it was. */
struct lk_launch_signals {
	sigset_t mask;
	struct sigaction intr, quit, pipe, tstp;
};

/* Ignore SIGINT, SIGQUIT, SIGTSTP and SIGPIPE in leakscope and block
 * SIGCHLD (read through a signalfd), keeping what was there. */
void lk_launch_take_signals(struct lk_launch_signals *saved);

/* Fork and exec path with argv, LD_PRELOAD=preload and the given socket,
 * with the signal state `sig`. Returns the child's pid, or a negative code
 * when exec failed (detail set; *exit_code is 126 or 127). */
pid_t lk_launch_spawn(const char *path, char *const argv[], const char *preload,
		      const char *socket_path, int max_frames,
		      const struct lk_launch_signals *sig, int *exit_code);

/* The interposer next to our own binary (or $LEAKSCOPE_PRELOAD). */
char *lk_launch_find_preload(void);
/* The interposer built for `attach` (libleakscope-attach.so), in the same
 * places (beside $LEAKSCOPE_PRELOAD first). */
char *lk_launch_find_attach_library(void);

#endif
