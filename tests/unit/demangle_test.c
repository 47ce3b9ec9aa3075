/* demangle_test.c - C++, Rust (legacy, v0), GHC z-encoding, names left alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collector/demangle.h"

static int checks;

/* want NULL: the name must be left alone */
static void expect(const char *what, char *(*fn)(const char *), const char *in, const char *want)
{
	char *got = fn(in);
	checks++;
	printf("%s %-60s -> %s\n", what, in, got ? got : "(null)");
	if ((want == NULL) != (got == NULL) || (want && strcmp(want, got) != 0)) {
		printf("FAIL: %s(\"%s\"): want %s, got %s\n", what, in,
		       want ? want : "(null)", got ? got : "(null)");
		free(got);
		exit(1);
	}
	free(got);
}

#define DM(in, want) expect("demangle", lk_demangle, in, want)
#define ZD(in, want) expect("zdecode ", lk_zdecode, in, want)
#define DMOD(in, want) expect("module  ", lk_demangle_ghc_module, in, want)

int main(void)
{
	/* C++ */
	DM("_ZNSt6vectorIiSaIiEE9push_backERKi",
	   "std::vector<int, std::allocator<int> >::push_back(int const&)");
	DM("_Z3fooi", "foo(int)");
	DM("_ZN2ns5Klass6methodEv", "ns::Klass::method()");
	DM("_Znwm", "operator new(unsigned long)");
	DM("_ZdlPvm", "operator delete(void*, unsigned long)");
	DM("_Z4workv.cold", "work() [clone .cold]");
	DM("_ZZ4mainE5local", "main::local");

	/* Rust legacy: hash dropped; v0 */
	DM("_ZN4core3fmt5write17h0123456789abcdefE", "core::fmt::write");
	DM("_ZN5alloc5alloc12alloc_zeroed17h8f3c2a1b4d5e6f70E", "alloc::alloc::alloc_zeroed");
	DM("_ZN9leaky_app4main17hd3b5e4f6a7c8b9a0E", "leaky_app::main");
	DM("_RNvCs15kBYyAo9fc_7mycrate7example", "mycrate::example");
	DM("_RNvNtCs1234_7mycrate3foo3bar", "mycrate::foo::bar");

	/* GHC */
	DM("Main_main1_info", "Main.main1");
	DM("Main_main_closure", "Main.main");
	DM("base_ForeignziMarshalziAlloc_mallocBytes1_info", "base:Foreign.Marshal.Alloc.mallocBytes1");
	DM("Leaky_zdwleakBuffers_info", "Leaky.$wleakBuffers");
	DM("fastzmloggerzm3zi0zi3zmc8e1f84d3515a933118ea8b8e3bf49c760d60247807fe546889be0637e168844"
	   "_SystemziLogziFastLoggerziLoggerSet_zdwnewFDLoggerSet_slow",
	   "fast-logger-3.0.3-c8e1f84d3515a933118ea8b8e3bf49c760d60247807fe546889be0637e168844"
	   ":System.Log.FastLogger.LoggerSet.$wnewFDLoggerSet");
	DM("ghczmprim_GHCziTypes_ZC_con_info", "ghc-prim:GHC.Types.:");
	DM("Main_con_info", "Main.con");
	DM("base_GHCziBase_zpzp_entry", "base:GHC.Base.++");
	DM("ghczmprim_GHCziTuple_Z2T_con_info", "ghc-prim:GHC.Tuple.(,)");
	DM("Data_go_srt", "Data.go");
	DM("Main_zdwgo_fast", "Main.$wgo");

	/* the module of a GHC name */
	DMOD("Leaky_zdwleakBuffers_info", "Leaky");
	DMOD("base_GHCziBase_zi_info", "base:GHC.Base"); /* the operator . */
	DMOD("ghczmprim_GHCziTuple_Z2T_con_info", "ghc-prim:GHC.Tuple");
	DMOD("stg_upd_frame_info", NULL);
	DMOD("s1VD_info", NULL);
	DMOD("_Z3fooi", NULL);

	/* left alone */
	DM("malloc", NULL);
	DM("my_func_info", NULL);
	DM("stg_ap_0_fast", NULL);
	DM("stg_upd_frame_info", NULL);
	DM("sat_s1ab_info", NULL);
	DM("Main_info", NULL);            /* no name part */
	DM("Main_bad_zx_info", NULL);     /* invalid escape */
	DM("Foo__bar_info", NULL);        /* empty part */
	DM("a_B_c_d_info", NULL);         /* four parts */
	DM("main.main", NULL);            /* Go */
	DM("runtime.mallocgc", NULL);
	DM("_Zfoo", NULL);                /* not a valid C++ name */
	DM("", NULL);
	DM(NULL, NULL);

	/* plain z-decoding */
	ZD("ForeignziMarshalziAlloc", "Foreign.Marshal.Alloc");
	ZD("Z0T", "()");
	ZD("Z2T", "(,)");
	ZD("Z3T", "(,,)");
	ZD("Z1H", "(# #)");
	ZD("Z2H", "(#,#)");
	ZD("ZZzz", "Zz");
	ZD("ZLZRZMZNZC", "()[]:");
	ZD("zazbzczdzezgzhzizlzmznzpzqzrzszszuzv", "&|^$=>#.<-!+'\\//_%");
	ZD("zt", "*");
	ZD("z3bbU", "\xce\xbb");       /* λ */
	ZD("z0e9U", "\xc3\xa9");       /* é */
	ZD("z39UpH", "9pH");
	ZD("fooZ2Tbar", "foo(,)bar");
	ZD("plain_text", "plain_text");
	ZD("z", NULL);
	ZD("Zq", NULL);
	ZD("z12", NULL);
	ZD("Z99T", NULL);
	ZD("z0d800U", NULL);           /* surrogate */
	ZD("zd800U", "$800U");         /* zd is $, not a code point */

	printf("ok: %d checks\n", checks);
	return 0;
}
