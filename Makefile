# storbench: plain GNU make.
# Knobs: HAVE_URING, HAVE_AIO, HAVE_BLKID, HAVE_XLSX, HAVE_XXHASH, HAVE_SQLITE, HAVE_PQ
#        = auto (detect) | 1 (insist: the build fails without it) | 0 (leave out)
#        CROSS_COMPILE=aarch64-linux-gnu-  STATIC=1  SANITIZE=1  WERROR=1
#        MUSL=1: with musl, through musl-gcc (musl-tools), or for CROSS_COMPILE
#        through its gcc and the specs of musl-dev:ARCH; CC=musl-gcc works too
#        MPI=1: with Open MPI through mpicc, for mpirun -n N storbench ...
#        (docs/mpi.md); its own folder build-mpi, binary included
#        SMALL=1 (or make small): -Os, stripped, the optional libraries only
#        where asked (HAVE_AIO=1 ...)
# A build for another machine or libc (CROSS_COMPILE, musl-gcc) and a small
# one go to their own folder, build-<target>[-small], binary included.
VERSION := 0.1.0

CROSS_COMPILE ?=
ifeq ($(MUSL)$(origin CC),1default)
MUSL_SPECS := /usr/lib/$(subst -gnu,-musl,$(shell $(CROSS_COMPILE)gcc -dumpmachine 2>/dev/null))/musl-gcc.specs
ifeq ($(wildcard $(MUSL_SPECS)),)
$(error MUSL=1: no $(MUSL_SPECS) (Debian: musl-tools, or musl-dev:ARCH for a cross build))
endif
CC := $(if $(CROSS_COMPILE),$(CROSS_COMPILE)gcc -specs=$(MUSL_SPECS),musl-gcc)
else
CC := $(CROSS_COMPILE)$(if $(filter default,$(origin CC)),gcc,$(CC))
endif
PKG_CONFIG ?= pkg-config
MPI ?= 0
ifeq ($(MPI),1)
MPICC ?= mpicc
CC := $(MPICC)
endif

# What the compiler builds for, e.g. aarch64-linux-gnu, arm-linux-gnueabihf,
# x86_64-linux-musl. gcc with musl's specs (musl-gcc is one) answers as for
# glibc: the specs' name tells. musl defines no macro for the program to test.
TARGET := $(shell $(CC) -dumpmachine 2>/dev/null)
LIBC := $(if $(findstring musl,$(TARGET) $(notdir $(CC))),musl)
ifeq ($(LIBC),musl)
TARGET := $(subst -gnu,-musl,$(TARGET))
endif
HOST_LIBC := $(if $(findstring musl,$(shell cc -dumpmachine 2>/dev/null)),musl)
FOREIGN := $(if $(CROSS_COMPILE),1,$(if $(filter-out $(HOST_LIBC),$(LIBC))$(filter-out $(LIBC),$(HOST_LIBC)),1))

OPTIONAL := $(if $(filter 1,$(SMALL)),0,auto)
HAVE_URING ?= $(OPTIONAL)
HAVE_AIO ?= $(OPTIONAL)
HAVE_BLKID ?= $(OPTIONAL)
HAVE_XLSX ?= $(OPTIONAL)
HAVE_SQLITE ?= $(OPTIONAL)
# libpq's static archive needs libpq's own helpers (libpgcommon, libpgport)
# and its TLS and Kerberos libraries: a static build does without it
ifeq ($(STATIC),1)
HAVE_PQ ?= 0
endif
HAVE_PQ ?= $(OPTIONAL)
HAVE_XXHASH ?= auto

WARN := -Wall -Wextra -Wshadow -Wformat=2 -Wpointer-arith -Wstrict-prototypes \
        -Wmissing-prototypes -Wvla -Wno-unused-parameter
