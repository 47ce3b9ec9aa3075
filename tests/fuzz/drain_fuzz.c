/*
 * drain_fuzz.c - libFuzzer target: the collector reading a shared region
 * (common/shm.h) that a hostile program wrote. The input is a little
 * program of writes into a real region (a memfd of the real size, mapped
 * here as the target maps it): header fields, events published as the
 * interposer does and ring slots written any way, stack entries and
 * frames, module entries (paths with or without their NUL), mark texts,
 * counters, registered roots, words of the program's memory.
 *
 * Two modes, by the input's first byte:
 *   0  every write, then the session is opened and drained: arbitrary
 *      region contents, the header included;
 *   1  the session is opened first and the writes come between drains:
 *      a writer racing the collector (the values change between reads).
 * Then a last drain as at the process's end, a reachability scan of a
 * made-up memory (64 KiB at 0x10000, a memfd read as /proc/PID/mem),
 * the leak grouping without symbols (no module is opened), and the text
 * and JSON reports. A session sink reads stacks and modules as the
 * recorder does.
 *
 * Build: make fuzz; run: build-fuzz/drain_fuzz CORPUS. Seeds:
 * LK_DRAIN_FUZZ_SEEDS=DIR build-fuzz/drain_fuzz writes a few and exits.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analyze/leaks.h"
#include "collector/scan.h"
#include "collector/session.h"
#include "common/shm.h"
#include "report/leak/leak_report.h"

#define MEM_LO 0x10000u   /* the made-up memory of the program */
#define MEM_SIZE 0x10000u

static int region_fd = -1, mem_fd = -1, maps_fd = -1;
static char *region;      /* the program's mapping of the region */
static struct lk_shm_layout layout;

/* ---- the input ------------------------------------------------------------ */

struct in {
	const uint8_t *p;
	size_t n;
};

static uint64_t take(struct in *in, size_t k)
{
	uint64_t v = 0;
	for (size_t i = 0; i < k && in->n; i++, in->p++, in->n--)
		v |= (uint64_t)*in->p << (8 * i);
	return v;
}

#define U8(in) ((uint8_t)take(in, 1))
#define U16(in) ((uint16_t)take(in, 2))
#define U32(in) ((uint32_t)take(in, 4))
#define U64(in) take(in, 8)

/* An address: mostly in the made-up memory, sometimes anything. */
static uint64_t pick_addr(struct in *in)
{
	uint8_t how = U8(in);
	if (how < 200)
		return MEM_LO + (uint64_t)(U16(in) % (MEM_SIZE / 16)) * 16;
	if (how < 230)
		return UINT64_MAX - U16(in);
	return U64(in);
}

static uint64_t pick_size(struct in *in)
{
	uint8_t how = U8(in);
	if (how < 220)
		return U8(in);
	return U64(in) & LK_EV_SIZE_MASK;
}

/* ---- writes as the program makes them -------------------------------------- */

static struct lk_shm_header *hdr(void)
{
	return (struct lk_shm_header *)region;
}

#define PART(off, type) ((type *)(region + layout.off))

static void header_init(void)
{
	struct lk_shm_header *h = hdr();
	h->magic = LK_SHM_MAGIC;
	h->version = LK_SHM_VERSION;
	h->pid = 1;
	h->ppid = 1;
	h->size = layout.size;
	h->ring_off = layout.ring_off;
	h->bucket_off = layout.bucket_off;
	h->entry_off = layout.entry_off;
	h->frame_off = layout.frame_off;
	h->module_off = layout.module_off;
	h->mark_off = layout.mark_off;
	atomic_store(&h->stack_count, 1);
	memcpy(h->comm, "fuzz", 5);
}

/* An event published as the interposer does; dropped if its slot is not
 * free for it. */
static void publish(unsigned kind, uint64_t addr, uint64_t size, uint32_t stack, uint32_t tid)
{
	uint64_t pos = atomic_fetch_add(&hdr()->ring_head, 1), lap = LK_RING_LAP(pos);
	struct lk_slot *s = &PART(ring_off, struct lk_slot)[pos & (LK_RING_SLOTS - 1)];
	if (atomic_load(&s->seq) != lap)
		return;
	s->addr = addr;
	s->kind_size = LK_EV_PACK(kind, size);
	s->stack = stack;
	s->tid = tid;
	atomic_store(&s->seq, lap + 1);
}

static uint32_t pick_stack(struct in *in)
{
	uint8_t how = U8(in);
	uint32_t n = atomic_load(&hdr()->stack_count);
	if (how < 230)
		return (uint32_t)(U8(in) % ((uint64_t)n + 1));
	return U32(in);
}

