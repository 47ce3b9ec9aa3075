/*
 * main.c - TEMPORARY command table of the eventlog branch: it dispatches
 * only `leakscope eventlog`, so the eventlog feature can be tested end to
 * end. The real command table (src/cli/main.c of the main line) replaces
 * this file when the branch is merged; it calls cmd_eventlog(argc, argv)
 * with argv[0] = "eventlog".
 */
#include <stdio.h>
#include <string.h>

int cmd_eventlog(int argc, char **argv);

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "eventlog") == 0)
		return cmd_eventlog(argc - 1, argv + 1);
	fprintf(stderr, "usage: leakscope eventlog [options] FILE.eventlog\n"
		"(this build has only the eventlog command)\n");
	return 2;
}
