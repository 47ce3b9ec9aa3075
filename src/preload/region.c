/*
 * region.c - this process's shared region: create the memfd, lay it out,
 * and hand it to the collector over the control socket.
 *
 * In the child of fork() the parent's region is still mapped (shared with
 * the parent), so the child makes its own, with an empty stack table (the
 * one thread the child has forgets the ids it remembered, stacks.c: its
 * events name only stacks of its own table; the blocks it inherited
 * belong to its parent's report), and announces itself with the parent's
 * ring position at the fork. Nothing is copied: a fork costs the child a
 * memfd, a mapping and the announcement.
 */
#include <dlfcn.h>
#include <link.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "preload/preload.h"

LK_HIDDEN struct lk_region lk_region;
LK_HIDDEN _Atomic uint64_t lk_region_gen;

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
	const char *path = lk_collector_socket();
	struct lk_hello hello = {
		.magic = LK_SHM_MAGIC, .pid = h->pid, .ppid = h->ppid,
		.flags = h->flags, .fork_seq = h->fork_seq,
	};
	/* The collector's one-byte acknowledgement: from then on it holds the
	 * region, whatever happens to us. */
	pid_t collector = 0;
	int ack = lk_socket_call(path, &hello, sizeof(hello), &memfd, 1, &collector);
	if (ack < 0)
		return -1;
	lk_liveness_remember(collector);
	lk_exitcall_arm(path, ack);
	return 0;
}

/* Whether the program's "malloc" is ours. Its address alone does not say:
 * an executable built without -fPIE that takes malloc's address has the
 * canonical one, a stub of its own (an undefined symbol with a value)
 * that jumps to us. Only a definition named malloc is another malloc. */
static int malloc_reaches_us(void)
{
	void *m = dlsym(RTLD_DEFAULT, "malloc");
	Dl_info di;
	const ElfW(Sym) *sym = NULL;
	if (!m || m == (void *)lk_malloc_here)
		return 1;
	return !(dladdr1(m, &di, (void **)&sym, RTLD_DL_SYMENT) && sym && di.dli_saddr == m &&
		 sym->st_shndx != SHN_UNDEF && strcmp(di.dli_sname, "malloc") == 0);
}

LK_HIDDEN int lk_region_attach(const struct lk_region *parent, unsigned flags)
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
	r.hdr->flags = flags;
	/* (an attach loaded us last: the GOT entries lead to us, not the name) */
	if (!(flags & LK_SHM_ATTACHED) && !malloc_reaches_us())
		r.hdr->flags |= LK_SHM_OWN_MALLOC;
	if (parent) {
		r.hdr->flags |= LK_SHM_FORKED;
		r.hdr->fork_seq = atomic_load(&parent->hdr->ring_head);
	}
	lk_region = r;
	atomic_fetch_add(&lk_region_gen, 0x9e3779b97f4a7c15ull);
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
