/* buildid.c - read the GNU build id note of an ELF file (buildid.h). */
#include <errno.h>
#include <gelf.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "common/regfile.h"
#include "record/buildid.h"

/* The build id in the notes of one PT_NOTE segment, or 0. */
static int from_notes(Elf *e, const GElf_Phdr *ph, uint8_t *out, size_t cap)
{
	Elf_Data *d = elf_getdata_rawchunk(e, (int64_t)ph->p_offset, ph->p_filesz, ELF_T_NHDR);
	if (!d)
		return 0;
	GElf_Nhdr nh;
	size_t off = 0, name_off, desc_off, next;
	while ((next = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp((char *)d->d_buf + name_off, "GNU", 4)) {
			size_t n = nh.n_descsz < cap ? nh.n_descsz : cap;
			memcpy(out, (char *)d->d_buf + desc_off, n);
			return (int)n;
		}
		off = next;
	}
	return 0;
}

int lk_build_id(const char *path, uint8_t *out, size_t cap)
{
	elf_version(EV_CURRENT);
	int fd = lk_regfile_open(path); /* the traced program named it */
	if (fd < 0)
		return fd;
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	size_t n_ph = 0;
	int n = 0;
	if (e && elf_getphdrnum(e, &n_ph) == 0) {
		for (size_t i = 0; i < n_ph && n == 0; i++) {
			GElf_Phdr ph;
			if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_NOTE)
				n = from_notes(e, &ph, out, cap);
		}
	}
	if (!e)
		n = LK_EFORMAT;
	elf_end(e);
	close(fd);
	return n;
}
