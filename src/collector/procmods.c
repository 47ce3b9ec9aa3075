/* procmods.c - a process's modules from its maps (procmods.h). */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collector/maps.h"
#include "collector/procmods.h"
#include "common/error.h"

#define MODULES_MAX 65536

/* The page-aligned address of the first loadable segment of ELF file
 * path, or 0 (shared objects and PIE: 0 too). */
static uint64_t first_load(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	uint64_t at = 0;
	size_t n = 0;
	Elf *e = fd >= 0 && elf_version(EV_CURRENT) != EV_NONE ? elf_begin(fd, ELF_C_READ, NULL)
							      : NULL;
	for (size_t i = 0; e && elf_getphdrnum(e, &n) == 0 && i < n; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD) {
			at = ph.p_vaddr & ~(uint64_t)4095;
			break;
		}
	}
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
	return at;
}

static int add(struct lk_shmview_module **mods, uint32_t *n, uint32_t *cap,
	       const struct lk_maps_line *m, const char *name)
{
	if (*n == *cap) {
		uint32_t nc = *cap ? *cap * 2 : 64;
		struct lk_shmview_module *a = nc <= MODULES_MAX ? realloc(*mods, nc * sizeof(*a))
								: NULL;
		if (!a)
			return -ENOMEM;
		*mods = a;
		*cap = nc;
	}
	char *path = strdup(name);
	if (!path)
		return -ENOMEM;
	(*mods)[(*n)++] = (struct lk_shmview_module){.bias = m->lo - first_load(path),
						     .lo = m->lo, .hi = m->hi, .path = path};
	return 0;
}

int lk_procmods_read(pid_t pid, struct lk_shmview_module **mods, uint32_t *n)
{
	char path[64], line[4096];
	uint32_t cap = 0;
	*mods = NULL;
	*n = 0;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return lk_error_set(-errno, "cannot read the mappings of pid %d: %s", (int)pid,
				    strerror(errno));
	struct lk_maps_line m;
	int rc = 0;
	while (!rc && lk_maps_next(f, line, sizeof(line), &m)) {
		char *name = line + (m.name - line);
		name[strcspn(name, "\n")] = 0;
		struct lk_shmview_module *last = *n ? &(*mods)[*n - 1] : NULL;
		if (*name != '/')
			continue;
		if (last && !strcmp(last->path, name) && m.offset)
			last->hi = m.hi; /* a further segment of the same file */
		else if (m.offset == 0)
			rc = add(mods, n, &cap, &m, name);
	}
	fclose(f);
	if (rc) {
		lk_procmods_free(*mods, *n);
		*mods = NULL;
		*n = 0;
	}
	return rc;
}

void lk_procmods_free(struct lk_shmview_module *mods, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		free(mods[i].path);
	free(mods);
}
