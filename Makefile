# leakscope build. `make demo` installs what is missing (as root), builds and
# runs the bundled leaky example; `make check` runs every test.
#
# Sources are discovered per folder, so adding a file needs no edit here:
#   src/preload/*.c          -> libleakscope.so (the interposer, in the target)
#                               and libleakscope-attach.so (the same, for
#                               `attach`: dlopen'ed, with dynamic TLS)
#   src/{common,collector,analyze,control,eventlog,trace,record,history,report}/*.c
#   and src/report/{leak,trace,timeline}/*.c -> libcore.a
#   src/cli/*.c + libcore.a  -> leakscope
# SAN=1 builds the collector and readers with ASan+UBSan into build-san/.
# PGO=1 (the default with GCC, SAN=0) builds the command with profiles of a
# training run (below); PGO=0 builds it at once.

CC      ?= cc
SAN     ?= 0
ifeq ($(SAN),1)
B       ?= build-san
SANFLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else
B       ?= build
SANFLAGS =
endif

IS_GCC  := $(shell $(CC) --version 2>/dev/null | grep -q 'Free Software Foundation' && echo 1)
ifeq ($(SAN)$(IS_GCC),01)
PGO     ?= 1
else
PGO     ?= 0
endif

WARN     = -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter
CFLAGS  ?= -O2 -g
BASEFLAGS = -std=gnu11 $(WARN) -D_GNU_SOURCE -Isrc -Iinclude
# CPPFLAGS and LDFLAGS are the builder's (dpkg-buildflags' hardening, say):
# the command's and the readers', never the interposer's.
CORE_CFLAGS = $(BASEFLAGS) $(CPPFLAGS) $(CFLAGS) $(SANFLAGS)
CORE_LIBS   = -ldw -lelf -lzstd -lz -liberty -lm -lpthread
# The command is linked statically, with no dynamic loader to run at each
# start (0.3 ms of it, a fifth of a report on a small input); not as a
# position-independent program, whose relocation of itself at start cost
# as much (docs/performance.md). dlopen() is wrapped (src/cli/no_dlopen.c):
# libdw's debuginfod client must not load a shared library into it.
# Sanitizer builds cannot be static: there only elfutils and the
# compressors are.
READER_LIBS = -ldw -lelf -lzstd -lz -llzma -lbz2
ifeq ($(SAN),1)
STATIC_LIBS = -Wl,-Bstatic $(READER_LIBS) -Wl,-Bdynamic -liberty -lm -lpthread
else
STATIC_LIBS = -static -Wl,--wrap=dlopen $(READER_LIBS) -liberty -lm -lpthread
endif

PRELOAD_CFLAGS = $(BASEFLAGS) -O2 -g -fPIC -fvisibility=hidden \
	-ftls-model=initial-exec -fno-omit-frame-pointer
PRELOAD_LIBS   =

