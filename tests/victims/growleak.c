/*
 * growleak.c - a program whose heap grows, spikes once and is freed at
 * exit, with one allocating function reached from three callers: the
 * HTML report's brush, its site labels and its timeline. It allocates
 * from its first moment: the recorder must not hold the first events up
 * (reading symbols) and give them all one later time.
 *
 *   80 rounds, 5 ms apart; in each, dup_str copies a 100-byte string for
 *   parse_line (kept: the leak), a 300-byte one for load_config (kept
 *   until exit, then freed) and a 50-byte one for cache_name (freed at
 *   once: temporary);
 *   after round 40, a 4 MiB spike allocated and freed 15 ms later
 *   (longer than the recorder's 5 ms clock, short next to the run);
 *   at exit, load_config's strings are freed (the live bytes drop) and
 *   parse_line's are left (80 x 100 bytes not freed).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ROUNDS 80

static char *config[ROUNDS];

static char *dup_str(size_t n)
{
	char *s = malloc(n);   /* LINE:alloc */
	if (s)
		memset(s, 'x', n);
	return s;
}

static char *__attribute__((noinline)) parse_line(void)
{
	return dup_str(100);
}

static char *__attribute__((noinline)) load_config(void)
{
	return dup_str(300);
}

static void __attribute__((noinline)) cache_name(void)
{
	free(dup_str(50));
}

static void spike(void)
{
	char *big = malloc(4 << 20);   /* LINE:spike */
	if (big)
		memset(big, 1, 4 << 20);
	usleep(15000);
	free(big);
}

int main(void)
{
	static char *volatile leaked[ROUNDS];
	for (int i = 0; i < ROUNDS; i++) {
		leaked[i] = parse_line();
		config[i] = load_config();
		cache_name();
		if (i == ROUNDS / 2)
			spike();
		usleep(5000);
	}
	leaked[0] = NULL;   /* lost: nothing points at the strings any more */
	for (int i = 1; i < ROUNDS; i++)
		leaked[i] = NULL;
	usleep(20000);
	for (int i = 0; i < ROUNDS; i++)
		free(config[i]);
	return 0;
}
