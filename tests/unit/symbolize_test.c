/*
 * symbolize_test.c - the symbolizer on real objects built here with the
 * system compiler: inlined frames and lines through a .gnu_debuglink'd debug
 * file, a stripped object (module, offset, .dynsym, zero-size symbol), Go and
 * C code of a cgo program (when go is installed), the machine's libc, errors,
 * the cache, and the time for 10,000 libc addresses.
 */
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <elfutils/libdwfl.h>

#include "common/error.h"
#include "collector/symbolize.h"

#define MAXF 16

static int checks;

#define CHECK(cond, ...) do { \
	checks++; \
	if (!(cond)) { \
		printf("FAIL (%s:%d): %s: ", __FILE__, __LINE__, #cond); \
		printf(__VA_ARGS__); \
		printf("\n"); \
		exit(1); \
	} \
} while (0)

static const char victim_src[] =
	"/* victim.c - a call site inside two levels of inlining. */\n"
	"volatile long lk_counter;\n"
	"void *lk_last_ra;\n"
	"\n"
	"__attribute__((noipa)) long ext_call(long n)\n"
	"{\n"
	"	lk_last_ra = __builtin_return_address(0);\n"
	"	return n + lk_counter;\n"
	"}\n"
	"\n"
	"static inline __attribute__((always_inline)) long inner(long n)\n"
	"{\n"
	"	long r = ext_call(n + 1); /* @INNER */\n"
	"	return r * 7 + lk_counter;\n"
	"}\n"
	"\n"
	"static inline __attribute__((always_inline)) long mid(long n)\n"
	"{\n"
	"	long r = inner(n * 2); /* @MID */\n"
	"	return r + 3 * lk_counter;\n"
	"}\n"
	"\n"
	"long outer(long n)\n"
	"{\n"
	"	long r = mid(n); /* @OUTER */\n"
	"	return r + lk_counter;\n"
	"}\n";

/* Zero-size symbol (no .size), as GHC and Go emit them. */
static const char plain_src[] =
	"__asm__(\".text\\n.globl Main_zdwgo_info\\n.type Main_zdwgo_info,@function\\n\"\n"
	"	\"Main_zdwgo_info:\\n nop\\n nop\\n nop\\n nop\\n nop\\n nop\\n nop\\n ret\\n\");\n"
	"long plain_func(long x) { return x * 3 + 1; }\n";

/* A cgo program: Go's compile units are not in .debug_aranges, the C ones
 * are, and the external linker puts a C unit's .cold code below all Go code. */
static const char cgo_go_src[] =
	"package main\n"
	"\n"
	"/*\n"
	"#include <stdlib.h>\n"
	"void *lk_c_alloc(int n);\n"
	"*/\n"
	"import \"C\"\n"
	"\n"
	"//go:noinline\n"
	"func goAlloc(n int) { /* @GOALLOC */\n"
	"	C.free(C.lk_c_alloc(C.int(n)))\n"
	"}\n"
	"\n"
	"func main() { /* @MAIN */\n"
	"	for i := 0; i < 3; i++ {\n"
	"		goAlloc(i + 16)\n"
	"	}\n"
	"} /* @MAINEND */\n";

static const char cgo_c_src[] =
	"#include <stdlib.h>\n"
	"\n"
	"void *lk_c_alloc(int n) /* @CALLOC */\n"
	"{\n"
	"	return malloc((size_t)n * 2);\n"
	"} /* @CALLOCEND */\n";

static int line_of(const char *src, const char *marker)
{
	const char *p = strstr(src, marker);
	int line = 1;
	for (const char *q = src; q < p; q++)
		line += *q == '\n';
	return line;
}

static const char *base(const char *p)
{
	const char *s = p ? strrchr(p, '/') : NULL;
	return s ? s + 1 : p;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	CHECK(f != NULL, "cannot write %s", path);
	fputs(text, f);
	fclose(f);
}

