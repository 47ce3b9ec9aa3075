/*
 * hp_test.c - the .hp heap profile reader (eventlog/hp.h) on small texts:
 * censuses, bands and values, the empty samples around the censuses, a
 * band's name with spaces, sums, markers, units, cut and damaged files.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "eventlog/hp.h"
#include "tap.h"

static int read_text(const char *text, struct lk_timeline *tl, struct lk_profile_stats *st)
{
	FILE *f = fmemopen((void *)text, strlen(text), "rb");
	int rc = lk_hp_read(f, tl, st);
	fclose(f);
	return rc;
}

static const struct lk_band *band(const struct lk_timeline *tl, const char *id)
{
	for (size_t k = 0; k < tl->n_bands; k++)
		if (strcmp(tl->bands[k].id, id) == 0)
			return &tl->bands[k];
	return NULL;
}

static const char *meta(const struct lk_timeline *tl, const char *key)
{
	for (size_t i = 0; i < tl->n_meta; i++)
		if (strcmp(tl->meta[i].key, key) == 0)
			return tl->meta[i].value;
	return NULL;
}

static void test_censuses(void)
{
	struct lk_timeline tl;
	struct lk_profile_stats st;
	int rc = read_text("JOB \"./prog +RTS -hT\"\nDATE \"Fri Nov 27 16:35 2026\"\n"
			   "SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n"
			   "BEGIN_SAMPLE 0.000000\nEND_SAMPLE 0.000000\n"
			   "BEGIN_SAMPLE 0.5\nTHUNK\t100\nghc-prim:GHC.Tuple.(,) a\t24\nEND_SAMPLE 0.5\n"
			   "MARK 0.7\n\n"
			   "BEGIN_SAMPLE 1.0\nEND_SAMPLE 1.0\n"
			   "BEGIN_SAMPLE 1.5\r\nTHUNK\t300\r\nTHUNK 50\r\nEND_SAMPLE 1.5\r\n"
			   "BEGIN_SAMPLE 2.0\nEND_SAMPLE 2.0\n", &tl, &st);
	ok(rc == 0 && st.data_error == 0, "a whole file is read (%d)", rc);
	ok(tl.n_warnings == 0, "without warnings (%zu)", tl.n_warnings);
	ok(tl.n_samples == 3, "the empty samples first and last are left out, the middle one kept (%zu)",
	   tl.n_samples);
	ok(tl.n_samples == 3 && tl.times[0] == 0.5 && tl.times[1] == 1.0 && tl.times[2] == 1.5,
	   "at their times");
	const struct lk_band *t = band(&tl, "THUNK"), *p = band(&tl, "ghc-prim:GHC.Tuple.(,) a");
	ok(t && t->values[0] == 100 && t->values[1] == 0 && t->values[2] == 350,
	   "THUNK: 100, 0 in the empty census, 300 + 50 (without a tab: the last word)");
	ok(p && p->values[0] == 24 && p->values[2] == 0, "a band's name holds spaces and parentheses");
	ok(tl.n_bands == 2 && strcmp(tl.bands[0].id, "THUNK") == 0, "ranked by integrated size");
	ok(tl.n_markers == 1 && tl.markers[0].t == 0.7 && strcmp(tl.markers[0].text, "") == 0,
	   "MARK: a marker without text");
	ok(meta(&tl, "program") && strcmp(meta(&tl, "program"), "./prog +RTS -hT") == 0 &&
	   tl.title && strcmp(tl.title, "prog") == 0, "JOB: program, and the title its file name");
	ok(meta(&tl, "start") && strcmp(meta(&tl, "start"), "Fri Nov 27 16:35 2026") == 0,
	   "DATE: start, as written");
	ok(meta(&tl, "censuses") && strcmp(meta(&tl, "censuses"), "3") == 0, "censuses: 3");
	lk_timeline_release(&tl);
}

static void test_cut(void)
{
	struct lk_timeline tl;
	struct lk_profile_stats st;
	int rc = read_text("JOB \"p\"\nBEGIN_SAMPLE 1\na\t10\nEND_SAMPLE 1\n"
			   "BEGIN_SAMPLE 2\na\t20\nb\t5\nEND_SAMPLE 2\nBEGIN_SAMPLE 3\na\t30\nb\t1", &tl, &st);
	ok(rc == 0 && st.data_error == 0, "a cut file is read");
	ok(tl.n_samples == 2, "the cut census is left out (%zu)", tl.n_samples);
	ok(tl.n_warnings == 1 && strstr(tl.warnings[0], "census at 3.000 s is incomplete "
					"(the file ends before its end)"), "with a warning: %s",
	   tl.n_warnings ? tl.warnings[0] : "none");
	lk_timeline_release(&tl);
}

static void test_damage(void)
{
	struct lk_timeline tl;
	struct lk_profile_stats st;
	int rc = read_text("JOB \"p\"\nBEGIN_SAMPLE 1\na\t10\nEND_SAMPLE 1\n"
			   "BEGIN_SAMPLE 2\na\t20\na\t2x\nEND_SAMPLE 2\nBEGIN_SAMPLE 3\na\t30\nEND_SAMPLE 3\n",
			   &tl, &st);
	ok(rc == 0 && st.data_error == LK_EFORMAT, "a bad line: what came before (%d, %d)", rc,
	   st.data_error);
	ok(tl.n_samples == 1, "the census before it (%zu)", tl.n_samples);
	ok(tl.n_warnings == 2 &&
	   strcmp(tl.warnings[0], "line 7: expected 'band<TAB>bytes' or END_SAMPLE, found 'a\\x092x'") == 0,
	   "the line and what was expected: %s", tl.n_warnings ? tl.warnings[0] : "none");
	ok(strcmp(lk_error_detail(), tl.warnings[0]) == 0, "the detail for the caller's message");
	lk_timeline_release(&tl);

	rc = read_text("JOB \"p\"\nSAMPLE_UNIT \"ticks\"\nBEGIN_SAMPLE 1\na\t10\nEND_SAMPLE 1\n", &tl,
		       &st);
	ok(rc == 0 && tl.n_warnings == 1 &&
	   strcmp(tl.warnings[0], "line 2: SAMPLE_UNIT \"ticks\", read as seconds") == 0,
	   "another unit: a warning (%s)", tl.n_warnings ? tl.warnings[0] : "none");
	lk_timeline_release(&tl);

	static const char *const refused[] = {"", "JOB", "JOBS \"x\"\n", "JOB x\n", "hdrb\0\0",
					      "J\0B \"x\"\n"};
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		rc = read_text(refused[i], &tl, &st);
		ok(rc == LK_EFORMAT && tl.n_bands == 0 && tl.meta == NULL,
		   "no .hp file: refused (%zu: %s)", i, lk_error_detail());
	}
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	test_censuses();
	test_cut();
	test_damage();
	return tap_done();
}