static void op_event(struct in *in)
{
	unsigned kind = U8(in) % 13;
	uint64_t addr = pick_addr(in), size = pick_size(in);
	uint32_t stack = kind == LK_EV_ALLOC ? pick_stack(in) : 0;
	publish(kind, addr, size, stack, U8(in));
}

static void op_slot(struct in *in)
{
	uint32_t i = U32(in) & (LK_RING_SLOTS - 1);
	struct lk_slot *s = &PART(ring_off, struct lk_slot)[i];
	uint64_t head = atomic_load(&hdr()->ring_head);
	uint8_t how = U8(in);
	uint64_t seq = how < 100 ? LK_RING_LAP(head) + 1 : how < 150 ? LK_RING_LAP(head) + LK_RING_SLOTS
							      : U64(in);
	s->addr = pick_addr(in);
	s->kind_size = LK_EV_PACK(U8(in) % 13, pick_size(in)) ^ (how > 240 ? U64(in) : 0);
	s->stack = pick_stack(in);
	s->tid = U32(in);
	atomic_store(&s->seq, seq);
}

/* A new stack as the interposer interns one. */
static void op_stack(struct in *in)
{
	struct lk_shm_header *h = hdr();
	uint32_t depth = U8(in) % 8 + 1;
	uint32_t id = atomic_fetch_add(&h->stack_count, 1);
	uint64_t first = atomic_fetch_add(&h->frames_used, depth);
	if (id >= LK_STACK_ENTRIES || first > LK_FRAME_POOL - depth)
		return;
	uint64_t *frames = PART(frame_off, uint64_t);
	for (uint32_t i = 0; i < depth; i++)
		frames[first + i] = 0x400000 + U16(in);
	PART(entry_off, struct lk_stack_entry)[id] =
		(struct lk_stack_entry){.hash = 1, .depth = depth, .first = (uint32_t)first};
}

/* A stack entry overwritten with anything. */
static void op_stack_raw(struct in *in)
{
	uint32_t id = U8(in) < 200 ? U8(in) % 64 : U32(in) % LK_STACK_ENTRIES;
	struct lk_stack_entry *e = &PART(entry_off, struct lk_stack_entry)[id];
	e->depth = U8(in) < 128 ? U8(in) : U32(in);
	e->first = U8(in) < 128 ? U16(in) : U32(in);
}

static void op_module(struct in *in)
{
	struct lk_shm_header *h = hdr();
	uint8_t how = U8(in);
	uint32_t n = atomic_load(&h->module_count);
	uint32_t i = how < 200 ? n : U16(in) % LK_MODULES_MAX;
	if (i >= LK_MODULES_MAX)
		return;
	struct lk_module_entry *m = &PART(module_off, struct lk_module_entry)[i];
	m->bias = U8(in) < 128 ? 0x400000 : U64(in);
	m->lo = 0x400000 + (uint64_t)U16(in);
	m->hi = m->lo + U16(in);
	size_t len = U8(in) % 48;
	memset(m->path, 0, sizeof(m->path));
	for (size_t k = 0; k < len; k++)
		m->path[k] = (char)('a' + U8(in) % 26);
	if (U8(in) > 240)
		memset(m->path, 'x', sizeof(m->path)); /* no NUL */
	if (i == n)
		atomic_store(&h->module_count, n + 1);
}

static void op_mark(struct in *in)
{
	struct lk_shm_header *h = hdr();
	uint64_t k = atomic_fetch_add(&h->mark_head, 1);
	struct lk_mark_slot *m = &PART(mark_off, struct lk_mark_slot)[k & (LK_MARK_SLOTS - 1)];
	uint8_t how = U8(in);
	uint32_t len = how < 200 ? U8(in) % 40 : U32(in);
	for (uint32_t i = 0; i < len && i < sizeof(m->text); i++)
		m->text[i] = (char)(' ' + U8(in) % 95);
	if (len < sizeof(m->text))
		m->text[len] = 0;
	m->len = len;
	atomic_store(&m->seq, how < 240 ? LK_MARK_DONE(k) : U64(in));
	publish(U8(in) & 1 ? LK_EV_SNAPSHOT : LK_EV_MARK, U8(in) < 240 ? k : U64(in), 0, 0, 7);
}

