/*
 * allocator.c - tell glibc's malloc from others in a running process
 * (allocator.h): its mappings name the libraries, their symbol tables
 * say who defines malloc.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collector/allocator.h"
#include "collector/maps.h"
#include "common/error.h"

#define LIBS_MAX 4096

/* 1 if a symbol table of the ELF file fd defines the function malloc
 * (the dynamic one; also .symtab when all_tables). */
static int defines_malloc(int fd, int all_tables)
{
	int found = 0;
	Elf *e = elf_version(EV_CURRENT) != EV_NONE ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
	for (Elf_Scn *scn = NULL; e && !found && (scn = elf_nextscn(e, scn));) {
		GElf_Shdr sh;
		Elf_Data *d;
		if (!gelf_getshdr(scn, &sh) || !sh.sh_entsize ||
		    !(sh.sh_type == SHT_DYNSYM || (all_tables && sh.sh_type == SHT_SYMTAB)) ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; !found && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *name = gelf_getsym(d, (int)i, &s)
				? elf_strptr(e, sh.sh_link, s.st_name) : NULL;
			found = name && !strcmp(name, "malloc") && s.st_shndx != SHN_UNDEF &&
				GELF_ST_TYPE(s.st_info) == STT_FUNC;
		}
	}
	if (e)
		elf_end(e);
	return found;
}

static int file_defines_malloc(const char *path, int all_tables)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0; /* replaced or removed since it was loaded: not known */
	int found = defines_malloc(fd, all_tables);
	close(fd);
	return found;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* The known allocator a library's file name says, or NULL. */
static const char *known(const char *path)
{
	static const char *const names[] = {"libjemalloc", "jemalloc", "libtcmalloc", "tcmalloc",
					    "libmimalloc", "mimalloc"};
	const char *b = base_name(path);
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i += 2)
		if (!strncmp(b, names[i], strlen(names[i])))
			return names[i + 1];
	return NULL;
}

/* One mapped file: 0 if glibc's malloc stays, else the error. */
static int check_file(pid_t pid, const char *path, int *libc)
{
	const char *b = base_name(path), *k = known(path);
	/* an attach's interposer forwards to glibc's malloc, and is off once
	 * detached; the one of LD_PRELOAD belongs to a recording */
	if (!strncmp(b, "libleakscope-attach", 19))
		return 0;
	if (!strncmp(b, "libleakscope", 12))
		return LK_ALLOCATOR_RECORDED;
	if (k)
		return lk_error_set(LK_EUSAGE, "pid %d uses %s (%s), not glibc's malloc: its heap "
				    "cannot be read", (int)pid, k, path);
	if (!strcmp(b, "libc.so.6")) {
		*libc = 1;
		return 0;
	}
	if (!strncmp(b, "ld-linux", 8))
		return 0;
	if (file_defines_malloc(path, 0))
		return lk_error_set(LK_EUSAGE, "pid %d uses the malloc of %s, not glibc's: its heap "
				    "cannot be read", (int)pid, path);
	return 0;
}

/* 1 if path was seen already (else remembered). */
static int seen(char **libs, size_t *n, const char *path)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(libs[i], path))
			return 1;
	if (*n < LIBS_MAX && (libs[*n] = strdup(path)))
		(*n)++;
	return 0;
}

/* Every file mapped but the executable. */
static int check_libraries(pid_t pid, const char *exe, int *libc)
{
	char path[64], line[4096];
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return lk_error_set(-errno, "cannot read the mappings of pid %d: %s", (int)pid,
				    strerror(errno));
	char **libs = calloc(LIBS_MAX, sizeof(*libs));
	size_t n = 0;
	int rc = libs ? 0 : -ENOMEM;
	struct lk_maps_line m;
	while (!rc && lk_maps_next(f, line, sizeof(line), &m)) {
		char *name = line + (m.name - line);
		name[strcspn(name, "\n")] = 0;
		if (*name != '/')
			continue;
		if (strcmp(name, exe) && !seen(libs, &n, name))
			rc = check_file(pid, name, libc);
		if (rc == LK_ALLOCATOR_RECORDED)
			break;
	}
	fclose(f);
	for (size_t i = 0; i < n; i++)
		free(libs[i]);
	free(libs);
	return rc;
}

int lk_allocator_check(pid_t pid)
{
	char path[64], exe[4096];
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	ssize_t len = readlink(path, exe, sizeof(exe) - 1);
	if (len < 0)
		return lk_error_set(errno == ENOENT ? LK_ENOTFOUND : -errno, "no process %d%s%s",
				    (int)pid, errno == ENOENT ? "" : ": ",
				    errno == ENOENT ? "" : strerror(errno));
	exe[len] = 0;
	if (file_defines_malloc(path, 1))
		return lk_error_set(LK_EUSAGE, "pid %d's executable (%s) defines its own malloc, not "
				    "glibc's: its heap cannot be read", (int)pid, exe);
	int libc = 0, rc = check_libraries(pid, exe, &libc);
	if (!rc && !libc)
		return lk_error_set(LK_EUSAGE, "pid %d is not linked with glibc's libc.so.6 (a static "
				    "program?): its heap cannot be read", (int)pid);
	return rc;
}
