/*
 * history_pprof.c - `leakscope report --format pprof`: the analysis of a
 * trace as a pprof profile (profile.proto, uncompressed), the format of Go
 * heap profiles, read by `go tool pprof` (top, list, its web UI's flame
 * graph) and speedscope. docs/formats.md says what each value means.
 *
 * One sample per allocation site; one mapping per module (marked as
 * symbolized: pprof looks for no binary); one location per distinct frame
 * address with its inlined frames as lines (innermost first, the function
 * they were inlined into last); one function per distinct (name, file).
 * Addresses without a symbol are named module+0xOFFSET.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/trace/history_report.h"
#include "report/idmap.h"
#include "report/trace/protobuf.h"

/* profile.proto field numbers */
enum {
	PROFILE_SAMPLE_TYPE = 1, PROFILE_SAMPLE = 2, PROFILE_MAPPING = 3, PROFILE_LOCATION = 4,
	PROFILE_FUNCTION = 5, PROFILE_STRING_TABLE = 6, PROFILE_TIME_NANOS = 9,
	PROFILE_DURATION_NANOS = 10, PROFILE_PERIOD_TYPE = 11, PROFILE_PERIOD = 12,
	PROFILE_COMMENT = 13, PROFILE_DEFAULT_SAMPLE_TYPE = 14,
	VALUE_TYPE_TYPE = 1, VALUE_TYPE_UNIT = 2,
	SAMPLE_LOCATION_ID = 1, SAMPLE_VALUE = 2,
	MAPPING_ID = 1, MAPPING_START = 2, MAPPING_LIMIT = 3, MAPPING_OFFSET = 4,
	MAPPING_FILENAME = 5, MAPPING_HAS_FUNCTIONS = 7, MAPPING_HAS_FILENAMES = 8,
	MAPPING_HAS_LINES = 9, MAPPING_HAS_INLINES = 10,
	LOCATION_ID = 1, LOCATION_MAPPING_ID = 2, LOCATION_ADDRESS = 3, LOCATION_LINE = 4,
	LINE_FUNCTION_ID = 1, LINE_LINE = 2,
	FUNCTION_ID = 1, FUNCTION_NAME = 2, FUNCTION_SYSTEM_NAME = 3, FUNCTION_FILENAME = 4,
};

/* The values of each sample, in this order (docs/formats.md). */
static const char *const sample_types[][2] = {
	{"alloc_objects", "count"}, {"alloc_space", "bytes"},
	{"peak_objects", "count"}, {"peak_space", "bytes"},
	{"inuse_objects", "count"}, {"inuse_space", "bytes"},
};
#define N_VALUES (sizeof(sample_types) / sizeof(sample_types[0]))
#define DEFAULT_TYPE 5            /* inuse_space, as for Go heap profiles */

struct writer {
	const struct lk_history *h;
	struct lk_pb out, msg, sub;
	struct lk_intern strings;     /* the string table */
	struct lk_idmap function_ids, location_ids;
	char **owned;             /* names made up here (module+0xOFFSET) */
	size_t n_owned;
};

static int same_string(const void *a, const void *b)
{
	return strcmp(a, b) == 0;
}

/* The index of s in the string table ("" for NULL). */
static int string_id(struct writer *w, const char *s, uint64_t *id)
{
	size_t k;
	if (!s)
		s = "";
	int rc = lk_intern(&w->strings, s, lk_idmap_hash_string(0, s), &k);
	*id = k;
	return rc;
}

static int function_id(struct writer *w, const struct lk_frame_text *f, uint64_t *id)
{
	const char *name = f->function;
	if (!name) {
		char *made;
		if (asprintf(&made, "%s+0x%" PRIx64, f->module ? f->module : "??", f->offset) < 0)
			return -ENOMEM;
		char **v = realloc(w->owned, (w->n_owned + 1) * sizeof(*v));
		if (!v) {
			free(made);
			return -ENOMEM;
		}
		w->owned = v;
		w->owned[w->n_owned++] = made;
		name = made;
	}
	uint64_t name_id, file_id;
	int rc;
	if ((rc = string_id(w, name, &name_id)) || (rc = string_id(w, f->file, &file_id)))
		return rc;
	size_t slot;
	uint64_t key = name_id << 32 | file_id;
	if ((*id = lk_idmap_find(&w->function_ids, key, &slot)))
		return 0;
	if ((rc = lk_idmap_add(&w->function_ids, key, slot)))
		return rc;
	*id = w->function_ids.n;
	lk_pb_clear(&w->msg);
	lk_pb_uint(&w->msg, FUNCTION_ID, *id);
	lk_pb_uint(&w->msg, FUNCTION_NAME, name_id);
	lk_pb_uint(&w->msg, FUNCTION_SYSTEM_NAME, name_id);
	lk_pb_uint(&w->msg, FUNCTION_FILENAME, file_id);
	lk_pb_message(&w->out, PROFILE_FUNCTION, &w->msg);
	return 0;
}

