#!/bin/sh
# gen-cproject.sh DIR [FILES] - write a small C project into DIR (made
# anew): FILES (default 50) modules of a few functions each (hashing, a
# sort, a linked list on the heap, formatted strings), a main that runs every
# module and prints one checksum per module, and a Makefile with objects,
# dependencies on a shared header, a static library and `clean`. Built with
# `make -j2 -C DIR`, then `DIR/prog` prints the same lines everywhere.
#
# Used by bench/process-heavy.sh (timed, `make -j2` from clean each run) and
# bench/real-suites.sh (make's status and the program's output compared).
set -eu
DIR=$1
FILES=${2:-50}
rm -rf "$DIR"
mkdir -p "$DIR/src"
cat > "$DIR/src/common.h" <<'H'
#include <stddef.h>
#include <stdint.h>
struct node { struct node *next; uint64_t v; char name[24]; };
uint64_t fnv(const void *p, size_t n);
void sort_u64(uint64_t *a, size_t n);
H
cat > "$DIR/src/util.c" <<'C'
#include <stdlib.h>
#include "common.h"
uint64_t fnv(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 1469598103934665603ull;
	while (n--)
		h = (h ^ *s++) * 1099511628211ull;
	return h;
}
static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}
void sort_u64(uint64_t *a, size_t n) { qsort(a, n, sizeof *a, cmp); }
C
i=0
while [ "$i" -lt "$FILES" ]; do
	cat > "$DIR/src/mod$i.c" <<C
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
static struct node *build_$i(int n)
{
	struct node *head = NULL;
	for (int k = 0; k < n; k++) {
		struct node *e = malloc(sizeof *e);
		e->v = fnv(&k, sizeof k) ^ $i;
		snprintf(e->name, sizeof e->name, "m$i-%d", k);
		e->next = head;
		head = e;
	}
	return head;
}
static uint64_t fold_$i(struct node *l, uint64_t *tmp, size_t *n)
{
	uint64_t h = 0;
	*n = 0;
	for (; l; l = l->next) {
		h += fnv(l->name, strlen(l->name)) * (l->v | 1);
		tmp[(*n)++] = l->v % 100003;
	}
	return h;
}
static void drop_$i(struct node *l)
{
	while (l) {
		struct node *n = l->next;
		free(l);
		l = n;
	}
}
uint64_t mod${i}_run(void)
{
	uint64_t tmp[$((100 + i))];
	size_t n;
	struct node *l = build_$i($((100 + i)));
	uint64_t h = fold_$i(l, tmp, &n);
	sort_u64(tmp, n);
	for (size_t k = 0; k + 1 < n; k++)
		h ^= (tmp[k + 1] - tmp[k]) << (k % 32);
	drop_$i(l);
	return h;
}
C
	i=$((i + 1))
done
{
	echo '#include <stdio.h>'
	echo '#include <inttypes.h>'
	echo '#include "common.h"'
	i=0
	while [ "$i" -lt "$FILES" ]; do echo "uint64_t mod${i}_run(void);"; i=$((i + 1)); done
	echo 'int main(void)'
	echo '{'
	echo '	uint64_t all = 0, h;'
	i=0
	while [ "$i" -lt "$FILES" ]; do
		printf '\th = mod%d_run(); all ^= h; printf("mod%d %%016" PRIx64 "\\n", h);\n' "$i" "$i"
		i=$((i + 1))
	done
	printf '\tprintf("all %%016" PRIx64 "\\n", all);\n'
	echo '	return 0;'
	echo '}'
} > "$DIR/src/main.c"
cat > "$DIR/Makefile" <<'MK'
CC = cc
CFLAGS = -O2 -g -Wall
MODS := $(sort $(wildcard src/mod*.c)) src/util.c
OBJS := $(MODS:src/%.c=obj/%.o)

prog: obj/main.o libmods.a
	$(CC) -o $@ obj/main.o libmods.a

libmods.a: $(OBJS)
	rm -f $@
	ar rcs $@ $(OBJS)

obj/%.o: src/%.c src/common.h | obj
	$(CC) $(CFLAGS) -c -o $@ $<

obj:
	mkdir -p obj

clean:
	rm -rf obj libmods.a prog

.PHONY: clean
MK
