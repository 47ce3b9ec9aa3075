/*
 * gen_fixture.c - write an HTML report of a synthetic timeline, for the
 * browser test (tests/cli/450-html-browser.sh, tests/browser/check.mjs).
 *
 *   gen_fixture ipe OUT.html     80 IPE-like bands, 120 samples: one clearly
 *                                growing band "leaky_accumulator", one flat
 *                                band "flat_constant", detail columns,
 *                                markers, heap series, a warning
 *   gen_fixture native OUT.html  allocation-site bands with stacks
 *   gen_fixture big OUT.html     10,000 bands x 5,000 samples
 *
 * Built against build/libcore.a like the unit tests.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "../support/timeline_fixture.h"

static unsigned long long rng = 88172645463325252ull;

static double rnd(void) /* 0..1, deterministic */
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

static void add_meta(struct lk_timeline *tl, const char *k, const char *v)
{
	tl->meta = realloc(tl->meta, sizeof(*tl->meta) * (tl->n_meta + 1));
	tl->meta[tl->n_meta] = (struct lk_meta){.key = fx_str(k), .value = fx_str(v)};
	tl->n_meta++;
}

static void add_series(struct lk_timeline *tl, const char *name, double base, double growth, double wobble)
{
	struct lk_series *se;

	tl->series = realloc(tl->series, sizeof(*tl->series) * (tl->n_series + 1));
	se = &tl->series[tl->n_series++];
	se->name = fx_str(name);
	se->n = tl->n_samples;
	se->times = fx_alloc(sizeof(double) * se->n);
	se->values = fx_alloc(sizeof(double) * se->n);
	for (size_t i = 0; i < se->n; i++) {
		se->times[i] = tl->times[i];
		se->values[i] = base + growth * tl->times[i] + wobble * sin(i / 3.0);
	}
}

static void add_marker(struct lk_timeline *tl, double t, const char *text)
{
	tl->markers = realloc(tl->markers, sizeof(*tl->markers) * (tl->n_markers + 1));
	tl->markers[tl->n_markers].t = t;
	tl->markers[tl->n_markers].text = fx_str(text);
	tl->n_markers++;
}

static void frame(struct lk_frame_text *f, const char *fn, const char *file, int line,
		  const char *mod, unsigned long long off)
{
	f->function = fx_str(fn);
	f->file = fx_str(file);
	f->line = line;
	f->module = fx_str(mod);
	f->offset = off;
}

static void base(struct lk_timeline *tl, const char *title, size_t n_samples, double dt, size_t n_bands)
{
	memset(tl, 0, sizeof(*tl));
	tl->title = fx_str(title);
	tl->n_samples = n_samples;
	tl->times = fx_alloc(sizeof(double) * n_samples);
	for (size_t i = 0; i < n_samples; i++)
		tl->times[i] = dt * (double)(i + 1);
	tl->n_bands = n_bands;
	tl->bands = fx_alloc(sizeof(*tl->bands) * n_bands);
	for (size_t b = 0; b < n_bands; b++)
		tl->bands[b].values = fx_alloc(sizeof(double) * n_samples);
}

static void ipe(struct lk_timeline *tl)
{
	static const char *cols[] = { "description", "closure type", "type", "module", "location" };
	static const char *ctys[] = { "CONSTR_2_0", "THUNK", "FUN", "CONSTR_1_1", "ARR_WORDS" };
	static const char *mods[] = { "Data.Map.Internal", "Main", "Network.HTTP.Server", "Data.Text.Internal", "GHC.Base" };
	size_t n = 120;

	base(tl, "synthetic leaky service", n, 0.1, 80);
	add_meta(tl, "program", "leaky-service +RTS -hi -i0.1 -l");
	add_meta(tl, "rts", "GHC 9.6.3, rts_thr");
	add_meta(tl, "start", "2024-05-02 10:31:07");
	add_meta(tl, "breakdown", "info table (-hi)");
	add_meta(tl, "interval", "0.1 s");
	tl->n_detail_columns = 5;
	tl->detail_columns = fx_alloc(sizeof(char *) * 5);
	for (int c = 0; c < 5; c++)
		tl->detail_columns[c] = fx_str(cols[c]);
	for (size_t b = 0; b < tl->n_bands; b++) {
		struct lk_band *bd = &tl->bands[b];
		double size = 4e6 / (1.0 + (double)b * 0.35), phase = rnd() * 6;
		const char *mod = mods[b % 5];

		bd->id = fx_fmt("0x%zx", 0x4a7c00 + b * 0x28);
		bd->details = fx_alloc(sizeof(char *) * 5);
		if (b == 0) {
			bd->label = fx_str("leaky_accumulator");
			bd->details[0] = fx_str("accumulate.go");
			bd->details[1] = fx_str("THUNK");
			bd->details[2] = fx_str("[Request]");
			bd->details[3] = fx_str("Main");
			bd->details[4] = fx_str("app/Main.hs:88:14-52");
			for (size_t i = 0; i < n; i++)
				bd->values[i] = 60e3 * (double)i * 1.02 + 2e4 * rnd();
		} else if (b == 1) {
			bd->label = fx_str("flat_constant");
			bd->details[0] = fx_str("config");
			bd->details[1] = fx_str("CONSTR_2_0");
			bd->details[2] = fx_str("Config");
			bd->details[3] = fx_str("Main.Config");
			bd->details[4] = fx_str("app/Config.hs:12:1-40");
			for (size_t i = 0; i < n; i++)
				bd->values[i] = 3.5e6;
		} else {
			bd->label = fx_fmt("%s.%s_%zu", mod, b % 3 ? "Bin" : "go", b);
			bd->details[0] = fx_fmt("%s_%zu", b % 3 ? "Bin" : "go", b);
			bd->details[1] = fx_str(ctys[b % 5]);
			bd->details[2] = fx_str(b % 2 ? "Map Text Int" : "Text");
			bd->details[3] = fx_str(mod);
			bd->details[4] = b % 7 == 0 ? NULL : fx_fmt("src/%s.hs:%zu:3-30", mod, 100 + b);
			for (size_t i = 0; i < n; i++)
				bd->values[i] = size * (1 + 0.45 * sin((double)i / 9 + phase)) * (0.9 + 0.2 * rnd());
		}
	}
	add_series(tl, "heap size", 160e6, 8e6, 1e6);
	add_series(tl, "blocks size", 120e6, 7e6, 3e6);
	add_series(tl, "live bytes", 70e6, 6e6, 6e6);
	add_marker(tl, 4.0, "start phase 2");
	add_marker(tl, 8.0, "checkpoint");
	tl->n_warnings = 1;
	tl->warnings = fx_alloc(sizeof(char *));
	tl->warnings[0] = fx_str("eventlog ends inside a block at offset 1843200; the last samples may be missing");
}