static void run(const char *cmd)
{
	printf("$ %s\n", cmd);
	CHECK(system(cmd) == 0, "command failed");
}

static void print_frames(const struct lk_frame_text *f, int n)
{
	for (int i = 0; i < n; i++)
		printf("    #%d %s %s:%d [%s+0x%llx]%s\n", i, f[i].function ? f[i].function : "??",
		       f[i].file ? base(f[i].file) : "??", f[i].line, f[i].module,
		       (unsigned long long)f[i].offset, f[i].inlined ? " (inlined)" : "");
}

static void release(struct lk_frame_text *f, int n)
{
	for (int i = 0; i < n; i++)
		lk_frame_text_release(&f[i]);
}

static void *open_lib(const char *path, struct link_map **lm)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	CHECK(h != NULL, "dlopen %s: %s", path, dlerror());
	CHECK(dlinfo(h, RTLD_DI_LINKMAP, lm) == 0, "dlinfo");
	return h;
}

static void test_inlined(struct lk_symbolizer *s, const char *dir)
{
	char path[512], cmd[2048];
	struct lk_frame_text f[MAXF], g[MAXF];
	struct link_map *lm;

	printf("-- inlined frames through a debuglink'd file in .debug/\n");
	snprintf(path, sizeof(path), "%s/victim.c", dir);
	write_file(path, victim_src);
	snprintf(cmd, sizeof(cmd),
		 "cd %s && cc -g -O2 -fPIC -shared -o libvictim.so victim.c && mkdir -p .debug"
		 " && objcopy --only-keep-debug libvictim.so .debug/libvictim.so.debug"
		 " && objcopy --strip-all --add-gnu-debuglink=.debug/libvictim.so.debug libvictim.so"
		 " && ! readelf -S libvictim.so | grep -q debug_info", dir);
	run(cmd);

	snprintf(path, sizeof(path), "%s/libvictim.so", dir);
	void *h = open_lib(path, &lm);
	long (*outer)(long) = (long (*)(long))dlsym(h, "outer");
	void **ra = dlsym(h, "lk_last_ra");
	CHECK(outer && ra, "dlsym");
	outer(5);
	uint64_t ip = (uint64_t)(uintptr_t)*ra;
	printf("  return address %#llx, bias %#llx\n", (unsigned long long)ip,
	       (unsigned long long)lm->l_addr);

	int n = lk_symbolize(s, path, lm->l_addr, ip, f, MAXF);
	CHECK(n == 3, "want 3 frames, got %d (%s)", n, n < 0 ? lk_error_name(n) : "");
	print_frames(f, n);
	const char *want_fn[3] = {"inner", "mid", "outer"};
	int want_line[3] = {line_of(victim_src, "@INNER"), line_of(victim_src, "@MID"),
			    line_of(victim_src, "@OUTER")};
	for (int i = 0; i < 3; i++) {
		CHECK(f[i].function && strcmp(f[i].function, want_fn[i]) == 0,
		      "frame %d: want %s", i, want_fn[i]);
		CHECK(f[i].file && strcmp(base(f[i].file), "victim.c") == 0, "frame %d file", i);
		CHECK(f[i].line == want_line[i], "frame %d: want line %d, got %d", i,
		      want_line[i], f[i].line);
		CHECK(strcmp(f[i].module, "libvictim.so") == 0, "frame %d module", i);
		CHECK(f[i].offset == ip - lm->l_addr, "frame %d offset", i);
		CHECK(f[i].inlined == (i < 2), "frame %d inlined flag", i);
	}
	printf("  ok: inner:%d <- mid:%d <- outer:%d\n", want_line[0], want_line[1], want_line[2]);

	/* cached: same answer, independent copies */
	int n2 = lk_symbolize(s, path, lm->l_addr, ip, g, MAXF);
	CHECK(n2 == 3 && g[0].function != f[0].function && strcmp(g[0].function, "inner") == 0
	      && g[2].line == f[2].line, "cached result differs");
	release(g, n2);
	/* the same file at another bias gives the same frames */
	n2 = lk_symbolize(s, path, lm->l_addr + 0x10000, ip + 0x10000, g, MAXF);
	CHECK(n2 == 3 && strcmp(g[1].function, "mid") == 0 && g[1].line == f[1].line
	      && g[1].offset == f[1].offset, "other bias differs");
	release(g, n2);
	printf("  ok: cached and rebased lookups agree\n");

	/* max smaller than the chain: the innermost frames go */
	n2 = lk_symbolize(s, path, lm->l_addr, ip, g, 1);
	CHECK(n2 == 1 && strcmp(g[0].function, "outer") == 0 && !g[0].inlined
	      && g[0].line == want_line[2], "max=1 must give the real function");
	release(g, n2);
	printf("  ok: max=1 keeps the real function\n");

	/* the noipa callee, not inlined: one frame */
	void *ext = dlsym(h, "ext_call");
	n2 = lk_symbolize(s, path, lm->l_addr, (uint64_t)(uintptr_t)ext + 1, g, MAXF);
	CHECK(n2 == 1 && strcmp(g[0].function, "ext_call") == 0 && !g[0].inlined
	      && g[0].line >= 5 && g[0].line <= 7, "ext_call");
	print_frames(g, n2);
	release(g, n2);
	release(f, n);
	dlclose(h);
}

