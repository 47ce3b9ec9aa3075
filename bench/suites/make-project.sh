#!/bin/sh
# make-project.sh - make -j2 of the generated C project of
# bench/gen-cproject.sh in the current directory, then the program; a
# second make (nothing to do) and a make of a missing target (status 2).
# Prints each status. Used by bench/real-suites.sh.
sh "$(dirname "$0")/../gen-cproject.sh" proj 50 || exit 1
make -s -j2 -C proj; echo "make: $?"
./proj/prog; echo "prog: $?"
make -j2 -C proj; echo "make again: $?"
make -s -C proj no-such-target; echo "make missing: $?"
