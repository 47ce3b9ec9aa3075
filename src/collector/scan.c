/*
 * scan.c - roots and memory of a stopped process for the reachability
 * classifier (analyze/reach.h). docs/design.md, "The root set", says what
 * is a root and why, kind by kind.
 *
 * Roots: every private writable mapping (modules' .data and .bss, live
 * threads' stacks with their static TLS, Go's and GHC's heaps, other
 * anonymous memory), except:
 *   - glibc's own memory: the [heap], a non-main arena's heap, a chunk
 *     mmapped by itself (a block's chunk says which) - scanned only block
 *     by block, so stale pointers in free chunks and allocator metadata
 *     hide no leak; the rest of a maps line that holds them is a root;
 *   - the stacks of threads that ended (glibc keeps them mapped, with
 *     their descriptor and static TLS): everything there is dead;
 *   - below a live thread's stack pointer: nothing, but the red zone of a
 *     thread stopped in user code; at the process's end, nothing below
 *     where exit() was entered or main returned (the exit path's frames);
 *   - leakscope's own shared region.
 * Every stopped thread's registers are roots, the vector registers too.
 * The heap of a GHC program whose runtime has shut down is a root only
 * where live Haskell objects are (collector/ghcheap.h).
 *
 * Nodes (scanned once reached, never reported): Go's objects, and in a
 * forked process the blocks it inherited from its parent (its parent's
 * report has them; they are glibc's in-use chunks that are no live block
 * of its own), which hold pointers to its own blocks.
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
#include "collector/glibcheap.h"
#include "collector/ghcheap.h"
#include "collector/goheap.h"
#include "collector/maps.h"
#include "collector/scan.h"
#include "collector/threadregs.h"
#include "common/error.h"

#define RED_ZONE 128

_Static_assert((int)LK_REACH_DEFINITE == (int)LK_CLASS_DEFINITE &&
	       (int)LK_REACH_INDIRECT == (int)LK_CLASS_INDIRECT &&
	       (int)LK_REACH_POSSIBLE == (int)LK_CLASS_POSSIBLE &&
	       (int)LK_REACH_REACHABLE == (int)LK_CLASS_REACHABLE,
	       "scan verdicts and leak classes agree");

/* The root ranges, and with --why what each one is (collector/why.h). */
struct roots {
	struct lk_reach_root *r;
	struct lk_root_info *info;  /* NULL unless wanted */
	size_t n, cap;
	int want_info;
};

/* A mapping's name from a maps line (up to its newline), or NULL. */
static char *mapping_name(const char *name)
{
	size_t n = name ? strcspn(name, "\n") : 0;
	return n ? strndup(name, n) : NULL;
}

static int add_root_as(struct roots *rs, uint64_t lo, uint64_t hi, uint8_t kind, int thread,
		       const char *name)
{
	if (rs->n == rs->cap) {
		size_t nc = rs->cap ? rs->cap * 2 : 64;
		struct lk_reach_root *a = realloc(rs->r, nc * sizeof(*a));
		if (!a)
			return -ENOMEM;
		rs->r = a;
		if (rs->want_info) {
			struct lk_root_info *b = realloc(rs->info, nc * sizeof(*b));
			if (!b)
				return -ENOMEM;
			rs->info = b;
		}
		rs->cap = nc;
	}
	if (rs->want_info)
		rs->info[rs->n] = (struct lk_root_info){.lo = lo, .hi = hi, .kind = kind,
							.thread = thread,
							.name = mapping_name(name)};
	rs->r[rs->n++] = (struct lk_reach_root){.lo = lo, .hi = hi, .kind = "mapping"};
	return 0;
}

static int add_root(struct roots *rs, uint64_t lo, uint64_t hi)
{
	return add_root_as(rs, lo, hi, LK_ROOT_ANON, -1, NULL);
}