static void test_stripped(struct lk_symbolizer *s, const char *dir)
{
	char path[512], cmd[2048];
	struct lk_frame_text f[MAXF];
	struct link_map *lm;

	printf("-- stripped object without debug info\n");
	snprintf(path, sizeof(path), "%s/plain.c", dir);
	write_file(path, plain_src);
	snprintf(cmd, sizeof(cmd),
		 "cd %s && cc -O2 -fPIC -shared -o libplain.so plain.c && strip --strip-all libplain.so"
		 " && ! readelf -S libplain.so | grep -q -e symtab -e debug_info"
		 " && readelf --dyn-syms -W libplain.so | grep -q ' 0 FUNC .*Main_zdwgo_info'", dir);
	run(cmd);
	snprintf(path, sizeof(path), "%s/libplain.so", dir);
	void *h = open_lib(path, &lm);

	char *fn = dlsym(h, "plain_func");
	uint64_t ip = (uint64_t)(uintptr_t)fn + 1;
	int n = lk_symbolize(s, path, lm->l_addr, ip, f, MAXF);
	print_frames(f, n > 0 ? n : 0);
	CHECK(n == 1, "got %d", n);
	CHECK(f[0].function && strcmp(f[0].function, "plain_func") == 0, "dynsym name");
	CHECK(f[0].file == NULL && f[0].line == 0, "no file");
	CHECK(strcmp(f[0].module, "libplain.so") == 0, "module");
	CHECK(f[0].offset == ip - lm->l_addr, "offset");
	release(f, n);

	/* zero-size symbol: nearest preceding in the section, demangled */
	char *z = dlsym(h, "Main_zdwgo_info");
	ip = (uint64_t)(uintptr_t)z + 5;
	n = lk_symbolize(s, path, lm->l_addr, ip, f, MAXF);
	print_frames(f, n > 0 ? n : 0);
	CHECK(n == 1 && f[0].function && strcmp(f[0].function, "Main.$wgo") == 0,
	      "zero-size symbol");
	release(f, n);

	/* an address no symbol covers: module and offset only */
	ip = lm->l_addr + 0x10; /* the ELF header */
	n = lk_symbolize(s, path, lm->l_addr, ip, f, MAXF);
	print_frames(f, n > 0 ? n : 0);
	CHECK(n == 1 && f[0].function == NULL && f[0].offset == 0x10
	      && strcmp(f[0].module, "libplain.so") == 0, "no symbol");
	release(f, n);
	printf("  ok: .dynsym name, zero-size symbol, module+offset\n");
	dlclose(h);
}

