/*
 * region-overwrite.c - a program that overwrites leakscope's shared region
 * (the interposer's "memfd:leakscope" mapping, docs/shared-memory.md) in one
 * way, then goes on allocating and freeing, prints what it did and exits 0.
 * leakscope must not crash, hang or change its output and status, and must
 * say that the report is incomplete (tests/cli/231).
 *
 *   region-overwrite CASE
 *     header-offsets  the parts' offsets point outside the region
 *     header-sizes    magic, version and size
 *     ring-ahead      ring_head far ahead of every event
 *     ring-back       ring_head moved back below what was consumed
 *     counts          module_count and mark_head huge
 *     stacks          every stack entry: huge first and depth
 *     paths           module paths without a NUL, and a new such module
 *     marks           a mark text whose len is past its buffer
 *     fifo            a module (over main's code) whose file is a FIFO
 *     fork-full       a fork after the stack table is full (no overwrite:
 *                     the counters as they are then)
 *     shrink          the region's memfd cut to one page
 *     maps-name       not the region: a mapped file whose name runs past a
 *                     4 KiB line of /proc/PID/maps and reads as a mapping
 *                     of most of the address space there
 *     roots           made-up roots: most of the address space, one that
 *                     wraps around its end
 *     events          made-up events: blocks that wrap or overlap, a stack
 *                     id that was never handed out
 *
 * Without leakscope there is no region: it does the same allocations and
 * prints the same lines.
 */
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../src/common/shm.h"

static void *kept;   /* allocated before the overwrite, live at exit */

int main(int argc, char **argv);

static struct lk_shm_header *find_region(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	void *at = NULL;
	while (f && !at && fgets(line, sizeof(line), f)) {
		unsigned long lo;
		if (strstr(line, "memfd:leakscope") && sscanf(line, "%lx-", &lo) == 1)
			at = (void *)lo;
	}
	if (f)
		fclose(f);
	struct lk_shm_header *h = at;
	return h && h->magic == LK_SHM_MAGIC ? h : NULL;
}

#define AT(h, off, type) ((type *)((char *)(h) + (off)))

/* Publish one event the way the interposer does (common/shm.h). */
static void publish(struct lk_shm_header *h, struct lk_slot *ring, unsigned kind, uint64_t addr,
		    uint64_t size, uint32_t stack)
{
	uint64_t pos = atomic_fetch_add(&h->ring_head, 1), lap = LK_RING_LAP(pos);
	struct lk_slot *s = &ring[pos & (LK_RING_SLOTS - 1)];
	for (uint64_t seq; (seq = atomic_load(&s->seq)) != lap;) {
		if (seq > lap)
			return;
		usleep(100);
	}
	s->addr = addr;
	s->kind_size = LK_EV_PACK(kind, size);
	s->stack = stack;
	s->tid = (uint32_t)syscall(SYS_gettid);
	atomic_store(&s->seq, lap + 1);
}

/* Cut the region's memfd to one page, through a descriptor of the mapping
 * (the interposer closed its own). */
static void shrink(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		if (!strstr(line, "memfd:leakscope") || sscanf(line, "%lx-%lx", &lo, &hi) != 2)
			continue;
		char path[96];
		snprintf(path, sizeof(path), "/proc/self/map_files/%lx-%lx", lo, hi);
		int fd = open(path, O_RDWR);
		if (fd >= 0 && ftruncate(fd, 4096) != 0) {
			/* sealed: leakscope's region cannot shrink */
		}
		if (fd >= 0)
			close(fd);
	}
	if (f)
		fclose(f);
}

/* The column where a maps line's name starts (the executable's line). */
static int name_column(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4200];
	int col = -1;
	while (f && col < 0 && fgets(line, sizeof(line), f)) {
		char *slash = strchr(line, '/');
		if (slash)
			col = (int)(slash - line);
	}
	if (f)
		fclose(f);
	return col;
}

/* Map a file whose name is so long that its maps line goes past 4 KiB,
 * and whose name from there reads as a mapping of most of the address
 * space; then remove the file and its directories (the mapping stays). */
static void long_name(void)
{
	static const char fake[] = "10000-500000000000 rw-p 00000000 00:00 0 x";
	const char *base = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char path[4096], cwd[4096], dirs[24][256];
	int col = name_column(), depth = 0;
	if (col < 0 || chdir(base) != 0 || !getcwd(cwd, sizeof(cwd)))
		return;
	size_t len = strlen(cwd), want = 4095 - (size_t)col; /* where fake must start */
	while (len + 1 + 201 + 1 < want && depth < 24) {   /* directories of 200 */
		snprintf(dirs[depth], sizeof(dirs[depth]), "lk%0198d", (int)getpid() + depth);
		if (mkdir(dirs[depth], 0700) != 0 || chdir(dirs[depth]) != 0)
			break;
		len += 1 + strlen(dirs[depth++]);
	}
	size_t pad = want - len - 1;   /* the file name: pad bytes, then fake */
	if (pad > 200) {
		if (chdir(base) != 0) {
			/* nothing more to do */
		}
		return;
	}
	memset(path, 'n', pad);
	memcpy(path + pad, fake, sizeof(fake));
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0 && ftruncate(fd, 4096) == 0)
		mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	if (fd >= 0)
		close(fd);
	unlink(path);
	while (depth-- > 0)
		if (chdir("..") != 0 || rmdir(dirs[depth]) != 0)
			break;
}

