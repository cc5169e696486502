# rowpipe: one non-recursive GNU Makefile.
#
#   make            build bin/dbsnap bin/rows2sql bin/sqlsplit bin/sqlexec bin/lz ...
#   make check      every test (unit, command, server, short fuzz runs)
#   make asan       the same tests on an ASan+UBSan build
#   make deps       install the Debian packages that are missing (as root)
#   make demo       back up and restore a generated database end to end
#   make install    PREFIX=/usr/local DESTDIR=
#   make fuzz       build the libFuzzer targets and run each FUZZ_SECONDS

PREFIX	?= /usr/local
DESTDIR	?=
O	?= build
B	?= bin
CC	?= cc
PKGS	 = libbsd-overlay libmariadb liblz4 libxxhash jansson nettle
FUZZ_SECONDS ?= 60

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
BSD_LIBS   := $(shell pkg-config --libs libbsd-overlay 2>/dev/null)
MYSQL_LIBS := $(shell pkg-config --libs libmariadb 2>/dev/null)
LZ4_LIBS   := $(shell pkg-config --libs liblz4 2>/dev/null)
XXH_LIBS   := $(shell pkg-config --libs libxxhash 2>/dev/null)
JSON_LIBS  := $(shell pkg-config --libs jansson 2>/dev/null)
NETTLE_LIBS := $(shell pkg-config --libs nettle 2>/dev/null)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null)

OPT	?= -O2 -g
SAN	?=
WARN	 = -Wall -Wextra -Wno-unused-parameter
override CFLAGS += -std=c11 $(OPT) $(SAN) $(WARN) -D_GNU_SOURCE -pthread \
	-Ilib $(PKG_CFLAGS) -MMD -MP
override LDFLAGS += $(SAN) -pthread