CORE_SRC    = $(wildcard src/common/*.c src/collector/*.c src/analyze/*.c src/control/*.c \
                src/eventlog/*.c src/report/*.c src/report/*/*.c src/trace/*.c \
                src/record/*.c src/history/*.c)
CLI_SRC     = $(wildcard src/cli/*.c)
PRELOAD_SRC = $(wildcard src/preload/*.c)
UNIT_SRC    = $(wildcard tests/unit/*.c)
FUZZ_SRC    = $(wildcard tests/fuzz/*_fuzz.c)
ASSETS      = $(wildcard src/report/assets/*)

CORE_OBJ    = $(CORE_SRC:%.c=$(B)/obj/%.o)
CLI_OBJ     = $(CLI_SRC:%.c=$(B)/obj/%.o)
PRELOAD_OBJ = $(PRELOAD_SRC:%.c=$(B)/pobj/%.o)
ATTACH_OBJ = $(PRELOAD_SRC:%.c=$(B)/aobj/%.o)
UNITS       = $(UNIT_SRC:tests/unit/%.c=$(B)/unit/%)
COMPLETIONS = $(B)/completion/leakscope $(B)/completion/_leakscope

# make: the programs and the unit tests (unwind_test links libunwind, a
# test dependency); make programs: what make install installs, no more.
all: programs $(UNITS)
programs: $(B)/leakscope $(B)/libleakscope.so $(B)/libleakscope-attach.so $(COMPLETIONS)

# Profile-guided optimisation of the command (not of the interposer): an
# instrumented build in $(B)/pgo/ runs on inputs that are none of the
# benchmarks' (tools/pgo-train.sh: a recording of the compiler compiling
# one of our sources, its reports, the GHC eventlog fixtures), and the
# command is compiled with the profiles it wrote to $(B)/profile/: reports
# 9-12% faster (docs/performance.md). Both builds name a source's profile
# alike (-dumpbase): GCC tells a file's static functions apart by it.
# Any change of a source trains again (a stale profile can fail the build:
# GCC's "missing counts" cannot be told apart from other warnings); a
# training that fails leaves a build without profiles. PGO=0 for quick
# rebuilds while editing.
ifeq ($(PGO),1)
PGO_STAMP = $(B)/pgo/trained
PGO_FLAGS = -fprofile-use -fprofile-partial-training -Wno-missing-profile \
	    -dumpbase $(B)/profile/$<
$(PGO_STAMP): $(CORE_SRC) $(CLI_SRC) $(wildcard src/*/*.h src/*/*/*.h include/*.h) tools/pgo-train.sh
	@echo "  PGO     instrumented build in $(B)/pgo"
	@rm -rf $(B)/profile
	@$(MAKE) --no-print-directory B=$(B)/pgo PGO=0 PGO_GEN=$(B)/profile \
		$(B)/pgo/leakscope $(B)/pgo/libleakscope.so
	@sh tools/pgo-train.sh $(B)/pgo/leakscope $(B)/profile || \
		echo "  PGO     no profile: a build without them"
	@touch $@
endif
ifneq ($(PGO_GEN),)
PGO_FLAGS = -fprofile-generate -fprofile-update=atomic -dumpbase $(PGO_GEN)/$<
PGO_LINK  = -fprofile-generate
endif

$(B)/obj/%.o: %.c $(PGO_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CORE_CFLAGS) $(PGO_FLAGS) -MMD -MP -c $< -o $@

# The report's event loop keeps its state in registers; GCC's SLP
# vectoriser packs pairs of those into SSE registers and back on every
# event: without it, 9% fewer instructions on a report (docs/performance.md).
$(B)/obj/src/history/history.o: CORE_CFLAGS += -fno-tree-slp-vectorize

# A census's bands are added in one pass that GCC's cheapest vectoriser, at
# -O2, leaves alone (its trip count is not known): SSE2, two bands at a
# time (a 5,000-band eventlog 25.0 -> 22.9 ms with the table of sums).
ifeq ($(IS_GCC),1)
$(B)/obj/src/analyze/band_sums.o: CORE_CFLAGS += -fvect-cost-model=dynamic
endif

# The eventlog's objects take part in link-time optimisation (GCC builds
# without sanitizers): the reader's next event is inlined into the
# profile's loop, 0.3 ms of a 100 MB eventlog's 13 ms (docs/performance.md).
# Not the other objects: the reports ran 3-6% slower with all of them.
ifeq ($(SAN)$(IS_GCC),01)
LTO_OBJ = $(addprefix $(B)/obj/src/,eventlog/reader.o eventlog/profile.o eventlog/census.o \
	  analyze/band_sums.o)
$(LTO_OBJ): CORE_CFLAGS += -flto
endif

$(B)/pobj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $< (interposer)"
	@$(CC) $(PRELOAD_CFLAGS) -MMD -MP -c $< -o $@

# The interposer an attach loads with dlopen into a running process: the
# static TLS left there is too small for ours (about 4 KiB), so its
# thread-locals are reached by TLS descriptors (dynamic TLS).
$(B)/aobj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $< (interposer for attach)"
	@$(CC) $(PRELOAD_CFLAGS) -ftls-model=global-dynamic -mtls-dialect=gnu2 -DLK_ATTACH_BUILD \
		-MMD -MP -c $< -o $@

# Report assets (HTML template, JS, CSS) become C arrays.
$(B)/gen/assets.c: $(ASSETS) tools/embed.sh
	@mkdir -p $(dir $@)
	@sh tools/embed.sh $@ $(ASSETS)

$(B)/obj/gen/assets.o: $(B)/gen/assets.c
	@mkdir -p $(dir $@)
	@$(CC) $(CORE_CFLAGS) -c $< -o $@

$(B)/libcore.a: $(CORE_OBJ) $(B)/obj/gen/assets.o
	@rm -f $@ && ar rcs $@ $^

$(B)/leakscope: $(CLI_OBJ) $(B)/libcore.a
	@echo "  LINK    $@"
	@$(CC) $(CFLAGS) $(LDFLAGS) $(SANFLAGS) $(PGO_LINK) -o $@ $(CLI_OBJ) $(B)/libcore.a $(STATIC_LIBS)

$(B)/libleakscope.so: $(PRELOAD_OBJ) src/preload/exports.map
	@echo "  LINK    $@"
	@$(CC) -shared -o $@ $(PRELOAD_OBJ) -Wl,--version-script=src/preload/exports.map \
		-Wl,-z,now -Wl,-z,nodelete $(PRELOAD_LIBS)

$(B)/libleakscope-attach.so: $(ATTACH_OBJ) src/preload/exports.map
	@echo "  LINK    $@"
	@$(CC) -shared -o $@ $(ATTACH_OBJ) -Wl,--version-script=src/preload/exports.map \
		-Wl,-z,now -Wl,-z,nodelete $(PRELOAD_LIBS)

$(B)/unit/%: tests/unit/%.c $(B)/libcore.a
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	@$(CC) $(CORE_CFLAGS) -o $@ $< $(B)/libcore.a $(CORE_LIBS)

# Shell completion, made from the program's own help (the option tables
# of src/cli/): bash's file is named after the command, zsh's after its
# function.
$(B)/completion/leakscope: $(B)/leakscope tools/completion.sh
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"
	@sh tools/completion.sh $(B)/leakscope bash > $@.tmp && mv $@.tmp $@
$(B)/completion/_leakscope: $(B)/leakscope tools/completion.sh
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"
	@sh tools/completion.sh $(B)/leakscope zsh > $@.tmp && mv $@.tmp $@

# The unwinders' test runs the interposer's own objects against libunwind,
# the reference (a test dependency only: the interposer does not use it).
UNWIND_OBJ = $(B)/pobj/src/preload/unwind.o $(B)/pobj/src/preload/cfi.o \
	     $(B)/pobj/src/preload/unwind_full.o $(B)/pobj/src/preload/ghcstack.o
$(B)/unit/unwind_test: tests/unit/unwind_test.c $(UNWIND_OBJ)
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	@$(CC) $(CORE_CFLAGS) -o $@ $< $(UNWIND_OBJ) -lunwind -ldl -lpthread
$(B)/unit/ghcstack_test: tests/unit/ghcstack_test.c $(UNWIND_OBJ)
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	@$(CC) $(CORE_CFLAGS) -o $@ $< $(UNWIND_OBJ) -ldl -lpthread

# Fuzz targets (libFuzzer, clang): make fuzz. A band keeps 16 points, not
# 1024, and 2 with more than 4 bands (64 values), so that inputs of a few
# KiB reach the merging of points.
FUZZ_DEFS = -DLK_PROFILE_SAMPLES_MAX=16 -DLK_PROFILE_SAMPLES_MIN=2 -DLK_PROFILE_VALUES_MAX=64
# A target is tests/fuzz/NAME_fuzz.c; the other sources there are what
# targets share (profile_harness.c), linked into each.
FUZZERS = $(FUZZ_SRC:tests/fuzz/%.c=build-fuzz/%)
FUZZ_LIB = $(filter-out $(FUZZ_SRC),$(wildcard tests/fuzz/*.c))
fuzz: $(FUZZERS)
build-fuzz/%: tests/fuzz/%.c $(FUZZ_LIB) $(wildcard tests/fuzz/*.h) $(CORE_SRC)
	@mkdir -p build-fuzz
	$(MAKE) B=build-fuzz/core CC=clang SAN=0 CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address,undefined $(FUZZ_DEFS)" build-fuzz/core/libcore.a
	clang $(BASEFLAGS) -O1 -g -fsanitize=fuzzer,address,undefined -o $@ $< $(FUZZ_LIB) build-fuzz/core/libcore.a $(CORE_LIBS)

# make install [PREFIX=/usr/local] [DESTDIR=]: the command, the
# interposer where the command finds it (lib/leakscope/ next to bin/:
# collector/launch.c), the program API's header, the man pages, the
# completion scripts and the documentation. make uninstall removes each of
# those files, and the directories that are leakscope's own.
PREFIX     ?= /usr/local
BINDIR      = $(PREFIX)/bin
PKGLIBDIR   = $(PREFIX)/lib/leakscope
INCLUDEDIR  = $(PREFIX)/include
MAN1DIR     = $(PREFIX)/share/man/man1
DOCDIR      = $(PREFIX)/share/doc/leakscope
BASHCOMPDIR = $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  = $(PREFIX)/share/zsh/vendor-completions
MAN_PAGES   = $(wildcard man/*.1)
DOCS        = README.md $(wildcard docs/*.md)
INSTALLED   = $(BINDIR)/leakscope $(PKGLIBDIR)/libleakscope.so \
	      $(PKGLIBDIR)/libleakscope-attach.so $(INCLUDEDIR)/leakscope.h \
	      $(MAN_PAGES:man/%=$(MAN1DIR)/%) $(BASHCOMPDIR)/leakscope $(ZSHCOMPDIR)/_leakscope \
	      $(DOCS:%=$(DOCDIR)/%)

install: programs
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(PKGLIBDIR) $(DESTDIR)$(INCLUDEDIR) \
		$(DESTDIR)$(MAN1DIR) $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) \
		$(DESTDIR)$(DOCDIR)/docs
	install -m 755 $(B)/leakscope $(DESTDIR)$(BINDIR)/leakscope
	install -m 644 $(B)/libleakscope.so $(DESTDIR)$(PKGLIBDIR)/libleakscope.so
	install -m 644 $(B)/libleakscope-attach.so $(DESTDIR)$(PKGLIBDIR)/libleakscope-attach.so
	install -m 644 include/leakscope.h $(DESTDIR)$(INCLUDEDIR)/leakscope.h
	install -m 644 $(MAN_PAGES) $(DESTDIR)$(MAN1DIR)
	install -m 644 $(B)/completion/leakscope $(DESTDIR)$(BASHCOMPDIR)/leakscope
	install -m 644 $(B)/completion/_leakscope $(DESTDIR)$(ZSHCOMPDIR)/_leakscope
	install -m 644 README.md $(DESTDIR)$(DOCDIR)
	install -m 644 $(wildcard docs/*.md) $(DESTDIR)$(DOCDIR)/docs

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	-rmdir $(DESTDIR)$(PKGLIBDIR) $(DESTDIR)$(DOCDIR)/docs $(DESTDIR)$(DOCDIR) 2>/dev/null

deps:
	sh tools/install-deps.sh

demo: deps programs
	sh examples/demo.sh $(B)

check: all
	$(MAKE) SAN=1 all
	sh tests/run.sh

clean:
	rm -rf build build-san build-fuzz

.PHONY: all programs deps demo check clean fuzz install uninstall
-include $(shell find $(B) -name '*.d' 2>/dev/null)