static void mapping(struct writer *w, size_t i, uint64_t name)
{
	const struct lk_symtab_module *m = &w->h->symtab.modules[i];
	uint64_t start = 0, limit = 0, offset = 0;
	for (size_t r = 0; r < m->n_ranges; r++) {
		if (r == 0 || m->ranges[r].start < start) {
			start = m->ranges[r].start;
			offset = m->ranges[r].file_offset;
		}
		limit = m->ranges[r].end > limit ? m->ranges[r].end : limit;
	}
	lk_pb_clear(&w->msg);
	lk_pb_uint(&w->msg, MAPPING_ID, i + 1);
	lk_pb_uint(&w->msg, MAPPING_START, start);
	lk_pb_uint(&w->msg, MAPPING_LIMIT, limit);
	lk_pb_uint(&w->msg, MAPPING_OFFSET, offset);
	lk_pb_uint(&w->msg, MAPPING_FILENAME, name);
	lk_pb_uint(&w->msg, MAPPING_HAS_FUNCTIONS, 1);
	lk_pb_uint(&w->msg, MAPPING_HAS_FILENAMES, 1);
	lk_pb_uint(&w->msg, MAPPING_HAS_LINES, 1);
	lk_pb_uint(&w->msg, MAPPING_HAS_INLINES, 1);
	lk_pb_message(&w->out, PROFILE_MAPPING, &w->msg);
}

/* Is module name the program's file (the first word of the command line)? */
static int is_program(const char *program, const char *name)
{
	size_t n = strcspn(program, " ");
	const char *base = program;
	for (const char *p = program; p < program + n; p++)
		if (*p == '/')
			base = p + 1;
	return name && strlen(name) == (size_t)(program + n - base) &&
	       strncmp(name, base, strlen(name)) == 0;
}

/* One mapping per module, id its index + 1 (a location's is that of its
 * module); the program's first, as pprof takes the first for the main
 * binary. */
static int mappings(struct writer *w)
{
	const struct lk_symtab *t = &w->h->symtab;
	const char *program = w->h->program ? w->h->program : "";
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < t->n_modules; i++) {
			if (is_program(program, t->modules[i].name) != !pass)
				continue;
			uint64_t name;
			int rc = string_id(w, t->modules[i].name, &name);
			if (rc)
				return rc;
			mapping(w, i, name);
		}
	}
	return 0;
}

/* The location of a frame address, written on first use. */
static int location_id(struct writer *w, uint64_t addr, uint64_t *id)
{
	size_t slot;
	if ((*id = lk_idmap_find(&w->location_ids, addr, &slot)))
		return 0;
	int rc = lk_idmap_add(&w->location_ids, addr, slot);
	if (rc)
		return rc;
	*id = w->location_ids.n;
	struct lk_frame_text *frames;
	size_t n;
	if ((rc = lk_symtab_resolve(&w->h->symtab, &addr, 1, &frames, &n)))
		return rc;
	const struct lk_symtab_module *m = lk_symtab_module_of(&w->h->symtab, addr);
	uint64_t fids[16], mapping = m ? (uint64_t)(m - w->h->symtab.modules) + 1 : 0;
	for (size_t i = 0; i < n && i < 16 && !rc; i++)
		rc = function_id(w, &frames[i], &fids[i]);
	if (!rc) {
		lk_pb_clear(&w->msg);
		lk_pb_uint(&w->msg, LOCATION_ID, *id);
		lk_pb_uint(&w->msg, LOCATION_MAPPING_ID, mapping);
		lk_pb_uint(&w->msg, LOCATION_ADDRESS, addr);
		for (size_t i = 0; i < n && i < 16; i++) {
			lk_pb_clear(&w->sub);
			lk_pb_uint(&w->sub, LINE_FUNCTION_ID, fids[i]);
			lk_pb_uint(&w->sub, LINE_LINE, frames[i].line > 0 ? (uint64_t)frames[i].line : 0);
			lk_pb_message(&w->msg, LOCATION_LINE, &w->sub);
		}
		lk_pb_message(&w->out, PROFILE_LOCATION, &w->msg);
	}
	free(frames);
	return rc;
}

