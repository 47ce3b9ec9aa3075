/*
 * scan.c - roots and memory of a stopped process for the reachability
 * classifier (analyze/reach.h).
 *
 * Roots, as LeakSanitizer takes them: every private writable mapping
 * (modules' .data and .bss, thread stacks with their static TLS, Go's and
 * GHC's heaps, other anonymous memory) except the malloc heap itself - a
 * mapping holding a live block is allocator memory, scanned only block by
 * block, so stale pointers in freed chunks and allocator metadata hide no
 * leak - and except leakscope's own shared region. The stopped thread's
 * stack is scanned from its stack pointer (less the red zone), and its
 * registers are roots too; so are every other stopped thread's, when they
 * are known (leakscope check stops them all). The heap of a GHC program
 * whose runtime has shut down is a root only where live Haskell objects
 * are (collector/ghcheap.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/leaks.h"
#include "analyze/reach.h"
#include "collector/elfsym.h"
#include "collector/ghcheap.h"
#include "collector/scan.h"
#include "common/error.h"

#define RED_ZONE 128

_Static_assert((int)LK_REACH_DEFINITE == (int)LK_CLASS_DEFINITE &&
	       (int)LK_REACH_INDIRECT == (int)LK_CLASS_INDIRECT &&
	       (int)LK_REACH_POSSIBLE == (int)LK_CLASS_POSSIBLE &&
	       (int)LK_REACH_REACHABLE == (int)LK_CLASS_REACHABLE,
	       "scan verdicts and leak classes agree");

struct roots {
	struct lk_reach_root *r;
	size_t n, cap;
};

static int add_root(struct roots *rs, uint64_t lo, uint64_t hi)
{
	if (rs->n == rs->cap) {
		size_t nc = rs->cap ? rs->cap * 2 : 64;
		struct lk_reach_root *a = realloc(rs->r, nc * sizeof(*a));
		if (!a)
			return -ENOMEM;
		rs->r = a;
		rs->cap = nc;
	}
	rs->r[rs->n++] = (struct lk_reach_root){.lo = lo, .hi = hi, .kind = "mapping"};
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* 1 if some sorted address lies in [lo, hi). */
static int holds_block(const uint64_t *addrs, size_t n, uint64_t lo, uint64_t hi)
{
	size_t a = 0, b = n;
	while (a < b) {
		size_t m = a + (b - a) / 2;
		if (addrs[m] < lo)
			a = m + 1;
		else
			b = m;
	}
	return a < n && addrs[a] < hi;
}

/*
 * Go runs its main thread's scheduler on the process's [stack] and calls C
 * (cgo) there too, while goroutines run on stacks in Go's heap. When the
 * program ends from a goroutine, the live part of [stack] starts at the
 * scheduler's saved stack pointer, runtime.m0.g0.sched.sp: below it lie
 * only dead C frames, whose stale pointers would hide leaks. Layout: m.g0
 * is m's first word; g.sched.sp follows g's stack bounds, two stack guards,
 * _panic, _defer and m (offset 56), the same from Go 1.4 to today.
 */
static uint64_t go_scheduler_sp(const struct lk_session *s, int mem_fd)
{
	static const char *const name = "runtime.m0";
	uint64_t m0 = 0, g0 = 0, sp = 0;
	lk_elf_symbols(s->exe, &name, &m0, 1);
	const char *path;
	uint64_t bias = 0;
	if (!m0)
		return 0;
	if (lk_session_module(s, m0, &path, &bias) != 0)
		bias = 0;
	if (pread(mem_fd, &g0, 8, (off_t)(m0 + bias)) != 8 || !g0 ||
	    pread(mem_fd, &sp, 8, (off_t)(g0 + 56)) != 8)
		return 0;
	return sp;
}

/* The lowest live address of a stack mapping [lo, hi) holding one of the
 * stack pointers, or lo. */
static uint64_t stack_low(uint64_t lo, uint64_t hi, const uint64_t *sps, size_t n_sps)
{
	for (size_t i = 0; i < n_sps; i++)
		if (sps[i] >= lo && sps[i] < hi && sps[i] - RED_ZONE > lo)
			return sps[i] - RED_ZONE;
	return lo;
}

/* The process's maps: its own descriptor (dup'ed: the caller keeps it),
 * else /proc/TID/maps. */