OPT := -O2 -g
ifeq ($(SMALL),1)
OPT := -Os -ffunction-sections -fdata-sections
endif
CFLAGS ?= $(OPT)
CPPFLAGS += -I. -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -DSB_VERSION=\"$(VERSION)\" -DSB_TARGET=\"$(TARGET)\"
ifeq ($(LIBC),musl)
CPPFLAGS += -DSB_LIBC=\"musl\"
endif
override CFLAGS += -std=gnu11 $(WARN) -pthread
LDLIBS += -lm -pthread
ifeq ($(WERROR),1)
override CFLAGS += -Werror
endif
ifeq ($(SANITIZE),1)
override CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=address,undefined
endif
ifeq ($(STATIC),1)
CPPFLAGS += -DSB_STATIC=1
LDFLAGS += -static
endif
ifeq ($(SMALL),1)
LDFLAGS += -s -Wl,--gc-sections
endif

# try-lib LIB HEADER: succeeds when a program including HEADER links with -lLIB
try-lib = $(shell printf '#include <$(2)>\nint main(void){return 0;}\n' | \
	$(CC) $(CPPFLAGS) -x c - -o /dev/null $(LDFLAGS) -l$(1) >/dev/null 2>&1 && echo 1 || echo 0)

ifeq ($(HAVE_URING),auto)
HAVE_URING := $(call try-lib,uring,liburing.h)
endif
ifeq ($(HAVE_AIO),auto)
HAVE_AIO := $(call try-lib,aio,libaio.h)
endif
ifeq ($(HAVE_BLKID),auto)
HAVE_BLKID := $(call try-lib,blkid,blkid/blkid.h)
endif
ifeq ($(HAVE_XLSX),auto)
HAVE_XLSX := $(call try-lib,xlsxwriter,xlsxwriter.h)
endif
# the results history's file (storbench history, --db; docs/history.md)
ifeq ($(HAVE_SQLITE),auto)
HAVE_SQLITE := $(call try-lib,sqlite3,sqlite3.h)
endif
# a lab's history on a PostgreSQL server (--db=postgresql://...): libpq,
# whose header Debian keeps in its own folder
ifneq ($(HAVE_PQ),0)
PQ_CPPFLAGS := $(if $(FOREIGN),,$(shell $(PKG_CONFIG) --cflags-only-I libpq 2>/dev/null))
endif
ifeq ($(HAVE_PQ),auto)
HAVE_PQ := $(shell printf '\043include <libpq-fe.h>\nint main(void){return 0;}\n' | \
	$(CC) $(CPPFLAGS) $(PQ_CPPFLAGS) -x c - -o /dev/null $(LDFLAGS) -lpq >/dev/null 2>&1 && echo 1 || echo 0)
endif
# xxHash is used header-only (XXH_INLINE_ALL): no library to link
try-header = $(shell printf '#include <$(1)>\nint main(void){return 0;}\n' | \
	$(CC) $(CPPFLAGS) -x c - -o /dev/null >/dev/null 2>&1 && echo 1 || echo 0)
ifeq ($(HAVE_XXHASH),auto)
HAVE_XXHASH := $(call try-header,xxhash.h)
endif
FEATURES :=
ifeq ($(HAVE_URING),1)
CPPFLAGS += -DHAVE_URING=1
LDLIBS += -luring
FEATURES += io_uring
endif
ifeq ($(HAVE_AIO),1)
CPPFLAGS += -DHAVE_AIO=1
LDLIBS += -laio
FEATURES += libaio
endif
ifeq ($(HAVE_BLKID),1)
CPPFLAGS += -DHAVE_BLKID=1
LDLIBS += -lblkid
FEATURES += blkid
endif
ifeq ($(HAVE_XLSX),1)
CPPFLAGS += -DHAVE_XLSX=1
LDLIBS += -lxlsxwriter
FEATURES += xlsx
endif
ifeq ($(HAVE_SQLITE),1)
CPPFLAGS += -DHAVE_SQLITE=1
LDLIBS += -lsqlite3 -lm
FEATURES += sqlite
endif
ifeq ($(HAVE_PQ),1)
CPPFLAGS += -DHAVE_PQ=1 $(PQ_CPPFLAGS)
LDLIBS += -lpq
FEATURES += postgresql
endif
ifeq ($(HAVE_XXHASH),1)
CPPFLAGS += -DHAVE_XXHASH=1
FEATURES += xxhash
endif
ifeq ($(MPI),1)
ifeq ($(shell command -v $(MPICC) 2>/dev/null),)
$(error MPI=1: no $(MPICC) (Debian: scripts/install-deps --mpi installs openmpi-bin libopenmpi-dev))
endif
CPPFLAGS += -DHAVE_MPI=1
FEATURES += mpi
endif