/* The sample of one site: its stack, leaf first, and its values. */
static int sample(struct writer *w, const struct lk_hist_site *s, uint64_t **locs, size_t *cap)
{
	const uint64_t *addrs = lk_history_site_addrs(s);
	if (!addrs && s->n_addrs)
		return -ENOMEM;
	if (s->n_addrs > *cap) {
		uint64_t *v = realloc(*locs, s->n_addrs * sizeof(*v));
		if (!v)
			return -ENOMEM;
		*locs = v;
		*cap = s->n_addrs;
	}
	for (size_t i = 0; i < s->n_addrs; i++) {
		int rc = location_id(w, addrs[i], &(*locs)[i]);
		if (rc)
			return rc;
	}
	uint64_t values[N_VALUES] = {
		s->allocs, s->bytes_allocated, s->peak_count, s->peak_bytes,
		s->win_count + s->kept_count, s->win_bytes + s->kept_bytes,
	};
	lk_pb_clear(&w->msg);
	lk_pb_packed(&w->msg, SAMPLE_LOCATION_ID, *locs, s->n_addrs);
	lk_pb_packed(&w->msg, SAMPLE_VALUE, values, N_VALUES);
	lk_pb_message(&w->out, PROFILE_SAMPLE, &w->msg);
	return 0;
}

static int value_type(struct writer *w, uint32_t field, const char *type, const char *unit)
{
	uint64_t t, u;
	int rc;
	if ((rc = string_id(w, type, &t)) || (rc = string_id(w, unit, &u)))
		return rc;
	lk_pb_clear(&w->msg);
	lk_pb_uint(&w->msg, VALUE_TYPE_TYPE, t);
	lk_pb_uint(&w->msg, VALUE_TYPE_UNIT, u);
	lk_pb_message(&w->out, field, &w->msg);
	return 0;
}

static int header(struct writer *w)
{
	uint64_t id;
	int rc = string_id(w, "", &id);
	for (size_t i = 0; i < N_VALUES && !rc; i++)
		rc = value_type(w, PROFILE_SAMPLE_TYPE, sample_types[i][0], sample_types[i][1]);
	if (!rc)
		rc = value_type(w, PROFILE_PERIOD_TYPE, "space", "bytes");
	if (!rc)
		rc = mappings(w);
	if (!rc)
		rc = string_id(w, w->h->program, &id);
	if (rc)
		return rc;
	lk_pb_uint(&w->out, PROFILE_COMMENT, id);
	lk_pb_uint(&w->out, PROFILE_PERIOD, 1);
	lk_pb_uint(&w->out, PROFILE_TIME_NANOS, w->h->meta.start_ns);
	uint64_t tick = w->h->meta.tick_ns ? w->h->meta.tick_ns : 1000;
	lk_pb_uint(&w->out, PROFILE_DURATION_NANOS, w->h->t_end * tick);
	if ((rc = string_id(w, sample_types[DEFAULT_TYPE][0], &id)))
		return rc;
	lk_pb_uint(&w->out, PROFILE_DEFAULT_SAMPLE_TYPE, id);
	return 0;
}

static int body(struct writer *w)
{
	uint64_t *locs = NULL;
	size_t cap = 0;
	int rc = header(w);
	for (size_t i = 0; i < w->h->n_sites && !rc; i++) {
		const struct lk_hist_site *s = &w->h->sites[i];
		if (s->allocs || s->peak_count || s->win_count || s->kept_count)
			rc = sample(w, s, &locs, &cap);
	}
	free(locs);
	for (size_t i = 0; i < w->strings.n && !rc; i++)
		lk_pb_bytes(&w->out, PROFILE_STRING_TABLE, w->strings.items[i],
			    strlen(w->strings.items[i]));
	if (!rc && (w->out.failed || w->msg.failed || w->sub.failed))
		rc = -ENOMEM;
	return rc;
}

int lk_history_write_pprof(const struct lk_history *h, FILE *out)
{
	struct writer w = {.h = h};
	int rc = lk_intern_init(&w.strings, same_string);
	if (!rc)
		rc = lk_idmap_init(&w.function_ids);
	if (!rc)
		rc = lk_idmap_init(&w.location_ids);
	if (!rc)
		rc = body(&w);
	if (!rc && fwrite(w.out.b, 1, w.out.len, out) != w.out.len)
		rc = -EIO;
	lk_pb_release(&w.out);
	lk_pb_release(&w.msg);
	lk_pb_release(&w.sub);
	lk_intern_release(&w.strings);
	lk_idmap_release(&w.function_ids);
	lk_idmap_release(&w.location_ids);
	for (size_t i = 0; i < w.n_owned; i++)
		free(w.owned[i]);
	free(w.owned);
	return rc;
}