static FILE *open_maps(const struct lk_exit_snapshot *snap)
{
	char path[64];
	if (snap->maps_fd < 0) {
		snprintf(path, sizeof(path), "/proc/%d/maps", (int)snap->tid);
		return fopen(path, "re");
	}
	int fd = fcntl(snap->maps_fd, F_DUPFD_CLOEXEC, 0);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (fd >= 0 && !f)
		close(fd);
	return f;
}

/* 1 if a maps line's name (up to its newline) is the executable. */
static int is_exe(const char *exe, const char *name)
{
	size_t n = exe ? strlen(exe) : 0;
	return n && !strncmp(name, exe, n) && (name[n] == '\n' || !name[n]);
}

/* A mapping of a GHC program's heap, or of its executable's data, when its
 * runtime has shut down: 1 if taken by ghc (not a root as a whole). */
static int ghc_mapping(struct lk_ghc_heap *ghc, const char *exe, const char *name,
		       uint64_t lo, uint64_t hi, int *rc)
{
	if (lk_ghc_heap_covers(ghc, lo, hi)) {
		*rc = lk_ghc_heap_add_mapping(ghc, lo, hi);
		return 1;
	}
	if (ghc && is_exe(exe, name))
		*rc = lk_ghc_heap_add_static(ghc, lo, hi);
	return 0;
}

static int collect_roots(const struct lk_exit_snapshot *snap, const uint64_t *sps,
			 size_t n_sps, uint64_t main_sp, const uint64_t *addrs, size_t n,
			 struct lk_ghc_heap *ghc, const char *exe, struct roots *rs,
			 struct roots *readable)
{
	char line[4096];
	FILE *f = open_maps(snap);
	if (!f)
		return -errno;
	int rc = 0;
	while (!rc && fgets(line, sizeof(line), f)) {
		/* a name longer than the line (the program names its files) must
		 * not be read as the next mapping: drop the rest of the line */
		if (!strchr(line, '\n'))
			for (int ch = getc(f); ch != EOF && ch != '\n'; ch = getc(f))
				;
		uint64_t lo, hi;
		char perms[8] = "";
		int name_at = 0;
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %*s %*s %*s %n", &lo, &hi, perms,
			   &name_at) < 3)
			continue;
		const char *name = name_at ? line + name_at : "";
		if (ghc && perms[2] == 'x' && is_exe(exe, name))
			rc = lk_ghc_heap_add_code(ghc, lo, hi);
		if (!rc && perms[0] == 'r' && lo < hi)
			rc = add_root(readable, lo, hi);
		if (perms[0] != 'r' || perms[1] != 'w' || perms[3] != 'p')
			continue;
		if (!strncmp(name, "[heap]", 6) || !strncmp(name, "/memfd:leakscope", 16) ||
		    !strncmp(name, "[v", 2))
			continue;
		if (holds_block(addrs, n, lo, hi) || ghc_mapping(ghc, exe, name, lo, hi, &rc) || rc)
			continue;
		uint64_t low = stack_low(lo, hi, sps, n_sps);
		if (low != lo)
			lo = low;
		else if (!strncmp(name, "[stack]", 7) && main_sp > lo && main_sp < hi)
			lo = main_sp;
		rc = add_root(rs, lo, hi);
	}
	fclose(f);
	return rc;
}

static int cmp_root(const void *a, const void *b)
{
	const struct lk_reach_root *x = a, *y = b;
	return (x->lo > y->lo) - (x->lo < y->lo);
}

/* The regions the program registered (leakscope_register_root), merged and
 * cut to its readable mappings (sorted, as maps lists them): made-up
 * regions - most of the address space, one wrapping around its end, the
 * same one a thousand times - cost no more than the memory there is. */
static int add_registered(const struct lk_session *s, const struct roots *readable,
			  struct roots *rs)
{
	struct roots u = {0};
	int rc = 0;
	if (!s->roots.slots)    /* none was registered */
		return 0;
	lk_live_foreach(&s->roots, b) {
		uint64_t hi = b->size > UINT64_MAX - b->addr ? UINT64_MAX : b->addr + b->size;
		if (b->size && (rc = add_root(&u, b->addr, hi)) != 0)
			break;
	}
	if (rc || u.n == 0) {
		free(u.r);
		return rc;
	}
	qsort(u.r, u.n, sizeof(*u.r), cmp_root);
	size_t k = 0;
	for (size_t i = 1; i < u.n; i++) {
		if (u.r[i].lo <= u.r[k].hi) {
			if (u.r[i].hi > u.r[k].hi)
				u.r[k].hi = u.r[i].hi;
		} else {
			u.r[++k] = u.r[i];
		}
	}
	u.n = k + 1;
	for (size_t i = 0, j = 0; i < u.n && j < readable->n && !rc;) {
		const struct lk_reach_root *a = &u.r[i], *m = &readable->r[j];
		uint64_t lo = a->lo > m->lo ? a->lo : m->lo, hi = a->hi < m->hi ? a->hi : m->hi;
		if (lo < hi)
			rc = add_root(rs, lo, hi);
		if (a->hi < m->hi)
			i++;
		else
			j++;
	}
	free(u.r);
	return rc;
}

