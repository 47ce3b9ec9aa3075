/*
 * shm.h - the only contract between the target (libleakscope.so) and the
 * collector: the layout of one process's shared-memory region.
 *
 * Each traced process owns one memfd, created by the interposer and passed to
 * the collector over the control socket. Because the collector maps the same
 * pages, every event the target published is still readable after the target
 * died in any way (exit_group, abort, SIGSEGV, SIGKILL).
 *
 * Region layout (offsets in struct lk_shm_header):
 *   header | event ring | stack buckets | stack entries | frame pool | modules
 *   | mark texts
 *
 * Event ring: a bounded multi-producer single-consumer queue of n slots. A
 * producer reserves position p with fetch_add on ring_head; with lap(p) = p
 * rounded down to a multiple of n, it waits until slot[p % n].seq == lap(p)
 * (slot free; zero-filled pages are free for the first lap), fills it, then
 * release-stores seq = lap(p) + 1. The collector consumes the slot when
 * seq == lap(p) + 1 and hands it back with seq = lap(p) + n. A slot reserved
 * but never committed (its thread longjmp'ed out of a signal handler) is
 * skipped by the collector after a timeout by storing lap(p) + n; a producer
 * that finds seq > lap(p) drops its event. Position order is the global event order of the process: an
 * allocation reserves its position after the real allocator returned, a free
 * before the real free runs, so a block's free always precedes the next
 * allocation that reuses its address.
 *
 * Mark texts (leakscope_mark / leakscope_snapshot): a ring slot has no room
 * for text, so the text goes first into one of LK_MARK_SLOTS slots of its
 * own. The producer takes k = fetch_add(mark_head, 1), claims slot
 * k % LK_MARK_SLOTS with a compare-and-swap of its seq from 0 (free) to
 * LK_MARK_BUSY, writes the text, release-stores seq = 2k + 1 (committed) and
 * then publishes an LK_EV_MARK or LK_EV_SNAPSHOT event whose addr is k. The
 * collector copies the text when it applies that event, in ring order, if
 * seq == 2k + 1, and frees the slot (seq = 0). A producer never waits for a
 * text slot: when the slot is still in use the mark is dropped and counted
 * in mark_dropped.
 *
 * Stacks are deduplicated in the target. A new stack's frames are written to
 * the frame pool and its entry published before any event names its id, so
 * the collector may read stack entries directly from the region.
 *
 * The program can write any byte of its region at any time: the collector
 * trusts none of it (docs/shared-memory.md, "What the collector trusts";
 * collector/shmview.h). It checks the header once against lk_shm_layout()
 * and never reads an offset again, reads each value once and checks it
 * against the constants below, and gives up on a region found inconsistent:
 * it then stores UINT64_MAX in every slot's seq, so that producers drop
 * their events (seq > lap(p)) instead of waiting for it. The memfd is
 * sealed against shrinking (F_SEAL_SHRINK) before it is announced: pages
 * past a new end would fault the collector.
 */
#ifndef LK_COMMON_SHM_H
#define LK_COMMON_SHM_H

#include <stdatomic.h>
#include <stdint.h>

#define LK_SHM_MAGIC 0x31306d68736b6c00ULL /* "\0lkshm01" */
#define LK_SHM_VERSION 4

#define LK_RING_SLOTS (1u << 18)       /* 8 MiB of events */
#define LK_STACK_BUCKETS (1u << 20)    /* hash buckets, power of two */
#define LK_STACK_ENTRIES (1u << 19)    /* distinct stacks */
#define LK_FRAME_POOL (1u << 24)       /* return addresses, all stacks */
#define LK_MODULES_MAX 4096
#define LK_MAX_FRAMES 128              /* hard cap of one stack's depth */
#define LK_PATH_MAX 400
#define LK_MARK_SLOTS 256              /* texts in flight */
#define LK_MARK_TEXT 496               /* bytes of one text, with its NUL */

/* Environment variables the collector hands to the target. */
#define LK_ENV_SOCKET "LEAKSCOPE_SOCKET"
#define LK_ENV_FRAMES "LEAKSCOPE_FRAMES"
#define LK_ENV_UNWIND "LEAKSCOPE_UNWIND" /* the user's: "careful" = no fast unwinder */

enum lk_event_kind {
	LK_EV_ALLOC = 1,  /* addr, size, stack: a block became live */
	LK_EV_FREE = 2,   /* addr: a block was released */
	LK_EV_MARK = 3,   /* addr = mark text slot: the program's leakscope_mark() */
	LK_EV_EXEC = 4,   /* the process calls execve: its image may be replaced */
	LK_EV_EXEC_FAILED = 5, /* ... and execve returned: it was not */
	LK_EV_REALLOC_FREE = 6, /* addr: a free by realloc, which may fail... */
	LK_EV_REALLOC_UNDO = 7, /* addr: ... and did: the block is live again */
	LK_EV_IGNORE = 8,       /* addr: the program keeps this block on purpose */
	LK_EV_ROOT_ADD = 9,     /* addr, size: a region the scan must treat as a root */
	LK_EV_ROOT_DEL = 10,    /* addr: ... no longer */
	LK_EV_SNAPSHOT = 11,    /* addr = mark text slot: leakscope_snapshot() */
};