/* The ELF symbol name of path: its address and size; 0 if absent. */
static uint64_t sym_addr(const char *path, const char *name, uint64_t *size)
{
	static const Dwfl_Callbacks cb = {
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.section_address = dwfl_offline_section_address,
	};
	Dwfl *d = dwfl_begin(&cb);
	uint64_t addr = 0;

	dwfl_report_begin(d);
	Dwfl_Module *m = dwfl_report_elf(d, "x", path, -1, 0, false);
	dwfl_report_end(d, NULL, NULL);
	int n = m ? dwfl_module_getsymtab(m) : -1;
	for (int i = 1; i < n && !addr; i++) {
		GElf_Sym sym;
		GElf_Addr a;
		const char *s = dwfl_module_getsym_info(m, i, &sym, &a, NULL, NULL, NULL);
		if (s && strcmp(s, name) == 0 && GELF_ST_TYPE(sym.st_info) == STT_FUNC) {
			addr = a;
			*size = sym.st_size;
		}
	}
	dwfl_end(d);
	return addr;
}

static void test_cgo(const char *dir)
{
	char path[512], cmd[2048];
	struct lk_frame_text f[MAXF];
	struct lk_symbolizer *s;

	printf("-- Go and C code of a cgo program\n");
	if (system("command -v go >/dev/null && go version >/dev/null 2>&1") != 0) {
		printf("  skip: go is not installed\n");
		return;
	}
	snprintf(path, sizeof(path), "%s/cgo", dir);
	CHECK(mkdir(path, 0755) == 0, "mkdir %s", path);
	snprintf(path, sizeof(path), "%s/cgo/go.mod", dir);
	write_file(path, "module lkcgo\n\ngo 1.19\n");
	snprintf(path, sizeof(path), "%s/cgo/main.go", dir);
	write_file(path, cgo_go_src);
	snprintf(path, sizeof(path), "%s/cgo/calloc.c", dir);
	write_file(path, cgo_c_src);
	snprintf(cmd, sizeof(cmd),
		 "cd %s/cgo && env GOCACHE=%s/gocache GOPATH=%s/gopath GOFLAGS=-mod=mod"
		 " GOPROXY=off GO111MODULE=on GOENV=off CGO_ENABLED=1"
		 " go build -ldflags=-linkmode=external -o cgoprog .", dir, dir, dir);
	run(cmd);
	snprintf(path, sizeof(path), "%s/cgo/cgoprog", dir);
	CHECK(lk_symbolizer_new(&s) == 0, "new");

	/* Go: main.main and goAlloc, a few bytes in (bias 0: ELF addresses) */
	struct { const char *sym, *fn, *file, *from, *to; } want[] = {
		{"main.main", "main.main", "main.go", "@MAIN", "@MAINEND"},
		{"main.goAlloc", "main.goAlloc", "main.go", "@GOALLOC", "@MAIN"},
		{"lk_c_alloc", "lk_c_alloc", "calloc.c", "@CALLOC", "@CALLOCEND"},
	};
	for (int k = 0; k < 3; k++) {
		const char *src = k < 2 ? cgo_go_src : cgo_c_src;
		uint64_t size = 0, a = sym_addr(path, want[k].sym, &size);
		CHECK(a != 0 && size > 8, "symbol %s in %s", want[k].sym, path);
		uint64_t ip = a + 5; /* looks up a + 4 */
		int n = lk_symbolize(s, path, 0, ip, f, MAXF);
		printf("  %s+4 at %#llx:\n", want[k].sym, (unsigned long long)(ip - 1));
		print_frames(f, n > 0 ? n : 0);
		CHECK(n >= 1, "got %d", n);
		const struct lk_frame_text *r = &f[n - 1];
		int lo = line_of(src, want[k].from), hi = line_of(src, want[k].to);
		CHECK(r->function && strcmp(r->function, want[k].fn) == 0, "want %s, got %s",
		      want[k].fn, r->function ? r->function : "(null)");
		CHECK(r->file && strcmp(base(r->file), want[k].file) == 0, "want %s, got %s",
		      want[k].file, r->file ? r->file : "(null)");
		CHECK(r->line >= lo && r->line <= hi, "want line %d..%d, got %d", lo, hi, r->line);
		CHECK(!r->inlined && strcmp(r->module, "cgoprog") == 0 && r->offset == ip,
		      "module, offset");
		release(f, n);
	}
	printf("  ok: main.main and main.goAlloc in main.go, lk_c_alloc in calloc.c\n");
	lk_symbolizer_free(s);
}

