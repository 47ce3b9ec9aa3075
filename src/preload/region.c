/*
 * region.c - this process's shared region: create the memfd, lay it out,
 * and hand it to the collector over the control socket.
 *
 * In the child of fork() the parent's region is still mapped (shared with
 * the parent), so the child makes its own, copies the parent's stack table
 * into it (stack ids stay valid: the child's memory holds ids it inherited)
 * and announces itself with the parent's ring position at the fork.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "preload/preload.h"

LK_HIDDEN struct lk_region lk_region;

static void region_layout(struct lk_region *r, struct lk_shm_header *h)
{
	struct lk_shm_layout l = lk_shm_layout();
	char *base = (char *)h;
	r->hdr = h;
	r->ring = (struct lk_slot *)(base + l.ring_off);
	r->buckets = (_Atomic uint32_t *)(base + l.bucket_off);
	r->entries = (struct lk_stack_entry *)(base + l.entry_off);
	r->frames = (uint64_t *)(base + l.frame_off);
	r->modules = (struct lk_module_entry *)(base + l.module_off);
	r->marks = (struct lk_mark_slot *)(base + l.mark_off);
}

static void header_init(struct lk_shm_header *h)
{
	struct lk_shm_layout l = lk_shm_layout();
	h->magic = LK_SHM_MAGIC;
	h->version = LK_SHM_VERSION;
	h->pid = (uint32_t)getpid();
	h->ppid = (uint32_t)getppid();
	h->size = l.size;
	h->ring_off = l.ring_off;
	h->bucket_off = l.bucket_off;
	h->entry_off = l.entry_off;
	h->frame_off = l.frame_off;
	h->module_off = l.module_off;
	h->mark_off = l.mark_off;
	atomic_store(&h->stack_count, 1); /* id 0 means "no stack" */
	prctl(PR_GET_NAME, h->comm, 0, 0, 0);
}

/* Copy the parent's stacks: buckets first, so every id we copy was
 * published, and so complete, before we copy its entry and frames. */
static void copy_stacks(struct lk_region *to, const struct lk_region *from)
{
	uint32_t count = atomic_load(&from->hdr->stack_count);
	uint64_t used = atomic_load(&from->hdr->frames_used);
	/* both go on counting past a full table (stacks.c) */
	if (count > LK_STACK_ENTRIES)
		count = LK_STACK_ENTRIES;
	if (used > LK_FRAME_POOL)
		used = LK_FRAME_POOL;
	memcpy((void *)to->buckets, (const void *)from->buckets,
	       (size_t)LK_STACK_BUCKETS * sizeof(uint32_t));
	memcpy(to->entries, from->entries, (size_t)count * sizeof(struct lk_stack_entry));
	memcpy(to->frames, from->frames, (size_t)used * sizeof(uint64_t));
	atomic_store(&to->hdr->stack_count, count);
	atomic_store(&to->hdr->frames_used, used);
}

/* Move fd out of the way of the program's own low descriptors. */
static int fd_high(int fd)
{
	int hi = fcntl(fd, F_DUPFD_CLOEXEC, 700);
	if (hi < 0)
		return fd;
	close(fd);
	return hi;
}

static int announce(int memfd, const struct lk_shm_header *h)
{
	const char *path = getenv(LK_ENV_SOCKET);
	struct lk_hello hello = {
		.magic = LK_SHM_MAGIC, .pid = h->pid, .ppid = h->ppid,
		.flags = h->flags, .fork_seq = h->fork_seq,
	};
	/* The collector's one-byte acknowledgement: from then on it holds the
	 * region, whatever happens to us. */
	int ack = lk_socket_call(path, &hello, sizeof(hello), &memfd, 1);
	if (ack < 0)
		return -1;
	lk_exitcall_arm(path, ack);
	return 0;
}

LK_HIDDEN int lk_region_attach(const struct lk_region *parent)
{
	uint64_t size = lk_shm_total_size();
	int fd = memfd_create("leakscope", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return -1;
	fd = fd_high(fd);
	/* never smaller: the collector's reads past a new end would fault */
	if (ftruncate(fd, (off_t)size) != 0 || fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) != 0) {
		close(fd);
		return -1;
	}
	void *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		close(fd);
		return -1;
	}
	struct lk_region r;
	header_init(m);
	region_layout(&r, m);
	if (parent) {
		r.hdr->flags |= LK_SHM_FORKED;
		r.hdr->fork_seq = atomic_load(&parent->hdr->ring_head);
		copy_stacks(&r, parent);
	}
	lk_region = r;
	lk_modules_snapshot();
	int rc = announce(fd, r.hdr);
	close(fd);
	if (parent)
		munmap(parent->hdr, size);
	if (rc != 0) {
		munmap(m, size);
		memset(&lk_region, 0, sizeof(lk_region));
	}
	return rc;
}