static int add_anon_root(void *rs, uint64_t lo, uint64_t hi)
{
	return add_root(rs, lo, hi);
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

/* One stopped thread, as the roots need it. */
struct live_thread {
	uint64_t sp;       /* its stack pointer */
	uint64_t fs_base;  /* its thread pointer: glibc's struct pthread */
	int in_user_code;  /* stopped outside a system call: its red zone is live */
};

/* The readable mappings of files, in address order (as maps lists them),
 * to tell a vtable or a return address (LK_ADDR_FILE, LK_ADDR_CODE). */
struct file_maps {
	struct file_map {
		uint64_t lo, hi;
		unsigned kind;
	} *r;
	size_t n, cap;
};

static void add_file_map(struct file_maps *c, uint64_t lo, uint64_t hi, unsigned kind)
{
	if (c->n == c->cap) {
		size_t nc = c->cap ? 2 * c->cap : 64;
		struct file_map *a = realloc(c->r, nc * sizeof(*a));
		if (!a)
			return; /* the heuristics and --why's function names suffer */
		c->r = a;
		c->cap = nc;
	}
	c->r[c->n++] = (struct file_map){lo, hi, kind};
}

static unsigned kind_at(const struct file_maps *c, uint64_t v)
{
	size_t lo = 0, hi = c->n;
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;
		if (c->r[m].hi <= v)
			lo = m + 1;
		else
			hi = m;
	}
	return lo < c->n && v >= c->r[lo].lo ? c->r[lo].kind : 0;
}

static int is_code(const struct file_maps *c, uint64_t v)
{
	return (kind_at(c, v) & LK_ADDR_CODE) != 0;
}

/* What collect_roots() works from. */
struct root_search {
	const struct lk_exit_snapshot *snap;
	const struct live_thread *threads;
	size_t n_threads;
	uint64_t go_sp;            /* Go's scheduler stack pointer, or 0 */
	uint64_t exit_sp;          /* where the exit path began (common/shm.h), or 0 */
	int tcb_tid_ok;            /* glibc's struct pthread layout was confirmed */
	const uint64_t *addrs;     /* live blocks, sorted */
	size_t n;
	struct lk_ghc_heap *ghc;
	const struct lk_go_heap *go; /* Go's heap, when its layout is understood */
	const char *exe;
	struct roots *rs;
	struct file_maps *code;  /* readable mappings of files */
	struct roots *readable;    /* every readable mapping */
};

/* The thread whose stack the mapping [lo, hi) is: its stack pointer lies
 * there, and the mapping is a stack - the process's [stack], a pthread's
 * (its thread descriptor at the top), or one below a guard page (a
 * program's own thread or coroutine stack). A stack pointer in other
 * memory (Go runs goroutines on stacks inside its heap) leaves that
 * memory whole. */
static const struct live_thread *thread_in(const struct root_search *q, uint64_t lo, uint64_t hi,
					   const char *name, int guarded)
{
	for (size_t i = 0; i < q->n_threads; i++) {
		const struct live_thread *t = &q->threads[i];
		if (t->sp >= lo && t->sp < hi &&
		    (guarded || !strncmp(name, "[stack]", 7) || (t->fs_base >= lo && t->fs_base < hi)))
			return t;
	}
	return NULL;
}

/* The lowest live address of the stack mapping [lo, hi) of thread t: its
 * stack pointer, less the red zone when it was stopped in user code; at
 * the process's end, the exit path's boundary when it lies on this stack
 * (the frames below it are atexit handlers' and destructors', dead). */
static uint64_t stack_low(const struct root_search *q, const struct live_thread *t, uint64_t lo,
			  uint64_t hi)
{
	uint64_t low = t->sp - (t->in_user_code && t->sp - lo > RED_ZONE ? RED_ZONE : 0);
	if (q->snap->at_exit && q->exit_sp > t->sp && q->exit_sp < hi)
		low = q->exit_sp;
	return low;
}

/*
 * glibc keeps the stacks of threads that ended mapped for reuse, with
 * their thread descriptor (struct pthread, whose first word and third word
 * point to itself: the TCB) and static TLS at the top. Whatever they still
 * hold is dead: an ended thread's argument, return value, __thread
 * variables, frames. Such a stack has a guard page right below it; its
 * descriptor is no live thread's fs_base, and its tid field (offset 720,
 * confirmed on a live thread before use) is 0 (ended) or -1 (cached).
 */
#define TCB_TID_OFFSET 720
#define TCB_SEARCH (64 * 1024)

