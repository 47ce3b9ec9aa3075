/*
 * touch_file.c - the least any reader of a file can spend in a process of
 * its own: map the file (as `leakscope eventlog` does) and read one word
 * of every 64-byte cache line, nothing else. bench/eventlog-throughput.sh
 * times it (built statically: no dynamic loader either) next to the
 * readers, as the floor of their CPU time on that file.
 *
 *   touch_file FILE
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: touch_file FILE\n");
		return 2;
	}
	int fd = open(argv[1], O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		perror(argv[1]);
		return 1;
	}
	size_t size = (size_t)st.st_size;
	const uint8_t *p = size ? mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
	if (p == MAP_FAILED) {
		perror(argv[1]);
		return 1;
	}
	uint64_t sum = 0, w;
	for (size_t i = 0; i + sizeof(w) <= size; i += 64) {
		memcpy(&w, p + i, sizeof(w));
		sum += w;
	}
	printf("%llu\n", (unsigned long long)sum);  /* so that the reads are kept */
	return 0;
}