/* Is the separate debug file of path installed under /usr/lib/debug? */
static int have_build_id_debug(const char *path)
{
	static const Dwfl_Callbacks cb = {
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.section_address = dwfl_offline_section_address,
	};
	Dwfl *d = dwfl_begin(&cb);
	const unsigned char *id;
	GElf_Addr va;
	char dbg[512];
	int len, ok = 0;

	dwfl_report_begin(d);
	Dwfl_Module *m = dwfl_report_elf(d, "x", path, -1, 0, false);
	dwfl_report_end(d, NULL, NULL);
	if (m && (len = dwfl_module_build_id(m, &id, &va)) > 1) {
		int o = snprintf(dbg, sizeof(dbg), "/usr/lib/debug/.build-id/%02x/", id[0]);
		for (int i = 1; i < len; i++)
			o += snprintf(dbg + o, sizeof(dbg) - (size_t)o, "%02x", id[i]);
		snprintf(dbg + o, sizeof(dbg) - (size_t)o, ".debug");
		ok = access(dbg, R_OK) == 0;
		printf("  %s: %s\n", dbg, ok ? "present" : "absent");
	}
	dwfl_end(d);
	return ok;
}

struct seg { const char *name; uint64_t bias, lo, hi; };

static int find_libc_text(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct seg *sg = arg;
	if (strcmp(info->dlpi_name, sg->name) != 0)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &info->dlpi_phdr[i];
		if (p->p_type == PT_LOAD && (p->p_flags & PF_X)) {
			sg->bias = info->dlpi_addr;
			sg->lo = p->p_vaddr;
			sg->hi = p->p_vaddr + p->p_memsz;
			return 1;
		}
	}
	return 0;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_libc(void)
{
	struct lk_symbolizer *s;
	struct lk_frame_text f[MAXF];
	struct link_map *lm;

	printf("-- the machine's libc\n");
	void *h = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	CHECK(h != NULL, "libc not loaded");
	CHECK(dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0, "dlinfo");
	const char *path = lm->l_name;
	int dbg = have_build_id_debug(path);
	CHECK(lk_symbolizer_new(&s) == 0, "new");

	const char *names[] = {"malloc", "free", "calloc"};
	for (int k = 0; k < 3; k++) {
		char *fn = dlsym(h, names[k]); /* libc's own, not a sanitizer's */
		uint64_t ip = (uint64_t)(uintptr_t)fn + 4;
		int n = lk_symbolize(s, path, lm->l_addr, ip, f, MAXF);
		printf("  %s+4 in %s:\n", names[k], path);
		print_frames(f, n > 0 ? n : 0);
		CHECK(n >= 1, "got %d", n);
		char alt[64];
		snprintf(alt, sizeof(alt), "__libc_%s", names[k]);
		const char *got = f[n - 1].function;
		CHECK(got && (strcmp(got, names[k]) == 0 || strcmp(got, alt) == 0),
		      "want %s or %s, got %s", names[k], alt, got ? got : "(null)");
		if (dbg)
			CHECK(f[n - 1].file && strcmp(base(f[n - 1].file), "malloc.c") == 0
			      && f[n - 1].line > 0, "debug info by build-id: want malloc.c");
		release(f, n);
	}
	printf("  ok: malloc, free, calloc%s\n", dbg ? " with malloc.c:line from the build-id debug file" : "");

	/* 10,000 distinct addresses across libc's code: cold, then cached */
	struct seg sg = {.name = path};
	CHECK(dl_iterate_phdr(find_libc_text, &sg) == 1, "libc text segment");
	enum { N = 10000 };
	uint64_t step = (sg.hi - sg.lo) / N;
	int named = 0, lines = 0, inl = 0;
	double t0 = now();
	for (int i = 0; i < N; i++) {
		uint64_t ip = sg.bias + sg.lo + (uint64_t)i * step + 1;
		int n = lk_symbolize(s, path, sg.bias, ip, f, MAXF);
		CHECK(n >= 1, "address %d: %d", i, n);
		named += f[n - 1].function != NULL;
		lines += f[n - 1].file != NULL;
		inl += n > 1;
		release(f, n);
	}
	double t1 = now();
	for (int i = 0; i < N; i++) {
		uint64_t ip = sg.bias + sg.lo + (uint64_t)i * step + 1;
		int n = lk_symbolize(s, path, sg.bias, ip, f, MAXF);
		CHECK(n >= 1, "address %d: %d", i, n);
		release(f, n);
	}
	double t2 = now();
	printf("  10000 libc addresses: cold %.1f ms (%.1f us each), cached %.2f ms (%.3f us each)\n",
	       (t1 - t0) * 1e3, (t1 - t0) * 1e2, (t2 - t1) * 1e3, (t2 - t1) * 1e2);
	printf("  named %d, with file:line %d, with inlined frames %d\n", named, lines, inl);
	CHECK(named > N * 95 / 100, "too few named: %d", named);
	if (dbg)
		CHECK(lines > N * 80 / 100, "too few with lines: %d", lines);
	lk_symbolizer_free(s);
	dlclose(h);
}

