/*
 * suppressions_load.h - what `run` and `report` share: the suppressions
 * a command line asks for (the built-in list unless
 * --no-default-suppressions, then each --suppressions FILE), with the
 * message of a file that cannot be read.
 */
#ifndef LK_CLI_SUPPRESSIONS_LOAD_H
#define LK_CLI_SUPPRESSIONS_LOAD_H

#include <stddef.h>

#include "analyze/suppress.h"

#define LK_CLI_SUPPRESSION_FILES 64   /* --suppressions a command takes */

/* Into sup (initialized): the built-in list if builtin, then files[0 .. n)
 * (regular files or pipes). 0, or -1 after a message. */
int lk_cli_load_suppressions(struct lk_suppressions *sup, int builtin, const char *const *files,
			     size_t n);

#endif