static void op_counter(struct in *in)
{
	struct lk_shm_header *h = hdr();
	uint8_t which = U8(in) % 7;
	uint64_t v = U8(in) < 128 ? U16(in) : U64(in);
	switch (which) {
	case 0: atomic_store(&h->ring_head, v); break;
	case 1: atomic_fetch_add(&h->ring_head, v % (2 * LK_RING_SLOTS)); break;
	case 2: atomic_store(&h->stack_count, (uint32_t)v); break;
	case 3: atomic_store(&h->frames_used, v); break;
	case 4: atomic_store(&h->module_count, (uint32_t)v); break;
	case 5: atomic_store(&h->mark_head, v); break;
	default: atomic_store(&h->mark_dropped, (uint32_t)v); break;
	}
}

static void op_header(struct in *in)
{
	size_t off = U16(in) % (sizeof(struct lk_shm_header) - 8);
	uint64_t v = U64(in);
	memcpy(region + off, &v, 8);
}

static void op_root(struct in *in)
{
	uint8_t how = U8(in);
	uint64_t addr = pick_addr(in);
	uint64_t size = how < 200 ? U16(in) : U64(in) & LK_EV_SIZE_MASK;
	publish(how & 1 ? LK_EV_ROOT_DEL : LK_EV_ROOT_ADD, addr, size, 0, 0);
}

/* A word of the program's memory (a pointer, mostly). */
static void op_memory(struct in *in)
{
	uint64_t off = (uint64_t)(U16(in) % (MEM_SIZE / 8)) * 8, v = pick_addr(in);
	if (pwrite(mem_fd, &v, 8, (off_t)(MEM_LO + off)) != 8)
		abort();
}

/* ---- the collector's side ---------------------------------------------------- */

/* Reads stacks and modules of every new block, as the recorder does. */
static volatile uint64_t sum;

static void sink_event(void *data, struct lk_session *s, const struct lk_session_event *ev)
{
	if (ev->kind != LK_EV_ALLOC || !ev->block)
		return;
	uint64_t ips[LK_MAX_FRAMES];
	int depth = lk_session_stack(s, ev->stack, ips);
	if (depth < 0)
		lk_session_corrupt(s, "a stack entry");
	for (int i = 0; i < depth; i++) {
		struct lk_session_module_info mi;
		if (lk_session_module_info(s, ips[i], &mi) == 0)
			sum += strlen(mi.path) + mi.bias + mi.lo + mi.hi;
	}
}

static const struct lk_session_sink sink = {.event = sink_event};

static struct lk_session *open_session(void)
{
	struct lk_hello hello = {.magic = LK_SHM_MAGIC, .pid = 1, .ppid = 1};
	struct lk_session *s = NULL;
	if (lk_session_open(&s, region_fd, &hello, 0) != 0)
		return NULL;
	s->keep_marks = 1;
	s->sink = &sink;
	return s;
}

static void scan(struct lk_session *s)
{
	struct lk_exit_snapshot snap = {.mem_fd = mem_fd, .maps_fd = maps_fd};
	snap.regs.rsp = MEM_LO + MEM_SIZE - 256;
	snap.regs.rax = MEM_LO + 64;
	if (lseek(maps_fd, 0, SEEK_SET) != 0)
		abort();
	lk_scan_session(s, &snap);
}

static void report(struct lk_session *s)
{
	struct lk_leak_report rep;
	if (lk_leaks_collect(s, NULL, NULL, 1, 1, 0, &rep) != 0) {
		lk_leak_report_release(&rep);
		return;
	}
	char *argv[] = {"fuzz", NULL};
	struct lk_run_result r = {.argv = argv, .reports = &rep, .n_reports = 1,
				  .text = {.show_suppressed = 1, .show_reachable = 1,
					   .gen_suppressions = 1, .style.color = 1}};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (f) {
		lk_leak_write_text(&r, f);
		lk_leak_write_json(&r, f);
		lk_leak_write_folded(&r, f);
		fclose(f);
	}
	free(buf);
	lk_leak_report_release(&rep);
}

/* ---- set-up ------------------------------------------------------------------ */

static int make_fd(const char *name, uint64_t size)
{
	int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0 || ftruncate(fd, (off_t)size) != 0)
		abort();
	return fd;
}