static void overwrite(struct lk_shm_header *h, const char *what)
{
	/* the layout as the interposer made it, read before anything changes */
	uint64_t ring_off = h->ring_off, entry_off = h->entry_off, module_off = h->module_off,
		 mark_off = h->mark_off;
	struct lk_slot *ring = AT(h, ring_off, struct lk_slot);
	if (!strcmp(what, "header-offsets")) {
		h->ring_off = h->entry_off = h->frame_off = h->module_off = 1ULL << 40;
		h->mark_off = UINT64_MAX - 4095;
	} else if (!strcmp(what, "header-sizes")) {
		h->magic = 0;
		h->version = 99;
		h->size = 1;
	} else if (!strcmp(what, "ring-ahead")) {
		atomic_fetch_add(&h->ring_head, 1ULL << 40);
	} else if (!strcmp(what, "ring-back")) {
		atomic_store(&h->ring_head, 1);
	} else if (!strcmp(what, "counts")) {
		atomic_store(&h->module_count, UINT32_MAX);
		atomic_store(&h->mark_head, UINT64_MAX - 2);
	} else if (!strcmp(what, "stacks")) {
		struct lk_stack_entry *e = AT(h, entry_off, struct lk_stack_entry);
		uint32_t n = atomic_load(&h->stack_count);
		for (uint32_t i = 1; i < n && i < LK_STACK_ENTRIES; i++) {
			e[i].depth = UINT32_MAX;
			e[i].first = UINT32_MAX - 7;
		}
	} else if (!strcmp(what, "paths")) {
		struct lk_module_entry *m = AT(h, module_off, struct lk_module_entry);
		uint32_t n = atomic_load(&h->module_count);
		for (uint32_t i = 0; i < n && i < LK_MODULES_MAX; i++)
			memset(m[i].path, 'A', LK_PATH_MAX);
		if (n < LK_MODULES_MAX) {
			m[n].lo = 0x1000;
			m[n].hi = 0x2000;
			memset(m[n].path, 'B', LK_PATH_MAX);
			atomic_store(&h->module_count, n + 1);
		}
	} else if (!strcmp(what, "marks")) {
		struct lk_mark_slot *slots = AT(h, mark_off, struct lk_mark_slot);
		uint64_t k = atomic_fetch_add(&h->mark_head, 1);
		struct lk_mark_slot *m = &slots[k & (LK_MARK_SLOTS - 1)];
		memset(m->text, 'x', sizeof(m->text));
		m->len = UINT32_MAX - 15;
		atomic_store(&m->seq, LK_MARK_DONE(k));
		publish(h, ring, LK_EV_MARK, k, 0, 0);
	} else if (!strcmp(what, "fifo")) {
		/* a module over main's code whose file is a FIFO nobody opens */
		struct lk_module_entry *m = AT(h, module_off, struct lk_module_entry);
		uint32_t n = atomic_load(&h->module_count);
		const char *dir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
		if (n >= LK_MODULES_MAX)
			return;
		snprintf(m[n].path, sizeof(m[n].path), "%s/region-overwrite-fifo.%d", dir, (int)getpid());
		if (mkfifo(m[n].path, 0600) != 0)
			return;
		m[n].bias = 0;
		m[n].lo = (uint64_t)(uintptr_t)main - 0x10000;
		m[n].hi = (uint64_t)(uintptr_t)main + 0x10000;
		atomic_store(&h->module_count, n + 1);
	} else if (!strcmp(what, "fork-full")) {
		/* the counters as a full stack table leaves them (they go on
		 * counting), then main forks: its child copies the table */
		atomic_store(&h->stack_count, LK_STACK_ENTRIES + 5);
		atomic_store(&h->frames_used, (uint64_t)LK_FRAME_POOL + (1u << 22));
	} else if (!strcmp(what, "shrink")) {
		shrink();
	} else if (!strcmp(what, "roots")) {
		publish(h, ring, LK_EV_ROOT_ADD, 0x10000, 1ULL << 46, 0);
		publish(h, ring, LK_EV_ROOT_ADD, UINT64_MAX - 4095, 1ULL << 20, 0);
	} else if (!strcmp(what, "events")) {
		publish(h, ring, LK_EV_ALLOC, UINT64_MAX - 15, 64, 0);
		publish(h, ring, LK_EV_ALLOC, 0x100000, 4096, 0);
		publish(h, ring, LK_EV_ALLOC, 0x100800, 16, 0);
		publish(h, ring, LK_EV_ALLOC, 0x200000, 32, 0x7ffffff0);
	}
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	printf("overwriting: %s\n", what);
	fflush(stdout);
	kept = malloc(100);
	void *before[16];
	for (int i = 0; i < 16; i++)
		before[i] = malloc(32 + (size_t)i);
	usleep(100 * 1000); /* the collector has read what came so far */
	struct lk_shm_header *h = find_region();
	if (!strcmp(what, "maps-name"))
		long_name();
	else if (h)
		overwrite(h, what);
	usleep(100 * 1000); /* ... and what was overwritten */
	for (int i = 0; i < 16; i++)
		free(before[i]);
	size_t sum = 0;
	for (int i = 0; i < 100000; i++) {
		char *p = malloc((size_t)(i % 500) + 1);
		p[0] = (char)i;
		sum += (unsigned char)p[0];
		free(p);
	}
	if (!strcmp(what, "fork-full")) {
		fflush(stdout);
		pid_t child = fork();
		if (child == 0) {
			free(malloc(77));
			_exit(0);
		}
		int st = -1;
		waitpid(child, &st, 0);
		printf("child: %d\n", st);
	}
	usleep(50 * 1000);
	printf("done: %zu\n", sum);
	return 0;
}