/* Packing of kind and size in one word: sizes above 2^56 do not exist. */
#define LK_EV_SIZE_BITS 56
#define LK_EV_SIZE_MASK ((1ULL << LK_EV_SIZE_BITS) - 1)
#define LK_EV_PACK(kind, size) (((uint64_t)(kind) << LK_EV_SIZE_BITS) | ((size) & LK_EV_SIZE_MASK))
#define LK_EV_KIND(w) ((unsigned)((w) >> LK_EV_SIZE_BITS))
#define LK_EV_SIZE(w) ((w) & LK_EV_SIZE_MASK)

struct lk_slot {
	_Atomic uint64_t seq;   /* ring protocol, see above */
	uint64_t addr;
	uint64_t kind_size;     /* LK_EV_PACK(kind, size) */
	uint32_t stack;         /* stack id, 0 = none */
	uint32_t tid;
};

/* Stack ids index this array; id 0 is never used. */
struct lk_stack_entry {
	uint64_t hash;
	uint32_t depth;
	uint32_t first;         /* index of frame 0 (innermost) in the pool */
};

/* One mark text (see the protocol above). */
struct lk_mark_slot {
	_Atomic uint64_t seq;
	uint32_t len;           /* bytes of text, without the NUL */
	uint32_t pad;
	char text[LK_MARK_TEXT];
};

/* A loaded ELF object as the dynamic loader saw it (dl_iterate_phdr). */
struct lk_module_entry {
	uint64_t bias;          /* l_addr: runtime address - ELF vaddr */
	uint64_t lo, hi;        /* runtime range covered by PT_LOAD segments */
	uint64_t seq;           /* ring position when this entry was written */
	char path[LK_PATH_MAX]; /* "" for the main program: see /proc/PID/exe */
};

struct lk_shm_header {
	uint64_t magic;
	uint32_t version;
	uint32_t pid;
	uint32_t ppid;
	uint32_t flags;         /* LK_SHM_* below */
	uint64_t fork_seq;      /* parent's ring position at fork, if forked */
	uint64_t size;          /* bytes of the whole region */
	uint64_t ring_off, bucket_off, entry_off, frame_off, module_off, mark_off;

	_Alignas(64) _Atomic uint64_t ring_head;   /* next position to reserve */
	_Alignas(64) _Atomic uint64_t ring_tail;   /* collector's position */
	_Alignas(64) _Atomic uint32_t stack_count; /* entries handed out, incl. 0 */
	_Atomic uint32_t stack_overflow;           /* stacks lost: table full */
	_Atomic uint64_t frames_used;
	_Alignas(64) _Atomic uint32_t module_count;
	_Atomic uint32_t module_lock;
	_Alignas(64) char comm[64];                /* program name, for labels */
	_Alignas(64) _Atomic uint64_t mark_head;   /* next mark text slot */
	_Atomic uint32_t mark_dropped;             /* marks lost: slot still in use */
	_Atomic uint32_t exit_call;                /* set by the collector: call back
						    * at exit (it let go of ptrace) */
	/* The exit path's boundary: thread exit_tid called exit(), or main
	 * returned, with its stack pointer at exit_sp; what lies below on that
	 * thread's stack at the end is frames of the exit path (atexit
	 * handlers, destructors), not roots. 0: not yet. */
	_Atomic uint64_t exit_sp;
	_Atomic uint32_t exit_tid;
	/* An attached process (LK_SHM_ATTACHED): where the interposer keeps
	 * the GOT entries it rewrote (attach_n_patches struct lk_got_patch at
	 * attach_patches) and its state word (an int, LK_OFF = 3 stops it):
	 * a detach, every thread stopped, writes the entries back and the
	 * state off from outside. Addresses in the process. */
	_Atomic uint64_t attach_patches;
	_Atomic uint32_t attach_n_patches;
	_Atomic uint64_t attach_state;
};

/* One GOT entry an attach rewrote. */
struct lk_got_patch {
	uint64_t slot;          /* its address */
	uint64_t old;           /* what the dynamic linker had put there */
	uint64_t now;           /* the interposer's function */
};

#define LK_STATE_OFF 3      /* the interposer's enum lk_state, LK_OFF */

_Static_assert(sizeof(struct lk_shm_header) <= 4096, "the header fits its page");