PROGS	 = dbsnap rows2sql sqlsplit sqlexec lz rows2json json2rows rowmap
BINS	 = $(addprefix $(B)/,$(PROGS))
LIB	 = $(O)/librowpipe.a
LIB_OBJS = $(patsubst %.c,$(O)/%.o,$(wildcard lib/*.c))

# Each program is its main.o and an archive of the rest of cmd/<prog>/,
# which its unit tests and its fuzzer link too.
arch	 = $(O)/cmd/$(1)/lib$(1).a
aobjs	 = $(patsubst %.c,$(O)/%.o,$(filter-out cmd/$(1)/main.c,$(wildcard cmd/$(1)/*.c)))

UNIT_SRCS = $(wildcard tests/unit/*.c)
UNITS	 = $(patsubst tests/unit/%.c,$(O)/tests/unit/%.t,$(UNIT_SRCS))
FUZZ_SRCS = $(wildcard tests/fuzz/fuzz_*.c)
FUZZERS	 = $(patsubst tests/fuzz/%.c,$(O)/fuzz/%,$(FUZZ_SRCS))

all: $(BINS)

$(O)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJS)

define archive_rule
$(call arch,$(1)): $(call aobjs,$(1))
	rm -f $$@
	$$(AR) rcs $$@ $$^
endef
$(foreach p,$(PROGS),$(eval $(call archive_rule,$(p))))

# Explicit link lines: each program links only what it uses.
$(B)/dbsnap: $(O)/cmd/dbsnap/main.o $(call arch,dbsnap) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(MYSQL_LIBS) $(XXH_LIBS) $(BSD_LIBS)
$(B)/rows2sql: $(O)/cmd/rows2sql/main.o $(call arch,rows2sql) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(XXH_LIBS) $(BSD_LIBS)
$(B)/sqlsplit: $(O)/cmd/sqlsplit/main.o $(call arch,sqlsplit) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(XXH_LIBS) $(BSD_LIBS)
$(B)/sqlexec: $(O)/cmd/sqlexec/main.o $(call arch,sqlexec) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(MYSQL_LIBS) $(XXH_LIBS) $(BSD_LIBS)
$(B)/lz: $(O)/cmd/lz/main.o $(call arch,lz) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(LZ4_LIBS) $(XXH_LIBS) $(BSD_LIBS)
$(B)/rows2json: $(O)/cmd/rows2json/main.o $(call arch,rows2json) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(NETTLE_LIBS) $(XXH_LIBS) $(BSD_LIBS)
$(B)/json2rows: $(O)/cmd/json2rows/main.o $(call arch,json2rows) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(JSON_LIBS) $(NETTLE_LIBS) $(XXH_LIBS) $(BSD_LIBS)
$(B)/rowmap: $(O)/cmd/rowmap/main.o $(call arch,rowmap) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(NETTLE_LIBS) $(XXH_LIBS) $(BSD_LIBS)

# Unit tests: cmocka with TAP output, one binary per tests/unit/*.c; a
# test of a program's code links that program's archive too.
$(O)/tests/unit/sqlsplit.t: $(call arch,sqlsplit)
$(O)/tests/unit/engine.t: $(call arch,sqlexec)
# progress.t keeps the clock (tests/unit/progress.c says why).
$(O)/tests/unit/progress.t: LDFLAGS += -Wl,--wrap=mono_now
$(O)/tests/unit/%.t: $(O)/tests/unit/%.o $(LIB)
	$(CC) $(LDFLAGS) -o $@ $(filter-out $(LIB),$^) $(LIB) $(CMOCKA_LIBS) $(MYSQL_LIBS) $(LZ4_LIBS) $(XXH_LIBS) $(BSD_LIBS)

# Test tools: small programs the shell tests use (framecat, ...).
TOOL_SRCS = $(wildcard tests/tools/*.c)
TOOLS	 = $(patsubst tests/tools/%.c,$(O)/tests/tools/%,$(TOOL_SRCS))
$(O)/tests/tools/%: $(O)/tests/tools/%.o $(LIB)
	$(CC) $(LDFLAGS) -o $@ $< $(LIB) $(MYSQL_LIBS) $(LZ4_LIBS) $(XXH_LIBS) $(BSD_LIBS)

units: $(UNITS) $(TOOLS)

# Benchmark programs (bench/*.c), built on demand by the bench scripts.
$(O)/bench/%: $(O)/bench/%.o $(LIB)
	$(CC) $(LDFLAGS) -o $@ $< $(LIB) $(MYSQL_LIBS) $(LZ4_LIBS) $(XXH_LIBS) $(BSD_LIBS)

# libFuzzer targets (clang): lib/ and the programs' archives are built
# again with the fuzzer's instrumentation under $(FO); fuzz_<prog>.c links
# lib<prog>.a.
FUZZ_CC	?= clang
FUZZ_CFLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -std=c11 -D_GNU_SOURCE \
	-Ilib $(PKG_CFLAGS) -MMD -MP
FO	 = $(O)/fuzz/obj
FUZZ_LIB = $(FO)/librowpipe.a
farch	 = $(FO)/cmd/$(1)/lib$(1).a
$(FO)/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<
$(FUZZ_LIB): $(patsubst %.c,$(FO)/%.o,$(wildcard lib/*.c))
	rm -f $@
	$(AR) rcs $@ $^
define fuzz_archive_rule
$(call farch,$(1)): $(patsubst $(O)/%,$(FO)/%,$(call aobjs,$(1)))
	rm -f $$@
	$$(AR) rcs $$@ $$^
endef
$(foreach p,$(PROGS),$(eval $(call fuzz_archive_rule,$(p))))
$(O)/fuzz/fuzz_lz: $(call farch,lz)
$(O)/fuzz/fuzz_rows2sql: $(call farch,rows2sql)
$(O)/fuzz/fuzz_sqlsplit: $(call farch,sqlsplit)
$(O)/fuzz/fuzz_json2rows: $(call farch,json2rows)
$(O)/fuzz/fuzz_rowmap: $(call farch,rowmap)
$(O)/fuzz/%: $(FO)/tests/fuzz/%.o $(FUZZ_LIB)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(filter-out $(FUZZ_LIB),$^) $(FUZZ_LIB) $(MYSQL_LIBS) $(LZ4_LIBS) $(JSON_LIBS) $(NETTLE_LIBS) $(XXH_LIBS) $(BSD_LIBS)

fuzz-build: $(FUZZERS)

fuzz: fuzz-build
	@set -e; for f in $(FUZZERS); do \
		n=$$(basename $$f); mkdir -p $(O)/fuzz/corpus-$$n; \
		echo "fuzz: $$n for $(FUZZ_SECONDS) s"; \
		$$f -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -print_final_stats=0 \
		    -artifact_prefix=$(O)/fuzz/ $(O)/fuzz/corpus-$$n \
		    tests/fuzz/seeds-$${n#fuzz_} >$(O)/fuzz/$$n.log 2>&1 \
		    || { tail -30 $(O)/fuzz/$$n.log; exit 1; }; \
	done

# deps first, in its own step, so that pkg-config sees what it installed.
check: deps
	@$(MAKE) --no-print-directory check-run

check-run: all units lint
	RP_BIN=$(CURDIR)/$(B) RP_UNITS=$(CURDIR)/$(O)/tests/unit RP_TOOLS=$(CURDIR)/$(O)/tests/tools tests/run
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(FUZZ_SECONDS)

# Same tests on a sanitizer build, in its own build and bin directories.
asan: deps
	$(MAKE) --no-print-directory O=build/asan B=build/asan/bin \
	    OPT="-O1 -g -fno-omit-frame-pointer" \
	    SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined" \
	    all units
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	RP_BIN=$(CURDIR)/build/asan/bin RP_UNITS=$(CURDIR)/build/asan/tests/unit RP_TOOLS=$(CURDIR)/build/asan/tests/tools tests/run

lint:
	mandoc -Tlint -Wwarning man/*/*

deps:
	@sh tests/deps.sh

demo: deps
	@$(MAKE) --no-print-directory all
	@bash tests/demo.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	    $(DESTDIR)$(PREFIX)/share/man/man5 $(DESTDIR)$(PREFIX)/share/man/man7
	install -m 755 $(BINS) $(DESTDIR)$(PREFIX)/bin
	for m in man/man1/*.1; do [ -f "$$m" ] && install -m 644 $$m $(DESTDIR)$(PREFIX)/share/man/man1; done
	for m in man/man5/*.5; do [ -f "$$m" ] && install -m 644 $$m $(DESTDIR)$(PREFIX)/share/man/man5; done
	for m in man/man7/*.7; do [ -f "$$m" ] && install -m 644 $$m $(DESTDIR)$(PREFIX)/share/man/man7; done

clean:
	rm -rf build bin

# Keep the objects that pattern chains build (units, fuzzers): no rebuilds.
.SECONDARY:

.PHONY: all check check-run asan lint deps demo install clean units fuzz fuzz-build

-include $(shell find $(O) -name '*.d' 2>/dev/null)