static void native(struct lk_timeline *tl)
{
	size_t n = 200;

	base(tl, "native: ./victim-grow", n, 0.05, 6);
	add_meta(tl, "program", "./victim-grow --iterations 2000");
	add_meta(tl, "breakdown", "allocation site");
	add_meta(tl, "interval", "50 ms");
	for (size_t b = 0; b < tl->n_bands; b++) {
		struct lk_band *bd = &tl->bands[b];

		bd->id = fx_fmt("site %zu", b + 1);
		bd->n_frames = 3;
		bd->frames = fx_alloc(sizeof(*bd->frames) * 3);
		if (b == 0) {
			bd->label = fx_str("grow_cache (cache.c:41)");
			frame(&bd->frames[0], "grow_cache", "src/cache.c", 41, "victim-grow", 0x1189);
			frame(&bd->frames[1], "handle_request", "src/server.c", 120, "victim-grow", 0x1302);
		} else {
			bd->label = fx_fmt("std::vector<int>::_M_realloc_insert (site %zu)", b + 1);
			frame(&bd->frames[0], "std::vector<int, std::allocator<int> >::_M_realloc_insert<int const&>",
			      "/usr/include/c++/12/bits/vector.tcc", 440, "victim-grow", 0x2000 + b);
			frame(&bd->frames[1], NULL, NULL, 0, "libfoo.so.1", 0x7d3a0 + b);
			bd->frames[1].inlined = 0;
		}
		frame(&bd->frames[2], "main", "src/main.c", 17, "victim-grow", 0x1050);
		for (size_t i = 0; i < n; i++)
			bd->values[i] = b == 0 ? 4096.0 * (double)i : 2e5 / (b + 1) * (1 + 0.3 * sin(i / 10.0 + b));
	}
	add_series(tl, "rss", 8e6, 2e5, 1e5);
	add_series(tl, "live bytes", 2e6, 8e4, 5e4);
	add_marker(tl, 5.0, "cache warm");
}

int main(int argc, char **argv)
{
	struct lk_timeline tl;
	double *pat = NULL;
	FILE *out;
	int rc;

	if (argc != 3) {
		fprintf(stderr, "usage: gen_fixture ipe|native|big OUT.html\n");
		return 2;
	}
	if (strcmp(argv[1], "ipe") == 0)
		ipe(&tl);
	else if (strcmp(argv[1], "native") == 0)
		native(&tl);
	else if (strcmp(argv[1], "big") == 0)
		fx_big(&tl, 10000, 5000, &pat);
	else {
		fprintf(stderr, "gen_fixture: unknown fixture '%s'\n", argv[1]);
		return 2;
	}
	if (!pat)
		fx_finish(&tl);
	if (!(out = fopen(argv[2], "w"))) {
		perror(argv[2]);
		return 1;
	}
	rc = lk_timeline_write_html(&tl, out);
	if (fclose(out) != 0 && rc == 0)
		rc = -5;
	fx_free(&tl, pat != NULL);
	free(pat);
	if (rc < 0) {
		fprintf(stderr, "gen_fixture: cannot write '%s': error %d\n", argv[2], rc);
		return 1;
	}
	return 0;
}