enum {
	LK_SHM_FORKED = 1,     /* created in the child of a fork() */
	LK_SHM_OWN_MALLOC = 2, /* the program's malloc is not ours: its executable
				* defines one, which comes first */
	LK_SHM_ATTACHED = 4,   /* loaded into a running process by an attach:
				* its blocks from before are not in the ring */
};

/* First message on the control socket; carries the memfd (SCM_RIGHTS). */
struct lk_hello {
	uint64_t magic;         /* LK_SHM_MAGIC */
	uint32_t pid;
	uint32_t ppid;
	uint32_t flags;         /* LK_SHM_* */
	uint32_t pad;
	uint64_t fork_seq;
};

/* The collector's one-byte answer to a hello. */
enum {
	LK_ACK_OK = 1,        /* announced (and, for `run`, stopped at its end by ptrace) */
	LK_ACK_SELF_SCAN = 2, /* announced, but ptrace is not permitted: call back at exit */
};

/*
 * The exit call-back (docs/design.md, "Without ptrace"): when the
 * hello was answered LK_ACK_SELF_SCAN, the process, in exit() (a destructor
 * of the interposer) or _exit(), connects again and sends this message with
 * two descriptors (SCM_RIGHTS): its own /proc/self/mem and /proc/self/maps,
 * which a process may always open, whatever ptrace allows, and which keep
 * reading its memory in the collector. It then waits for one byte: the
 * collector has scanned it and reads no more.
 */
#define LK_EXIT_MAGIC 0x31746978656b6c00ULL /* "\0lkexit1" */

struct lk_exit_hello {
	uint64_t magic;         /* LK_EXIT_MAGIC */
	uint32_t pid;
	uint32_t pad;
	uint64_t sp;            /* the exiting thread's stack pointer */
};

/*
 * Letting go (docs/design.md, "Other tracers and privileges"): a process
 * about to be traced by another tracer (its own PTRACE_TRACEME, or a
 * PTRACE_ATTACH / PTRACE_SEIZE of it by a process of ours: strace, gdb),
 * or about to execute a program that gains privileges (setuid, setgid,
 * file capabilities: ptrace would take them away), sends this message,
 * with no descriptor, and waits for one byte. The collector then detaches
 * ptrace from every thread of pid, stores 1 in its region's exit_call so
 * that it calls back at exit as where ptrace is not permitted, and notes
 * why for its report.
 */
#define LK_RELEASE_MAGIC 0x31736c65726b6c00ULL /* "\0lkrels1" */

enum lk_release_reason {
	LK_RELEASE_TRACER = 1,      /* another tracer takes it */
	LK_RELEASE_PRIVILEGED = 2,  /* it executes path, which gains privileges */
};

struct lk_release {
	uint64_t magic;         /* LK_RELEASE_MAGIC */
	uint32_t pid;
	uint32_t reason;        /* enum lk_release_reason */
	char path[LK_PATH_MAX]; /* LK_RELEASE_PRIVILEGED: the program */
};

#define LK_RING_LAP(p) ((p) & ~(uint64_t)(LK_RING_SLOTS - 1))
#define LK_MARK_BUSY UINT64_MAX
#define LK_MARK_DONE(k) (2 * (uint64_t)(k) + 1)

/*
 * The ring never holds more positions than its slots and one more per
 * thread: a producer reserves one position and waits for it. So
 * ring_head - ring_tail <= LK_RING_SLOTS + LK_THREADS_MAX (the kernel's
 * PID_MAX_LIMIT bounds a process's threads).
 */
#define LK_THREADS_MAX (1u << 22)

/*
 * Where each part of the region starts: a function of the constants
 * above only. The interposer lays the region out with it and writes the
 * offsets into the header; the collector checks that they are these and
 * then uses its own (docs/shared-memory.md, "What the collector trusts").
 */
struct lk_shm_layout {
	uint64_t ring_off, bucket_off, entry_off, frame_off, module_off, mark_off;
	uint64_t size;          /* bytes of the whole region */
};

static inline struct lk_shm_layout lk_shm_layout(void)
{
	struct lk_shm_layout l;
	uint64_t off = 4096;
	l.ring_off = off;
	off += (uint64_t)LK_RING_SLOTS * sizeof(struct lk_slot);
	l.bucket_off = off;
	off += (uint64_t)LK_STACK_BUCKETS * sizeof(uint32_t);
	l.entry_off = off;
	off += (uint64_t)LK_STACK_ENTRIES * sizeof(struct lk_stack_entry);
	l.frame_off = off;
	off += (uint64_t)LK_FRAME_POOL * sizeof(uint64_t);
	l.module_off = off;
	off += (uint64_t)LK_MODULES_MAX * sizeof(struct lk_module_entry);
	l.mark_off = off;
	off += (uint64_t)LK_MARK_SLOTS * sizeof(struct lk_mark_slot);
	l.size = off;
	return l;
}

static inline uint64_t lk_shm_total_size(void)
{
	return lk_shm_layout().size;
}

#endif
