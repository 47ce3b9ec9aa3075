/* elfsym.c - named symbols of an ELF file (elfsym.h). */
#include <gelf.h>
#include <string.h>
#include <unistd.h>

#include "collector/elfsym.h"
#include "common/regfile.h"

static size_t match_table(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh, const char *const *names,
			  uint64_t *out, size_t n, size_t found)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d || !sh->sh_entsize)
		return found;
	for (size_t i = 0; i < sh->sh_size / sh->sh_entsize && found < n; i++) {
		GElf_Sym sym;
		const char *name = gelf_getsym(d, (int)i, &sym)
			? elf_strptr(e, sh->sh_link, sym.st_name) : NULL;
		if (!name || !*name)
			continue;
		for (size_t k = 0; k < n; k++)
			if (!out[k] && !strcmp(name, names[k])) {
				out[k] = sym.st_value;
				found++;
				break;
			}
	}
	return found;
}

size_t lk_elf_symbols(const char *path, const char *const *names, uint64_t *out, size_t n)
{
	size_t found = 0;
	memset(out, 0, n * sizeof(*out));
	int fd = path ? lk_regfile_open(path) : -1;
	if (fd < 0 || elf_version(EV_CURRENT) == EV_NONE)
		goto out;
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	for (Elf_Scn *scn = NULL; e && found < n && (scn = elf_nextscn(e, scn));) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			found = match_table(e, scn, &sh, names, out, n, found);
	}
	if (e)
		elf_end(e);
out:
	if (fd >= 0)
		close(fd);
	return found;
}