static void test_errors(struct lk_symbolizer *s, const char *dir)
{
	struct lk_frame_text f[MAXF];
	char path[512];

	printf("-- errors\n");
	int n = lk_symbolize(s, "/nonexistent/libnothing.so", 0, 0x1000, f, MAXF);
	CHECK(n == -ENOENT, "missing file: %d", n);
	n = lk_symbolize(s, "/nonexistent/libnothing.so", 0, 0x1000, f, MAXF);
	CHECK(n == -ENOENT, "missing file, cached: %d", n);
	printf("  missing file: %s: %s\n", lk_error_name(n), lk_error_detail());
	snprintf(path, sizeof(path), "%s/victim.c", dir);
	n = lk_symbolize(s, path, 0, 0x1000, f, MAXF);
	CHECK(n == LK_EFORMAT, "not ELF: %d", n);
	printf("  not ELF: %s: %s\n", lk_error_name(n), lk_error_detail());
	snprintf(path, sizeof(path), "%s/libplain.so", dir);
	CHECK(lk_symbolize(s, path, 0x2000, 0x1000, f, MAXF) == -EINVAL, "ip below bias");
	CHECK(lk_symbolize(s, path, 0, 0x1000, f, 0) == -EINVAL, "max 0");
	CHECK(lk_symbolize(s, NULL, 0, 0x1000, f, 1) == -EINVAL, "no path");
	lk_frame_text_release(NULL);
	lk_symbolizer_free(NULL);
	printf("  ok\n");
}

int main(void)
{
	char dir[] = "/tmp/lk-symbolize-XXXXXX";
	struct lk_symbolizer *s;

	if (system("cc --version >/dev/null 2>&1 && objcopy --version >/dev/null 2>&1") != 0) {
		printf("skip: no system compiler or objcopy\n");
		return 77;
	}
	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	CHECK(lk_symbolizer_new(&s) == 0, "new");
	test_inlined(s, dir);
	test_stripped(s, dir);
	test_errors(s, dir);
	lk_symbolizer_free(s);
	test_cgo(dir);
	test_libc();

	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0, "cleanup");
	printf("ok: %d checks\n", checks);
	return 0;
}