BUILD ?= build$(if $(FOREIGN),-$(TARGET))$(if $(filter 1,$(SMALL)),-small)$(if $(filter 1,$(MPI)),-mpi)
# musl's specs hide the kernel's headers (linux/, asm/), which Debian keeps
# beside glibc's: a folder of links to just those, found by the glibc gcc.
ifeq ($(LIBC),musl)
ifeq ($(call try-header,linux/fs.h),0)
kernel-dir = $(patsubst %/$(1),%,$(filter %/$(1),$(shell echo '#include <$(1)>' | \
	$(CROSS_COMPILE)gcc -E -M -x c - 2>/dev/null)))
KERNEL_HDRS := $(BUILD)/kernel-headers
KERNEL_INC := $(call kernel-dir,linux/fs.h)
KERNEL_ASM := $(call kernel-dir,asm/ioctl.h)/asm
CPPFLAGS += -isystem $(KERNEL_HDRS)
endif
endif
# V=1 shows the full commands
Q := $(if $(filter 1,$(V)),,@)
say = $(if $(Q),@printf '  %-6s %s\n' $(1) $(2);)
# lib/coord/: one of its twins, Open MPI's or the single process's
LIB_SRC := $(filter-out lib/coord/coord_$(if $(filter 1,$(MPI)),single,mpi).c,$(sort $(wildcard lib/*/*.c)))
REPORT_SRC := $(sort $(wildcard report/*.c))
CLI_SRC := $(sort $(wildcard cli/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
REPORT_OBJ := $(REPORT_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o)
# the built-in plans (storbench plan NAME): plans/*.ini compiled in
PLANS := $(sort $(wildcard plans/*.ini))
CLI_OBJ += $(BUILD)/gen/plan_builtins.o
UNIT_SRC := $(sort $(wildcard tests/unit/*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
# TESTS="name ..." (make check-only runs only those): only their programs
ifneq ($(strip $(TESTS)),)
UNIT_BIN := $(filter $(addprefix $(BUILD)/tests/,$(TESTS)),$(UNIT_BIN))
endif
TESTLIB_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/lib/*.c))
# helper programs the CLI tests run (tests/tools/NAME.c -> $(BUILD)/tools/NAME)
TOOL_BIN := $(patsubst tests/tools/%.c,$(BUILD)/tools/%,$(wildcard tests/tools/*.c))
# Debian ships libcmocka as a shared library only: the unit test programs are
# linked dynamically even in a static build (qemu-user finds the target's
# loader and libraries in the multiarch folders)
TEST_LDFLAGS = $(filter-out -static,$(LDFLAGS))

# the native build's binary stays ./storbench; any other is kept in its folder
PROG ?= $(if $(filter build,$(BUILD)),storbench,$(BUILD)/storbench)

all: $(PROG) $(if $(FOREIGN),,$(BUILD)/storbench.1)

# The manual page, made from the commands' own --help by running the
# program (native builds only: a foreign binary cannot run here).
$(BUILD)/storbench.1: $(PROG) scripts/gen-man
	$(call say,MAN,$@)
	$(Q)scripts/gen-man ./$(PROG) $(VERSION) > $@.tmp && mv $@.tmp $@
man: $(BUILD)/storbench.1

# make install [PREFIX=/usr/local] [DESTDIR=]: the program, its manual and
# the built-in plans as files to copy and change (the program has them in it)
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
PLANDIR ?= $(PREFIX)/share/storbench/plans
install: $(PROG) $(if $(FOREIGN),,$(BUILD)/storbench.1)
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 $(PROG) $(DESTDIR)$(BINDIR)/storbench
	install -d $(DESTDIR)$(PLANDIR)
	install -m 644 $(PLANS) $(DESTDIR)$(PLANDIR)
	$(if $(FOREIGN),@echo "  a binary for $(TARGET): no manual page (make install natively for it)", \
		install -d $(DESTDIR)$(MANDIR)/man1 && install -m 644 $(BUILD)/storbench.1 $(DESTDIR)$(MANDIR)/man1/storbench.1)
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/storbench $(DESTDIR)$(MANDIR)/man1/storbench.1
	rm -f $(addprefix $(DESTDIR)$(PLANDIR)/,$(notdir $(PLANS)))

$(PROG): $(BUILD)/libsbreport.a $(BUILD)/libstorbench.a $(CLI_OBJ)
	$(call say,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(BUILD)/libsbreport.a $(BUILD)/libstorbench.a $(LDLIBS)

# lib/: libstorbench, the library; report/: the renderers of results files
$(BUILD)/libstorbench.a: $(LIB_OBJ)
	@rm -f $@
	$(call say,AR,$@)
	$(Q)$(CROSS_COMPILE)ar rcs $@ $^

$(BUILD)/libsbreport.a: $(REPORT_OBJ)
	@rm -f $@
	$(call say,AR,$@)
	$(Q)$(CROSS_COMPILE)ar rcs $@ $^

# Flags go into a stamp so that changing a knob rebuilds everything.
$(BUILD)/flags: FORCE
	@mkdir -p $(BUILD)
	$(if $(KERNEL_HDRS),@mkdir -p $(KERNEL_HDRS) && ln -sfn $(KERNEL_INC)/linux $(KERNEL_HDRS)/linux && \
		ln -sfn $(KERNEL_INC)/asm-generic $(KERNEL_HDRS)/asm-generic && \
		ln -sfn $(KERNEL_ASM) $(KERNEL_HDRS)/asm)
	@echo '$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $(LDLIBS)' | cmp -s - $@ || \
		echo '$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $(LDLIBS)' > $@

$(BUILD)/gen/plan_builtins.c: $(PLANS) scripts/gen-plans
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)
	$(Q)scripts/gen-plans $(PLANS) > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/plan_builtins.o: $(BUILD)/gen/plan_builtins.c cli/plan_builtin.h $(BUILD)/flags
	$(call say,CC,$<)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/%.o: %.c $(BUILD)/flags
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -DSB_FEATURES='"$(strip $(FEATURES))"' -MMD -MP -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libsbreport.a $(BUILD)/libstorbench.a $(TESTLIB_OBJ)
	@mkdir -p $(dir $@)
	$(call say,TEST,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(TEST_LDFLAGS) -o $@ $< $(TESTLIB_OBJ) $(BUILD)/libsbreport.a $(BUILD)/libstorbench.a $(LDLIBS) -lcmocka

$(BUILD)/tools/%: tests/tools/%.c $(BUILD)/flags
	@mkdir -p $(dir $@)
	$(call say,TOOL,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $<

tests: $(UNIT_BIN) $(PROG) $(TOOL_BIN) $(if $(FOREIGN),,$(BUILD)/storbench.1)

# The static programs the QEMU guests run (tests/cli/vm-x86.sh, vm-arm.sh,
# docs/testing.md), each in a build folder of its own: built beside the
# tests by the native build where QEMU (and for the board the armhf cross
# compiler) is installed, when the tests to run include them; the guest
# tests build them too when they are missing.
have = $(shell command -v $(1) 2>/dev/null)
ifeq ($(BUILD)$(FOREIGN)$(filter 1,$(STATIC) $(SANITIZE) $(SMALL)),build)
ifneq ($(if $(strip $(TESTS)),$(filter vm-%,$(TESTS)),all),)
VM_PROGS += $(if $(call have,qemu-system-x86_64),vm-static)
VM_PROGS += $(if $(call have,qemu-system-arm),$(if $(call have,arm-linux-gnueabihf-gcc),vm-static-arm))
endif
endif
# The README's two commands: each installs what it needs first (as root; a
# user is told the apt-get line), then builds and runs.
deps:
	@scripts/install-deps
deps-test:
	@scripts/install-deps --test

check: deps-test
	@$(MAKE) --no-print-directory tests $(VM_PROGS)
	@BUILD=$(BUILD) SB_BIN=$(abspath $(PROG)) tests/run-tests.py

# Run the tests without the dependency check (e.g. a second build dir).
check-only: tests $(VM_PROGS)
	@BUILD=$(BUILD) SB_BIN=$(abspath $(PROG)) tests/run-tests.py

vm-static:
	@$(MAKE) --no-print-directory STATIC=1 BUILD=build-static PROG=build-static/storbench \
		build-static/storbench
vm-static-arm:
	@$(MAKE) --no-print-directory CROSS_COMPILE=arm-linux-gnueabihf- STATIC=1 \
		BUILD=build-arm-linux-gnueabihf PROG=build-arm-linux-gnueabihf/storbench \
		build-arm-linux-gnueabihf/storbench

quick: deps
	@$(MAKE) --no-print-directory $(PROG)
	./$(PROG) quick $(QUICK_ARGS) .

small:
	@$(MAKE) --no-print-directory SMALL=1

# Static aarch64 and armhf builds run under qemu-user, and static musl ones
# (this machine's, and for CROSS_MUSL where Debian's musl-dev for it is
# installed): unit tests and a CLI smoke test (tests/cross/run.sh), then the
# sizes of those binaries and of the small ones (-Os, held to WERROR too).
CROSS_TARGETS ?= aarch64-linux-gnu arm-linux-gnueabihf
CROSS_MUSL ?= aarch64-linux-gnu
check-cross:
	@scripts/install-deps --cross
	@$(MAKE) --no-print-directory cross-builds
	@$(MAKE) --no-print-directory cross-run

# check-cross in two halves: every build (cross-builds), then the tests
# under qemu-user and the sizes (cross-run)
cross-builds:
	@for t in $(CROSS_TARGETS); do \
		$(MAKE) --no-print-directory CROSS_COMPILE=$$t- STATIC=1 cross-build || exit 1; \
		$(MAKE) --no-print-directory CROSS_COMPILE=$$t- STATIC=1 SMALL=1 || exit 1; \
	done
	@$(MAKE) --no-print-directory MUSL=1 STATIC=1 cross-build
	@$(MAKE) --no-print-directory MUSL=1 STATIC=1 SMALL=1
	@for t in $(CROSS_MUSL); do \
		m=$$(echo $$t | sed 's/-gnu/-musl/'); \
		if [ ! -f /usr/lib/$$m/musl-gcc.specs ]; then \
			echo "  no musl for $$t (musl-dev of its architecture): left out"; continue; fi; \
		$(MAKE) --no-print-directory CROSS_COMPILE=$$t- MUSL=1 STATIC=1 cross-build || exit 1; \
		$(MAKE) --no-print-directory CROSS_COMPILE=$$t- MUSL=1 STATIC=1 SMALL=1 || exit 1; \
	done

cross-run:
	@targets="$(CROSS_TARGETS) $$(uname -m)-linux-musl"; \
	for t in $(CROSS_MUSL); do \
		[ -f /usr/lib/$$(echo $$t | sed 's/-gnu/-musl/')/musl-gcc.specs ] && \
			targets="$$targets $$(echo $$t | sed 's/-gnu/-musl/')"; \
	done; \
	tests/cross/run.sh $$targets

# What check-cross builds for one target: the binary, the helpers, and the
# unit tests where libcmocka is installed for that target.
have-cmocka = printf '\#include <stdarg.h>\n\#include <stddef.h>\n\#include <stdint.h>\n\#include <setjmp.h>\n\#include <cmocka.h>\nint main(void){return 0;}\n' | \
	$(CC) -x c - -o /dev/null $(TEST_LDFLAGS) -lcmocka >/dev/null 2>&1
cross-build: $(PROG) $(TOOL_BIN)
	@if $(have-cmocka); then $(MAKE) -s --no-print-directory $(UNIT_BIN); \
	else rm -rf $(BUILD)/tests; echo "  no libcmocka for $(TARGET): unit tests left out"; fi

# libFuzzer (clang) with ASan and UBSan on the JSON reader, on its reading
# of a document in pieces (json_split: against the whole parse), and on the
# fio job-file reader (with the engine registry, for ioengine=), on the
# spo journal reader, on a soak log's line check, its typed readers and
# the kernel line parser (soak-log), on a result's verify section read
# back (verify-read), on a verify state file (verify-state, fio's
# verify_state_load), on a result's jobs and header through their typed
# reader (results-read), and on the methods' typed readers of their
# results sections (sections: pts, cliff, flash, sweep, meta, latency,
# spo, a line of spo --cycles's log, a plan's result; the rest of the library from
# $(BUILD)/libstorbench.a), on the plan reader (plan: lib/plan's parse
# and figures), on the history's reading of a result, storbench's or
# fio's (history-rec), on a plan's journal read by lib/plan and reported
# alone by report/plan_load.c (plan-journal), FUZZ_TIME
# seconds each, from their corpora; new inputs and crashes stay in
# $(BUILD)/fuzz/ (the other readers' crashes as json-split-*, jobfile-*).
FUZZ_CC ?= clang
FUZZ_TIME ?= 60
FUZZ_CFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
fuzz: $(BUILD)/libstorbench.a $(BUILD)/libsbreport.a
	@mkdir -p $(BUILD)/fuzz/corpus $(BUILD)/fuzz/corpus-split $(BUILD)/fuzz/corpus-jobfile \
		$(BUILD)/fuzz/corpus-spo-journal $(BUILD)/fuzz/corpus-soak-log $(BUILD)/fuzz/corpus-iolog \
		$(BUILD)/fuzz/corpus-verify-read $(BUILD)/fuzz/corpus-results-read \
		$(BUILD)/fuzz/corpus-sections $(BUILD)/fuzz/corpus-plan $(BUILD)/fuzz/corpus-history-rec \
		$(BUILD)/fuzz/corpus-plan-journal $(BUILD)/fuzz/corpus-verify-state
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(CPPFLAGS) -o $(BUILD)/fuzz/json-read tests/fuzz/fuzz-json-read.c \
		lib/json/json_read.c lib/json/json_access.c -lm
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(CPPFLAGS) -o $(BUILD)/fuzz/json-split tests/fuzz/fuzz-json-split.c \
		lib/json/json_split.c lib/json/json_read.c lib/json/json_access.c -lm
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(CPPFLAGS) -o $(BUILD)/fuzz/jobfile tests/fuzz/fuzz-jobfile.c \
		lib/job/jobfile_parse.c lib/job/jobfile_opts.c lib/job/iolog.c lib/job/job.c lib/job/fio_names.c lib/job/offsets.c lib/job/buffer.c lib/base/units.c lib/base/error.c $(filter lib/engine/%,$(LIB_SRC)) $(LDLIBS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(CPPFLAGS) -o $(BUILD)/fuzz/iolog tests/fuzz/fuzz-iolog.c \
		lib/job/iolog.c
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(CPPFLAGS) -o $(BUILD)/fuzz/spo-journal tests/fuzz/fuzz-spo-journal.c \
		lib/spo/spo_journal.c
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(CPPFLAGS) -o $(BUILD)/fuzz/soak-log tests/fuzz/fuzz-soak-log.c \
		lib/soak/soak_check.c lib/soak/soak_read.c lib/device/kmsg.c lib/device/kmsg_stack.c \
		lib/device/sysfs.c lib/target/cache.c lib/json/json_read.c lib/json/json_access.c \
		lib/json/json_write.c lib/analysis/anomalies.c lib/analysis/robust.c \
		lib/soak/soak_verdict.c lib/verify/block.c lib/verify/crc32c.c lib/verify/ranges.c \
		lib/verify/verify_range_json.c lib/soak/soak_record.c lib/sweep/plan.c \
		lib/stats/hist.c lib/base/error.c -lm
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(CPPFLAGS) -o $(BUILD)/fuzz/verify-state tests/fuzz/fuzz-verify-state.c \
		lib/verify/verify_state.c lib/verify/block.c lib/verify/crc32c.c lib/base/outfile.c \
		lib/base/units.c lib/base/fileread.c
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(CPPFLAGS) -o $(BUILD)/fuzz/verify-read tests/fuzz/fuzz-verify-read.c \
		lib/verify/verify_read.c lib/verify/block.c lib/verify/crc32c.c lib/verify/ranges.c \
		lib/base/error.c \
		lib/json/json_read.c lib/json/json_access.c -lm
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(CPPFLAGS) -o $(BUILD)/fuzz/sections tests/fuzz/fuzz-sections.c \
		lib/pts/pts_read.c lib/cliff/cliff_read.c lib/flash/flash_read.c \
		lib/sweep/sweep_read.c lib/meta/meta_read.c lib/latency/lat_read.c lib/spo/spo_read.c \
		lib/results/clients_read.c \
		lib/spo/spo_cycles_read.c lib/plan/plan_read.c lib/plan/plan_json.c \
		lib/json/json_take.c lib/json/json_items.c lib/json/json_read.c \
		lib/json/json_access.c $(BUILD)/libstorbench.a $(LDLIBS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(CPPFLAGS) -o $(BUILD)/fuzz/results-read \
		tests/fuzz/fuzz-results-read.c lib/results/results_read.c lib/results/clients_read.c \
		lib/json/json_walk.c lib/base/error.c \
		lib/device/health_read.c lib/json/json_take.c \
		lib/json/json_read.c lib/json/json_access.c -lm
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(CPPFLAGS) -o $(BUILD)/fuzz/plan tests/fuzz/fuzz-plan.c \
		lib/plan/plan_parse.c lib/plan/plan_figures.c lib/plan/plan_check.c \
		$(BUILD)/libstorbench.a $(LDLIBS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(CPPFLAGS) -o $(BUILD)/fuzz/history-rec tests/fuzz/fuzz-history-rec.c \
		lib/history/history_rec.c lib/plan/plan_figures.c lib/json/json_take.c \
		lib/json/json_read.c lib/json/json_access.c lib/results/results_read.c \
		$(BUILD)/libstorbench.a $(LDLIBS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(CPPFLAGS) -o $(BUILD)/fuzz/plan-journal \
		tests/fuzz/fuzz-plan-journal.c lib/plan/plan_journal.c report/plan_load.c \
		lib/json/json_read.c lib/json/json_access.c \
		$(BUILD)/libsbreport.a $(BUILD)/libstorbench.a $(LDLIBS)
	$(BUILD)/fuzz/json-read -max_total_time=$(FUZZ_TIME) -max_len=65536 \
		-artifact_prefix=$(BUILD)/fuzz/ $(BUILD)/fuzz/corpus tests/fuzz/corpus/json-read
	$(BUILD)/fuzz/json-split -max_total_time=$(FUZZ_TIME) -max_len=65536 \
		-artifact_prefix=$(BUILD)/fuzz/json-split- $(BUILD)/fuzz/corpus-split \
		tests/fuzz/corpus/json-read
	$(BUILD)/fuzz/jobfile -max_total_time=$(FUZZ_TIME) -max_len=12288 \
		-artifact_prefix=$(BUILD)/fuzz/jobfile- $(BUILD)/fuzz/corpus-jobfile \
		tests/fuzz/corpus/jobfile
	$(BUILD)/fuzz/iolog -max_total_time=$(FUZZ_TIME) -max_len=16384 \
		-artifact_prefix=$(BUILD)/fuzz/iolog- $(BUILD)/fuzz/corpus-iolog \
		tests/fuzz/corpus/iolog
	$(BUILD)/fuzz/spo-journal -max_total_time=$(FUZZ_TIME) -max_len=8192 \
		-artifact_prefix=$(BUILD)/fuzz/spo-journal- $(BUILD)/fuzz/corpus-spo-journal \
		tests/fuzz/corpus/spo-journal
	$(BUILD)/fuzz/soak-log -max_total_time=$(FUZZ_TIME) -max_len=8192 \
		-artifact_prefix=$(BUILD)/fuzz/soak-log- $(BUILD)/fuzz/corpus-soak-log \
		tests/fuzz/corpus/soak-log
	$(BUILD)/fuzz/sections -max_total_time=$(FUZZ_TIME) -max_len=65536 \
		-artifact_prefix=$(BUILD)/fuzz/sections- $(BUILD)/fuzz/corpus-sections \
		tests/fuzz/corpus/sections
	$(BUILD)/fuzz/verify-state -max_total_time=$(FUZZ_TIME) -max_len=8192 \
		-artifact_prefix=$(BUILD)/fuzz/verify-state- $(BUILD)/fuzz/corpus-verify-state \
		tests/fuzz/corpus/verify-state
	$(BUILD)/fuzz/verify-read -max_total_time=$(FUZZ_TIME) -max_len=8192 \
		-artifact_prefix=$(BUILD)/fuzz/verify-read- $(BUILD)/fuzz/corpus-verify-read \
		tests/fuzz/corpus/verify-read
	$(BUILD)/fuzz/results-read -max_total_time=$(FUZZ_TIME) -max_len=65536 \
		-artifact_prefix=$(BUILD)/fuzz/results-read- $(BUILD)/fuzz/corpus-results-read \
		tests/fuzz/corpus/results-read
	$(BUILD)/fuzz/plan -max_total_time=$(FUZZ_TIME) -max_len=8192 \
		-artifact_prefix=$(BUILD)/fuzz/plan- $(BUILD)/fuzz/corpus-plan tests/fuzz/corpus/plan
	$(BUILD)/fuzz/history-rec -max_total_time=$(FUZZ_TIME) -max_len=16384 \
		-artifact_prefix=$(BUILD)/fuzz/history-rec- $(BUILD)/fuzz/corpus-history-rec \
		tests/fuzz/corpus/history-rec
	$(BUILD)/fuzz/plan-journal -max_total_time=$(FUZZ_TIME) -max_len=8192 \
		-artifact_prefix=$(BUILD)/fuzz/plan-journal- $(BUILD)/fuzz/corpus-plan-journal \
		tests/fuzz/corpus/plan-journal

clean:
	rm -rf build build-* storbench

FORCE:
.SECONDARY:
.PHONY: all man install uninstall tests check check-only vm-static vm-static-arm check-cross cross-builds cross-run cross-build quick deps deps-test clean small fuzz FORCE
-include $(LIB_OBJ:.o=.d) $(REPORT_OBJ:.o=.d) $(CLI_OBJ:.o=.d)

# The FUSE file systems the tests use as devices (faultfs: faults for the
# verify tests; one file per fixture in tests/fixtures/*.c): native builds
# with libfuse3 only (the tests that need them skip without it).
FUSE_LIBS := $(if $(FOREIGN)$(CROSS_COMPILE)$(filter 1,$(STATIC)),,$(shell $(PKG_CONFIG) --libs fuse3 2>/dev/null))
FIXTURE_BIN := $(patsubst tests/fixtures/%.c,$(BUILD)/fixtures/%,$(wildcard tests/fixtures/*.c))
ifneq ($(FUSE_LIBS),)
tests: $(FIXTURE_BIN)
$(BUILD)/fixtures/%: tests/fixtures/%.c $(BUILD)/flags
	@mkdir -p $(dir $@)
	$(call say,FUSE,$@)
	$(Q)$(CC) $(CPPFLAGS) $(shell $(PKG_CONFIG) --cflags fuse3) $(CFLAGS) -o $@ $< $(FUSE_LIBS) -lpthread -lm
endif

# The LD_PRELOAD device emulators (tests/preload/NAME.c, e.g. devemu.c: an
# eMMC's commands answered on a loop or zram device): dynamic native builds
# only; the tests that need them skip without them. Built without
# _FILE_OFFSET_BITS, so that their open and open64 are the two symbols
# they name.
ifeq ($(FOREIGN)$(filter 1,$(STATIC)),)
tests: $(patsubst tests/preload/%.c,$(BUILD)/preload/%.so,$(wildcard tests/preload/*.c))
$(BUILD)/preload/%.so: tests/preload/%.c tests/preload/emu.h $(BUILD)/flags
	@mkdir -p $(dir $@)
	$(call say,SO,$@)
	$(Q)$(CC) -D_GNU_SOURCE -std=gnu11 $(WARN) $(filter -Werror,$(CFLAGS)) -O2 -g -fPIC -shared -o $@ $< -ldl
endif
