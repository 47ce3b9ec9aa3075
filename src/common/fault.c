/* fault.c - die at a named point when a test asks (see fault.h). */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fault.h"

void lk_fault_point(const char *name)
{
	const char *want = getenv(LK_ENV_FAULT);
	if (want && strcmp(want, name) == 0)
		kill(getpid(), SIGKILL);
}
