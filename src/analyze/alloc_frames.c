/* alloc_frames.c - allocation wrappers in a stack (see alloc_frames.h). */
#include <string.h>

#include "analyze/alloc_frames.h"
#include "analyze/suppress.h"

/* Functions that allocate for their caller, as suppression patterns
 * (analyze/suppress.h: '*' any run, '^' and '$' anchors). */
static const char *const wrappers[] = {
	"^malloc$", "^calloc$", "^realloc$", "^reallocarray$", "^memalign$",
	"^aligned_alloc$", "^posix_memalign$", "^valloc$", "^pvalloc$",
	"^strdup$", "^strndup$", "^__strdup$", "^__strndup$", "^asprintf$", "^vasprintf$",
	"^operator new*",
	"^x*malloc$", "^x*calloc$", "^x*realloc$", "^x*alloc$", "^xstrdup$", "^xstrndup$",
	"^xmemdup*", "^g_malloc*", "^g_try_malloc*", "^g_realloc*", "^g_strdup*",
	"^std::*", "^__gnu_cxx::*",                  /* C++ allocators, containers */
	"^__rust_alloc*", "^__rdl_alloc*", "^alloc::*",  /* Rust's global allocator, */
	"^<alloc::*", "^<*as alloc::*", "^core::*", "^<core::*",  /* its collections */
	"^_cgo_*_Cfunc__Cmalloc$", "^runtime.asmcgocall*", "^runtime.cgocall$",
	"*._cgo_cmalloc$", "*._Cfunc__CMalloc$",     /* cgo's C.malloc */
	"*Foreign.Marshal.Alloc.*", "^stgMallocBytes$", "^stgCallocBytes$",
	"^stgReallocBytes$",                          /* GHC's mallocBytes */
	NULL,
};

int lk_alloc_frame(const struct lk_frame_text *f)
{
	if (lk_suppress_system_module(f->module))
		return 1;
	for (const char *const *w = wrappers; f->function && *w; w++)
		if (lk_pattern_match(*w, f->function))
			return 1;
	return 0;
}

size_t lk_alloc_caller(const struct lk_frame_text *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (f[i].function && !lk_alloc_frame(&f[i]))
			return i;
	return n;
}