static int dead_tcb_in(const uint64_t *w, size_t n_words, uint64_t base,
		       const struct root_search *q)
{
	for (size_t i = 0; i + TCB_TID_OFFSET / 8 < n_words; i += 8) { /* 64-byte aligned */
		uint64_t at = base + i * 8;
		if (w[i] != at || w[i + 2] != at)
			continue;
		int live = 0;
		for (size_t t = 0; t < q->n_threads; t++)
			live |= q->threads[t].fs_base == at;
		int32_t tid;
		memcpy(&tid, (const char *)(w + i) + TCB_TID_OFFSET, 4);
		if (!live && tid <= 0)
			return 1;
	}
	return 0;
}

static int dead_thread_stack(const struct root_search *q, uint64_t lo, uint64_t hi)
{
	static uint64_t buf[TCB_SEARCH / 8];
	if (!q->tcb_tid_ok)
		return 0;
	for (size_t i = 0; i < q->n_threads; i++)
		if (q->threads[i].fs_base >= lo && q->threads[i].fs_base < hi)
			return 0;
	uint64_t from = hi - lo > TCB_SEARCH ? hi - TCB_SEARCH : lo;
	ssize_t got = pread(q->snap->mem_fd, buf, hi - from, (off_t)from);
	return got == (ssize_t)(hi - from) && dead_tcb_in(buf, (size_t)got / 8, from, q);
}

/* 1 when the tid field of a live thread's descriptor holds its tid: the
 * layout dead_thread_stack() relies on is the one of this glibc. */
static int tcb_layout_confirmed(const struct lk_exit_snapshot *snap)
{
	int32_t tid = 0;
	return snap->regs.fs_base && snap->tid > 0 &&
	       pread(snap->mem_fd, &tid, 4, (off_t)(snap->regs.fs_base + TCB_TID_OFFSET)) == 4 &&
	       tid == snap->tid;
}

/*
 * glibc's memory among a mapping's blocks: a block's chunk is mmapped by
 * itself (IS_MMAPPED in its size word; the mapping starts prev_size bytes
 * before the chunk) or lies in a heap of a non-main arena (64 MiB aligned,
 * its used size in the heap_info at its start). The kernel merges such
 * memory with a program's own adjacent anonymous mapping into one line of
 * maps (CPython's pymalloc arenas next to a large malloc'ed buffer): that
 * part is the program's, and a root.
 */
#define ARENA_HEAP_MAX (64ULL << 20)

static int allocator_range(int mem_fd, uint64_t a, uint64_t *lo, uint64_t *hi)
{
	uint64_t hdr[2]; /* prev_size, size */
	if (pread(mem_fd, hdr, sizeof(hdr), (off_t)(a - 16)) != sizeof(hdr))
		return -1;
	uint64_t size = hdr[1] & ~(uint64_t)7, chunk = a - 16;
	if (hdr[1] & 2) { /* IS_MMAPPED */
		*lo = chunk - hdr[0];
		*hi = chunk + size;
		return (*lo & 4095) || ((hdr[0] + size) & 4095) || size < 4096 ? -1 : 0;
	}
	uint64_t heap = a & ~(ARENA_HEAP_MAX - 1), used = 0;
	if (pread(mem_fd, &used, 8, (off_t)(heap + 16)) != 8 || used > ARENA_HEAP_MAX ||
	    a >= heap + used)
		return -1;
	*lo = heap;
	*hi = heap + used;
	return 0;
}

/* The mapping [lo, hi) holds live blocks: the parts outside glibc's memory
 * are roots. Where glibc's memory cannot be told, the whole mapping is
 * taken for it (its free chunks' stale pointers must not hide leaks). */
