/* maps.c - /proc/PID/maps, line by line (maps.h). */
#include <inttypes.h>
#include <string.h>

#include "collector/maps.h"

int lk_maps_next(FILE *f, char *buf, size_t size, struct lk_maps_line *m)
{
	while (fgets(buf, (int)size, f)) {
		if (!strchr(buf, '\n'))
			for (int ch = getc(f); ch != EOF && ch != '\n'; ch = getc(f))
				;
		int name_at = 0;
		m->perms[0] = 0;
		if (sscanf(buf, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*s %*s %n", &m->lo,
			   &m->hi, m->perms, &m->offset, &name_at) < 4)
			continue;
		m->name = buf + (name_at ? name_at : (int)strlen(buf));
		return 1;
	}
	return 0;
}