/* The live parts of a shut-down GHC heap (collector/ghcheap.h). */
static int add_ghc_roots(struct lk_ghc_heap *ghc, struct roots *rs)
{
	struct lk_reach_root *r = NULL;
	size_t n = 0;
	int rc = ghc ? lk_ghc_heap_roots(ghc, &r, &n) : 0;
	for (size_t i = 0; i < n && !rc; i++)
		rc = add_root(rs, r[i].lo, r[i].hi);
	free(r);
	return rc;
}

/* Reads of the target through one window of WINDOW bytes, used when a read
 * comes near the one before: blocks that malloc handed out in a row and the
 * scan reads in a row (up or down) cost one pread per window, not one
 * each; scattered reads go straight through and cost no more than before. */
#define WINDOW (64 * 1024)
#define PAGE_DOWN(a) ((a) & ~(uint64_t)4095)

struct mem_reader {
	int fd;
	uint64_t base;   /* target address of win[0] */
	size_t filled;   /* bytes of win valid */
	uint64_t prev;   /* address of the last read */
	char win[WINDOW];
};

static int near(uint64_t a, uint64_t b)
{
	return (a > b ? a - b : b - a) < WINDOW / 2;
}

static int read_mem(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct mem_reader *m = ctx;
	uint64_t prev = m->prev;
	if (len > UINT64_MAX - addr)
		return -EFAULT;
	m->prev = addr;
	if (addr >= m->base && addr + len <= m->base + m->filled) {
		memcpy(buf, m->win + (addr - m->base), len);
		return 0;
	}
	if (len <= WINDOW / 4 && near(addr, prev)) {
		/* going down: the window ends with this read, else starts with it */
		uint64_t base = addr < prev && addr + len > WINDOW ? PAGE_DOWN(addr + len - WINDOW + 4095)
								  : PAGE_DOWN(addr);
		ssize_t n = pread(m->fd, m->win, WINDOW, (off_t)base);
		m->base = base;
		m->filled = n > 0 ? (size_t)n : 0;
		if (addr >= base && addr + len <= base + m->filled) {
			memcpy(buf, m->win + (addr - base), len);
			return 0;
		}
	}
	ssize_t n = pread(m->fd, buf, len, (off_t)addr);
	return n == (ssize_t)len ? 0 : -EFAULT;
}

struct order {
	uint64_t addr;
	size_t i;
};