static int add_outside_allocator(const struct root_search *q, uint64_t lo, uint64_t hi)
{
	size_t i = 0, j = q->n;
	while (i < j) { /* the first block at or above lo */
		size_t m = i + (j - i) / 2;
		if (q->addrs[m] < lo)
			i = m + 1;
		else
			j = m;
	}
	uint64_t at = lo;
	int rc = 0;
	for (; !rc && i < q->n && q->addrs[i] < hi && at < hi; i++) {
		uint64_t a = q->addrs[i], alo, ahi;
		if (a < at)
			continue;
		if (allocator_range(q->snap->mem_fd, a, &alo, &ahi) != 0 || ahi <= a)
			return rc; /* the rest is the allocator's */
		alo = alo < lo ? lo : alo;
		if (alo > at)
			rc = add_root(q->rs, at, alo);
		at = ahi > at ? ahi : at;
	}
	return !rc && at < hi ? add_root(q->rs, at, hi) : rc;
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

/* One private writable mapping: what of it is a root. guarded: the line
 * before it is a guard page ending where it starts (as below a thread's
 * stack). */
static int mapping_roots(const struct root_search *q, uint64_t lo, uint64_t hi, const char *name,
			 int guarded)
{
	int rc = 0;
	if (q->go && lk_go_heap_meets(q->go, lo, hi)) /* the heap is a graph, not a root */
		return lk_go_heap_outside(q->go, lo, hi, add_anon_root, q->rs);
	if (holds_block(q->addrs, q->n, lo, hi))
		return add_outside_allocator(q, lo, hi);
	if (ghc_mapping(q->ghc, q->exe, name, lo, hi, &rc) || rc)
		return rc;
	const struct live_thread *t = thread_in(q, lo, hi, name, guarded);
	if (t)
		return add_root_as(q->rs, stack_low(q, t, lo, hi), hi, LK_ROOT_STACK,
				   (int)(t - q->threads), NULL);
	if (!strncmp(name, "[stack]", 7) && q->go_sp > lo && q->go_sp < hi)
		lo = q->go_sp;
	else if (guarded && (*name == '\n' || !*name) && dead_thread_stack(q, lo, hi))
		return 0;
	return add_root_as(q->rs, lo, hi, *name == '/' ? LK_ROOT_DATA : LK_ROOT_ANON, -1, name);
}

static int collect_roots(const struct root_search *q)
{
	char line[4096];
	FILE *f = open_maps(q->snap);
	if (!f)
		return -errno;
	int rc = 0;
	uint64_t guard_end = 0;
	struct lk_maps_line m;
	while (!rc && lk_maps_next(f, line, sizeof(line), &m)) {
		uint64_t lo = m.lo, hi = m.hi;
		const char *perms = m.perms, *name = m.name;
		int guarded = guard_end == lo;
		guard_end = !strcmp(perms, "---p") ? hi : 0;
		if (q->ghc && perms[2] == 'x' && is_exe(q->exe, name))
			rc = lk_ghc_heap_add_code(q->ghc, lo, hi);
		if (perms[0] == 'r' && *name == '/')
			add_file_map(q->code, lo, hi,
				     LK_ADDR_FILE | (perms[2] == 'x' ? LK_ADDR_CODE : 0));
		if (!rc && perms[0] == 'r' && lo < hi)
			rc = add_root(q->readable, lo, hi);
		if (rc || perms[0] != 'r' || perms[1] != 'w' || perms[3] != 'p')
			continue;
		if (!strncmp(name, "[heap]", 6) || !strncmp(name, "/memfd:leakscope", 16) ||
		    !strncmp(name, "[v", 2))
			continue;
		rc = mapping_roots(q, lo, hi, name, guarded);
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
			rc = add_root_as(rs, lo, hi, LK_ROOT_REGISTERED, -1, NULL);
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
		rc = add_root_as(rs, r[i].lo, r[i].hi, LK_ROOT_GHC, -1, NULL);
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
	const struct file_maps *files; /* what lies where (LK_ADDR_*) */
	uint64_t base;   /* target address of win[0] */
	size_t filled;   /* bytes of win valid */
	uint64_t prev;   /* address of the last read */
	char win[WINDOW];
};

static unsigned addr_kind(void *ctx, uint64_t addr)
{
	const struct mem_reader *m = ctx;
	return kind_at(m->files, addr);
}

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

/* At the process's end, the thread that called exit() or returned from
 * main (its stack holds exit_sp, just above its stack pointer): its
 * registers hold the exit path's values, dead. n if none. */
static size_t exit_thread(const struct lk_exit_snapshot *snap, uint64_t exit_sp, size_t n)
{
	size_t best = n;
	for (size_t t = 0; snap->at_exit && exit_sp && t < n; t++) {
		uint64_t sp = t ? snap->threads[t - 1].rsp : snap->regs.rsp;
		uint64_t best_sp = best < n ? (best ? snap->threads[best - 1].rsp : snap->regs.rsp) : 0;
		if (sp <= exit_sp && exit_sp - sp < (64u << 20) && sp > best_sp)
			best = t;
	}
	return best;
}

/* The stopped threads, and every register that may hold a pointer: the
 * general ones, then the vector words the snapshot holds; but not those of
 * the exit path's thread at the end. The general registers of thread t
 * stay at t * LK_GENERAL_REGS (a skipped thread's are zero). */
static int threads_of(const struct lk_exit_snapshot *snap, uint64_t exit_sp,
		      struct live_thread **threads, size_t *n_threads, uint64_t **regs,
		      size_t *n_regs)
{
	size_t n = 1 + (snap->threads ? snap->n_threads : 0);
	size_t gone = exit_thread(snap, exit_sp, n);
	*threads = malloc(n * sizeof(**threads));
	*regs = calloc(n * LK_GENERAL_REGS + snap->n_vector_words + 1, sizeof(**regs));
	if (!*threads || !*regs)
		return -ENOMEM;
	size_t k = 0, v = 0;
	for (size_t t = 0; t < n; t++) {
		const struct user_regs_struct *g = t ? &snap->threads[t - 1] : &snap->regs;
		if (t != gone)
			lk_general_reg_words(g, *regs + k);
		k += LK_GENERAL_REGS;
		(*threads)[t] = (struct live_thread){.sp = g->rsp, .fs_base = g->fs_base,
						     .in_user_code = (long)g->orig_rax < 0};
	}
	for (size_t t = 0; t < n && snap->vector_counts; t++) {
		size_t c = snap->vector_counts[t];
		if (t != gone && c && v + c <= snap->n_vector_words)
			memcpy(*regs + k, snap->vector_words + v, c * sizeof(**regs));
		k += t != gone ? c : 0;
		v += c;
	}
	if (!snap->vector_counts && snap->n_vector_words) {
		memcpy(*regs + k, snap->vector_words, snap->n_vector_words * sizeof(**regs));
		k += snap->n_vector_words;
	}
	*n_threads = n;
	*n_regs = k;
	return 0;
}

/* The nearest return address below the word at `where` on a stack whose
 * live part starts at lo: in the function whose frame holds the word. */
static uint64_t frame_code(int mem_fd, const struct file_maps *code, uint64_t lo,
			   uint64_t where)
{
	uint64_t w[512];
	uint64_t from = where - lo > sizeof(w) ? where - sizeof(w) : lo;
	from &= ~(uint64_t)7;
	size_t n = (size_t)(where - from) / 8;
	if (n == 0 || pread(mem_fd, w, n * 8, (off_t)from) != (ssize_t)(n * 8))
		return 0;
	for (size_t i = n; i-- > 0;)
		if (is_code(code, w[i]))
			return w[i];
	return 0;
}

/* What keeps node i: up the chain of nodes that reached it, to the root
 * or register that reached the first (a block on the way: none known). */
static struct lk_reach_why node_root(const struct lk_reach *reach, const size_t *slot,
					  size_t k, size_t i)
{
	for (size_t hops = 0; hops < 4096; hops++) {
		struct lk_reach_why w = reach->why[i];
		if (w.via != LK_VIA_BLOCK)
			return w;
		if (w.index >= k || slot[w.index] != SIZE_MAX)
			break;
		i = w.index;
	}
	return (struct lk_reach_why){.via = LK_VIA_NONE};
}

/* The empty roots that stand for "a node" in --why: Go's objects are
 * blocks [all, inherited) of the array, the inherited ones the rest. */
struct node_roots {
	size_t inherited;            /* the first inherited node */
	size_t go, parent;           /* their roots' indexes */
};

/* --why: keep what reached each block, and what each root is, in s->why
 * (the roots' descriptions move there). */
static int keep_why(struct lk_session *s, const struct lk_reach *reach, const size_t *slot,
		    size_t k, struct roots *rs, const struct file_maps *code,
		    size_t n_general, const struct node_roots *nodes, int mem_fd)
{
	struct lk_why *w = calloc(1, sizeof(*w));
	if (!w || !(w->blocks = calloc(s->live.cap + 1, sizeof(*w->blocks)))) {
		free(w);
		return -ENOMEM;
	}
	for (size_t i = 0; i < k; i++) {
		if (slot[i] == SIZE_MAX)
			continue;
		struct lk_block_why *b = &w->blocks[slot[i]];
		b->via = reach->why[i];
		if (b->via.via == LK_VIA_BLOCK && b->via.index < k && slot[b->via.index] == SIZE_MAX) {
			b->beyond = node_root(reach, slot, k, b->via.index);
			if (b->beyond.via == LK_VIA_ROOT && b->beyond.index < rs->n &&
			    rs->info[b->beyond.index].kind == LK_ROOT_STACK)
				b->beyond_code = frame_code(mem_fd, code,
							    rs->info[b->beyond.index].lo,
							    b->beyond.where);
			size_t root = b->via.index < nodes->inherited ? nodes->go : nodes->parent;
			b->via = (struct lk_reach_why){.via = LK_VIA_ROOT, .where = b->via.where,
						       .index = (uint32_t)root};
		}
		else if (b->via.via == LK_VIA_BLOCK) /* the block array's order -> a live slot */
			b->via.index = b->via.index < k ? (uint32_t)slot[b->via.index] : 0;
		if (b->via.via == LK_VIA_ROOT && b->via.index < rs->n &&
		    rs->info[b->via.index].kind == LK_ROOT_STACK)
			b->code = frame_code(mem_fd, code, rs->info[b->via.index].lo, b->via.where);
	}
	w->roots = rs->info;
	w->n_roots = rs->n;
	w->n_general_values = n_general;
	rs->info = NULL;
	lk_why_free(s->why);
	s->why = w;
	return 0;
}

/* Go's heap (collector/goheap.h), or NULL with s->go_note saying why it
 * stays a root (NULL: not a Go program). */
static int open_go_heap(struct lk_session *s, const struct lk_exit_snapshot *snap,
			const struct live_thread *threads, size_t n_threads,
			struct lk_go_heap **go)
{
	static const char *const name = "runtime.mheap_";
	uint64_t at = 0, bias = 0, sps[64];
	const char *path;
	*go = NULL;
	if (!lk_elf_symbols(s->exe, &name, &at, 1))
		return 0;
	if (lk_session_module(s, at, &path, &bias) != 0)
		bias = 0;
	size_t n = n_threads < 64 ? n_threads : 64;
	for (size_t t = 0; t < n; t++)
		sps[t] = threads[t].sp;
	return lk_go_heap_open(s->exe, bias, snap->mem_fd, sps, n, go, &s->go_note);
}

/* The live goroutines' stacks are roots; an empty root stands for "a live
 * object of Go's heap" in --why (its index in *go_root). */
static int add_go_roots(const struct lk_go_heap *go, struct roots *rs, size_t *go_root)
{
	int rc = 0;
	for (size_t i = 0; i < go->n_stacks && !rc; i++)
		rc = add_root_as(rs, go->stacks[i].lo, go->stacks[i].hi, LK_ROOT_GOROUTINE, -1,
				 NULL);
	*go_root = rs->n;
	return rc ? rc : add_root_as(rs, 0, 0, LK_ROOT_GOHEAP, -1, NULL);
}

/* An empty root stands for "a block inherited from the parent" in --why
 * (its index in *parent_root). */
static int add_parent_root(struct roots *rs, size_t *parent_root)
{
	*parent_root = rs->n;
	return add_root_as(rs, 0, 0, LK_ROOT_INHERITED, -1, NULL);
}

/* objects join the blocks as nodes (LK_REACH_NODE; slot SIZE_MAX). */
static int append_nodes(const struct lk_block *objects, size_t n_objects,
			struct lk_block **blocks, size_t **slot, uint8_t **ignored, size_t *k)
{
	size_t n = *k + n_objects + 1;
	struct lk_block *b = realloc(*blocks, n * sizeof(*b));
	if (b)
		*blocks = b;
	size_t *sl = realloc(*slot, n * sizeof(*sl));
	if (sl)
		*slot = sl;
	uint8_t *ig = realloc(*ignored, n);
	if (ig)
		*ignored = ig;
	if (!b || !sl || !ig)
		return -ENOMEM;
	for (size_t i = 0; i < n_objects; i++, (*k)++) {
		b[*k] = objects[i];
		sl[*k] = SIZE_MAX;
		ig[*k] = LK_REACH_NODE;
	}
	return 0;
}

/* The blocks forked process s inherited (see the top): glibc's in-use
 * chunks that are none of its n live blocks (addrs, sorted), into *out
 * (malloc'ed, *n_out of them). None when it is no fork child or its heap
 * cannot be read (another allocator). 0 or -ENOMEM. */
static int inherited_blocks(const struct lk_session *s, const struct lk_exit_snapshot *snap,
			    const uint64_t *addrs, size_t n, struct lk_block **out,
			    size_t *n_out)
{
	struct lk_glibc_heap heap;
	size_t n_fs = snap->n_threads + 1;
	uint64_t *fs = s->forked ? malloc(n_fs * sizeof(*fs)) : NULL;
	*out = NULL;
	*n_out = 0;
	if (!s->forked)
		return 0;
	if (!fs)
		return -ENOMEM;
	fs[0] = snap->regs.fs_base;
	for (size_t t = 1; t < n_fs; t++)
		fs[t] = snap->threads[t - 1].fs_base;
	int rc = lk_glibc_heap_read(snap->tgid, snap->mem_fd, fs, n_fs, &heap);
	free(fs);
	if (rc)
		return rc == -ENOMEM ? rc : 0;
	*out = malloc((heap.n + 1) * sizeof(**out));
	for (size_t i = 0; *out && i < heap.n; i++)
		if (!bsearch(&heap.blocks[i].addr, addrs, n, sizeof(*addrs), cmp_u64))
			(*out)[(*n_out)++] = (struct lk_block){.addr = heap.blocks[i].addr,
							       .size = heap.blocks[i].size};
	lk_glibc_heap_release(&heap);
	return *out ? 0 : -ENOMEM;
}

int lk_scan_session(struct lk_session *s, const struct lk_exit_snapshot *snap)
{
	if (snap->mem_fd < 0)
		return -EPERM;
	if (s->live.count == 0) { /* nothing of its own (a fork child before exec) */
		free(s->classes);
		free(s->leaders);
		s->classes = calloc(s->live.cap + 1, 1);
		s->leaders = calloc(s->live.cap + 1, sizeof(*s->leaders));
		return s->classes && s->leaders ? 0 : -ENOMEM;
	}
	size_t n = s->live.count, k = 0;
	struct lk_block *blocks = malloc((n + 1) * sizeof(*blocks));
	size_t *slot = malloc((n + 1) * sizeof(*slot));
	uint64_t *addrs = malloc((n + 1) * sizeof(*addrs));
	uint8_t *ignored = malloc(n + 1);
	struct roots rs = {0}, readable = {0};
	struct lk_reach reach = {0};
	uint64_t *regs = NULL;
	struct live_thread *threads = NULL;
	struct lk_ghc_heap *ghc = NULL;
	struct lk_go_heap *go = NULL;
	struct lk_block *inherited = NULL;
	size_t n_inherited = 0;
	struct node_roots nodes = {.go = SIZE_MAX, .parent = SIZE_MAX};
	struct mem_reader *mem = malloc(sizeof(*mem));
	struct file_maps code = {0};
	rs.want_info = s->want_why;
	int rc = -ENOMEM;
	if (!blocks || !slot || !addrs || !ignored || !mem)
		goto out;
	lk_live_foreach(&s->live, b) {
		slot[k] = (size_t)(b - s->live.slots);
		addrs[k] = b->addr;
		ignored[k] = (b->seq & LK_BLOCK_IGNORED) ? LK_REACH_KEPT : 0;
		blocks[k++] = *b;
	}
	qsort(addrs, k, sizeof(*addrs), cmp_u64);
	size_t n_threads = 0, n_regs = 0;
	/* a bound only: untrusted; none without a region (not started by us) */
	uint64_t exit_sp = s->view.hdr ? atomic_load(&s->view.hdr->exit_sp) : 0;
	if ((rc = threads_of(snap, exit_sp, &threads, &n_threads, &regs, &n_regs)) != 0)
		goto out;
	struct root_search q = {
		.snap = snap, .threads = threads, .n_threads = n_threads,
		.go_sp = go_scheduler_sp(s, snap->mem_fd),
		.exit_sp = exit_sp,
		.tcb_tid_ok = tcb_layout_confirmed(snap),
		.addrs = addrs, .n = k, .exe = s->exe, .rs = &rs,
		.code = &code, .readable = &readable,
	};
	if ((rc = lk_ghc_heap_open(s->exe, 0, snap->mem_fd, &ghc)) != 0 ||
	    (rc = open_go_heap(s, snap, threads, n_threads, &go)) != 0)
		goto out;
	q.ghc = ghc;
	q.go = go;
	if ((rc = collect_roots(&q)) != 0 || (rc = add_ghc_roots(ghc, &rs)) != 0 ||
	    (rc = add_registered(s, &readable, &rs)) != 0 ||
	    (go && (rc = add_go_roots(go, &rs, &nodes.go)) != 0) ||
	    (rc = inherited_blocks(s, snap, addrs, k, &inherited, &n_inherited)) != 0 ||
	    (n_inherited && (rc = add_parent_root(&rs, &nodes.parent)) != 0))
		goto out;
	size_t all = k; /* the program's blocks, before the nodes join them */
	if (go && (rc = append_nodes(go->objects, go->n_objects, &blocks, &slot, &ignored, &k)))
		goto out;
	nodes.inherited = k;
	if ((rc = append_nodes(inherited, n_inherited, &blocks, &slot, &ignored, &k)) != 0)
		goto out;
	mem->fd = snap->mem_fd;
	mem->files = &code;
	mem->base = mem->prev = 0;
	mem->filled = 0;
	rc = lk_reach_classify(blocks, k, rs.r, rs.n, regs, n_regs, ignored,
			       LK_REACH_GLIBC_CHUNKS | LK_REACH_HEURISTICS |
			       (s->want_why ? LK_REACH_WHY : 0),
			       read_mem, addr_kind, mem, &reach);
	if (rc == LK_EUSAGE) { /* blocks that wrap or overlap: classify the others */
		k = keep_disjoint(blocks, slot, ignored, k);
		rc = lk_reach_classify(blocks, k, rs.r, rs.n, regs, n_regs, ignored,
				       LK_REACH_GLIBC_CHUNKS | LK_REACH_HEURISTICS |
				       (s->want_why ? LK_REACH_WHY : 0),
				       read_mem, addr_kind, mem, &reach);
	}
	if (rc)
		goto out;
	free(s->classes);
	free(s->leaders);
	s->classes = malloc(s->live.cap + 1);
	s->leaders = calloc(s->live.cap + 1, sizeof(*s->leaders));
	if (!s->classes || !s->leaders) {
		rc = -ENOMEM;
		goto out;
	}
	memset(s->classes, LK_CLASS_NOT_FREED, s->live.cap + 1);
	size_t classified = 0;
	for (size_t i = 0; i < k; i++) {
		if (slot[i] == SIZE_MAX) /* one of Go's objects */
			continue;
		s->classes[slot[i]] = reach.classes[i];
		s->leaders[slot[i]] = (uint32_t)slot[reach.leader[i]];
		classified++;
	}
	s->unclassified = all - classified;
	if (s->want_why)
		rc = keep_why(s, &reach, slot, k, &rs, &code, n_threads * LK_GENERAL_REGS,
			      &nodes, snap->mem_fd);
out:
	lk_reach_release(&reach);
	lk_ghc_heap_free(ghc);
	lk_go_heap_free(go);
	free(inherited);
	for (size_t i = 0; rs.info && i < rs.n; i++)
		free(rs.info[i].name);
	free(rs.info);
	free(code.r);
	free(rs.r);
	free(readable.r);
	free(blocks);
	free(slot);
	free(addrs);
	free(ignored);
	free(regs);
	free(threads);
	free(mem);
	return rc;
}