static void setup(void)
{
	layout = lk_shm_layout();
	region_fd = make_fd("leakscope", layout.size);
	if (fcntl(region_fd, F_ADD_SEALS, F_SEAL_SHRINK) != 0)
		abort();
	region = mmap(NULL, layout.size, PROT_READ | PROT_WRITE, MAP_SHARED, region_fd, 0);
	if (region == MAP_FAILED)
		abort();
	mem_fd = make_fd("mem", MEM_LO + MEM_SIZE);
	/* the memory's two mappings, and a file whose long name reads, from
	 * the 4 KiB the scan's line buffer holds on, as a mapping of most of
	 * the address space */
	maps_fd = make_fd("maps", 0);
	char maps[8192];
	int n = snprintf(maps, sizeof(maps),
			 "%x-%x rw-p 00000000 00:00 0 \n%x-%x r--p 00000000 00:00 0 [vvar]\n",
			 MEM_LO, MEM_LO + MEM_SIZE / 2, MEM_LO + MEM_SIZE / 2, MEM_LO + MEM_SIZE);
	int line = n;
	n += snprintf(maps + n, sizeof(maps) - (size_t)n, "7f0000000000-7f0000001000 r--p 0 0:0 1 /");
	memset(maps + n, 'n', (size_t)(line + 4095 - n));
	n = line + 4095;
	n += snprintf(maps + n, sizeof(maps) - (size_t)n, "10000-500000000000 rw-p 0 0:0 0 x\n");
	if (write(maps_fd, maps, (size_t)n) != n)
		abort();
}

/* Zero the region and the memory (the pages go back to the kernel). */
static void reset(void)
{
	if (fallocate(region_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
		      (off_t)layout.size) != 0 ||
	    fallocate(mem_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
		      MEM_LO + MEM_SIZE) != 0)
		abort();
	header_init();
}

static void (*const ops[])(struct in *) = {
	op_event, op_event, op_event, op_slot, op_stack, op_stack_raw, op_module,
	op_mark, op_counter, op_header, op_root, op_memory,
};
enum { N_OPS = sizeof(ops) / sizeof(ops[0]) };
#define OP_DRAIN N_OPS       /* and N_OPS + 1: a final one */
#define OP_MARK (N_OPS + 2)  /* a mark from a control client */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (region_fd < 0)
		setup();
	reset();
	struct in in = {data, size};
	uint8_t mode = U8(&in);
	int racing = mode & 1, scanning = !(mode & 2);
	struct lk_session *s = racing ? open_session() : NULL;
	while (in.n) {
		unsigned op = U8(&in) % (N_OPS + 3);
		if (op < N_OPS)
			ops[op](&in);
		else if (op == OP_MARK && s)
			lk_session_add_mark(s, 0, "from a client");
		else if (s)
			lk_session_drain(s, op == OP_DRAIN + 1);
	}
	if (!s)
		s = open_session();
	if (!s)
		return 0;
	lk_session_drain(s, 1);
	lk_session_detach(s);
	if (scanning)
		scan(s);
	report(s);
	lk_session_free(s);
	return 0;
}

/* ---- seeds ------------------------------------------------------------------- */

static void seed(const char *dir, const char *name, const uint8_t *b, size_t n)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(b, 1, n, f) != n || fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

/* A module, two stacks, allocations pointing at each other, a free, a
 * mark, a root, drains between: once written first, once racing. */
static void write_seeds(const char *dir)
{
	enum { EV = 0, STACK = 4, MODULE = 6, MARK = 7, ROOT = 10, MEM = 11 };
	const uint8_t body[] = {
		MODULE, 0, 0, 0, 0, 0xff, 0xff, 4, 'l', 'i', 'b', 'c', 0,
		STACK, 3, 1, 0, 2, 0, 3, 0, 4, 0,
		STACK, 1, 5, 0, 6, 0,
		EV, LK_EV_ALLOC, 0, 1, 0, 64, 64, 0, 1, 1,
		EV, LK_EV_ALLOC, 0, 8, 0, 0, 32, 0, 2, 1,
		MEM, 4, 0, 0, 8, 0,
		EV, LK_EV_ALLOC, 0, 16, 0, 0, 16, 0, 1, 2,
		N_OPS,
		EV, LK_EV_FREE, 0, 16, 0, 0, 0, 2,
		MARK, 0, 5, 'h', 'e', 'l', 'l', 'o', 0, 0,
		ROOT, 0, 0, 1, 0, 0x40, 0,
		N_OPS + 2,
		N_OPS,
		EV, LK_EV_IGNORE, 0, 2, 0, 0, 0, 3,
	};
	uint8_t b[sizeof(body) + 1];
	memcpy(b + 1, body, sizeof(body));
	b[0] = 0;
	seed(dir, "written", b, sizeof(b));
	b[0] = 1;
	seed(dir, "racing", b, sizeof(b));
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("LK_DRAIN_FUZZ_SEEDS");
	if (dir) {
		write_seeds(dir);
		exit(0);
	}
	return 0;
}