static int cmp_order(const void *a, const void *b)
{
	const struct order *x = a, *y = b;
	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* Keep, in address order, the blocks the classifier can take: none past
 * the end of the address space, none overlapping a block kept before it.
 * The others come from events no allocator makes (the program wrote its
 * ring itself) or from frees leakscope did not see; they stay unclassified.
 * Returns how many are kept, at the front of blocks, slot and ignored. */
static size_t keep_disjoint(struct lk_block *blocks, size_t *slot, uint8_t *ignored, size_t n)
{
	struct order *o = malloc((n + 1) * sizeof(*o));
	struct lk_block *b2 = malloc((n + 1) * sizeof(*b2));
	size_t *s2 = malloc((n + 1) * sizeof(*s2));
	uint8_t *i2 = malloc(n + 1);
	size_t k = 0;
	if (o && b2 && s2 && i2) {
		for (size_t i = 0; i < n; i++)
			o[i] = (struct order){blocks[i].addr, i};
		qsort(o, n, sizeof(*o), cmp_order);
		uint64_t end = 0;
		for (size_t j = 0; j < n; j++) {
			const struct lk_block *b = &blocks[o[j].i];
			if (b->size > UINT64_MAX - b->addr || b->addr < end)
				continue;
			end = b->addr + b->size;
			b2[k] = *b;
			s2[k] = slot[o[j].i];
			i2[k++] = ignored[o[j].i];
		}
		memcpy(blocks, b2, k * sizeof(*b2));
		memcpy(slot, s2, k * sizeof(*s2));
		memcpy(ignored, i2, k);
	}
	free(o);
	free(b2);
	free(s2);
	free(i2);
	return k;
}

#define REGS_PER_THREAD 17

/* The registers of one thread that may hold pointers. */
static size_t thread_regs(const struct user_regs_struct *g, uint64_t *out)
{
	const uint64_t r[REGS_PER_THREAD] = {g->rax, g->rbx, g->rcx, g->rdx, g->rsi, g->rdi,
					     g->rbp, g->r8, g->r9, g->r10, g->r11, g->r12,
					     g->r13, g->r14, g->r15, g->fs_base, g->gs_base};
	memcpy(out, r, sizeof(r));
	return REGS_PER_THREAD;
}

int lk_scan_session(struct lk_session *s, const struct lk_exit_snapshot *snap)
{
	if (snap->mem_fd < 0)
		return -EPERM;
	size_t n = s->live.count, k = 0;
	struct lk_block *blocks = malloc((n + 1) * sizeof(*blocks));
	size_t *slot = malloc((n + 1) * sizeof(*slot));
	uint64_t *addrs = malloc((n + 1) * sizeof(*addrs));
	uint8_t *ignored = malloc(n + 1);
	struct roots rs = {0}, readable = {0};
	struct lk_reach reach = {0};
	uint64_t *regs = NULL, *sps = NULL;
	struct lk_ghc_heap *ghc = NULL;
	struct mem_reader *mem = malloc(sizeof(*mem));
	int rc = -ENOMEM;
	if (!blocks || !slot || !addrs || !ignored || !mem)
		goto out;
	lk_live_foreach(&s->live, b) {
		slot[k] = (size_t)(b - s->live.slots);
		addrs[k] = b->addr;
		ignored[k] = (b->seq & LK_BLOCK_IGNORED) != 0;
		blocks[k++] = *b;
	}
	qsort(addrs, k, sizeof(*addrs), cmp_u64);
	size_t n_threads = 1 + (snap->threads ? snap->n_threads : 0), n_regs = 0;
	regs = malloc(n_threads * REGS_PER_THREAD * sizeof(*regs));
	sps = malloc(n_threads * sizeof(*sps));
	if (!regs || !sps) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t t = 0; t < n_threads; t++) {
		const struct user_regs_struct *g = t ? &snap->threads[t - 1] : &snap->regs;
		n_regs += thread_regs(g, regs + n_regs);
		sps[t] = g->rsp;
	}
	uint64_t main_sp = go_scheduler_sp(s, snap->mem_fd);
	if ((rc = lk_ghc_heap_open(s->exe, 0, snap->mem_fd, &ghc)) != 0 ||
	    (rc = collect_roots(snap, sps, n_threads, main_sp, addrs, k, ghc, s->exe, &rs,
				&readable)) != 0 ||
	    (rc = add_ghc_roots(ghc, &rs)) != 0 || (rc = add_registered(s, &readable, &rs)) != 0)
		goto out;
	mem->fd = snap->mem_fd;
	mem->base = mem->prev = 0;
	mem->filled = 0;
	size_t all = k;
	rc = lk_reach_classify(blocks, k, rs.r, rs.n, regs, n_regs, ignored,
			       LK_REACH_GLIBC_CHUNKS, read_mem, mem, &reach);
	if (rc == LK_EUSAGE) { /* blocks that wrap or overlap: classify the others */
		k = keep_disjoint(blocks, slot, ignored, k);
		rc = lk_reach_classify(blocks, k, rs.r, rs.n, regs, n_regs, ignored,
				       LK_REACH_GLIBC_CHUNKS, read_mem, mem, &reach);
	}
	if (rc)
		goto out;
	free(s->classes);
	s->classes = malloc(s->live.cap + 1);
	if (!s->classes) {
		rc = -ENOMEM;
		goto out;
	}
	memset(s->classes, LK_CLASS_NOT_FREED, s->live.cap + 1);
	for (size_t i = 0; i < k; i++)
		s->classes[slot[i]] = reach.classes[i];
	s->unclassified = all - k;
out:
	lk_reach_release(&reach);
	lk_ghc_heap_free(ghc);
	free(rs.r);
	free(readable.r);
	free(blocks);
	free(slot);
	free(addrs);
	free(ignored);
	free(regs);
	free(sps);
	free(mem);
	return rc;
}
