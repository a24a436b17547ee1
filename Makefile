# storbench: plain GNU make.
# Knobs: HAVE_URING, HAVE_AIO, HAVE_BLKID, HAVE_XLSX, HAVE_XXHASH
#        = auto (detect) | 1 (insist: the build fails without it) | 0 (leave out)
#        CROSS_COMPILE=aarch64-linux-gnu-  STATIC=1  SMALL=1  SANITIZE=1  WERROR=1
VERSION := 0.1.0

CROSS_COMPILE ?=
CC := $(CROSS_COMPILE)$(if $(filter default,$(origin CC)),gcc,$(CC))
PKG_CONFIG ?= pkg-config

HAVE_URING ?= auto
HAVE_AIO ?= auto
HAVE_BLKID ?= auto
HAVE_XLSX ?= auto
HAVE_XXHASH ?= auto

WARN := -Wall -Wextra -Wshadow -Wformat=2 -Wpointer-arith -Wstrict-prototypes \
        -Wmissing-prototypes -Wvla -Wno-unused-parameter
OPT := -O2 -g
ifeq ($(SMALL),1)
OPT := -Os
endif
CFLAGS ?= $(OPT)
CPPFLAGS += -I. -D_GNU_SOURCE -DSB_VERSION=\"$(VERSION)\"
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
LDFLAGS += -static
endif
ifeq ($(SMALL),1)
LDFLAGS += -s
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
ifeq ($(HAVE_XXHASH),1)
CPPFLAGS += -DHAVE_XXHASH=1
FEATURES += xxhash
endif

BUILD ?= build
# V=1 shows the full commands
Q := $(if $(filter 1,$(V)),,@)
say = $(if $(Q),@printf '  %-6s %s\n' $(1) $(2);)
LIB_SRC := $(sort $(wildcard lib/*/*.c))
CLI_SRC := $(sort $(wildcard cli/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC := $(sort $(wildcard tests/unit/*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
TESTLIB_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/lib/*.c))

PROG ?= storbench

all: $(PROG)

$(PROG): $(BUILD)/libstorbench.a $(CLI_OBJ)
	$(call say,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(BUILD)/libstorbench.a $(LDLIBS)

$(BUILD)/libstorbench.a: $(LIB_OBJ)
	@rm -f $@
	$(call say,AR,$@)
	$(Q)$(CROSS_COMPILE)ar rcs $@ $^

# Flags go into a stamp so that changing a knob rebuilds everything.
$(BUILD)/flags: FORCE
	@mkdir -p $(BUILD)
	@echo '$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $(LDLIBS)' | cmp -s - $@ || \
		echo '$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $(LDLIBS)' > $@

$(BUILD)/%.o: %.c $(BUILD)/flags
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -DSB_FEATURES='"$(strip $(FEATURES))"' -MMD -MP -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libstorbench.a $(TESTLIB_OBJ)
	@mkdir -p $(dir $@)
	$(call say,TEST,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(TESTLIB_OBJ) $(BUILD)/libstorbench.a $(LDLIBS) -lcmocka

tests: $(UNIT_BIN) $(PROG)

# The README's two commands: each installs what it needs first (as root; a
# user is told the apt-get line), then builds and runs.
deps:
	@scripts/install-deps
deps-test:
	@scripts/install-deps --test

check: deps-test
	@$(MAKE) --no-print-directory tests
	@BUILD=$(BUILD) SB_BIN=$(abspath $(PROG)) tests/run-tests.sh

# Run the tests without the dependency check (e.g. a second build dir).
check-only: tests
	@BUILD=$(BUILD) SB_BIN=$(abspath $(PROG)) tests/run-tests.sh

quick: deps
	@$(MAKE) --no-print-directory $(PROG)
	./$(PROG) quick $(QUICK_ARGS) .

small:
	$(MAKE) SMALL=1 BUILD=build-small

clean:
	rm -rf build build-* storbench

FORCE:
.SECONDARY:
.PHONY: all tests check check-only quick deps deps-test clean small FORCE
-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d)
