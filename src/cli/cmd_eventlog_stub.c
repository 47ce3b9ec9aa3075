/* placeholder until the eventlog reader lands */
#include "cli/cli.h"
int cmd_eventlog(int argc, char **argv)
{
	lk_cli_error("eventlog: not built yet");
	return LK_EXIT_FAILURE;
}
