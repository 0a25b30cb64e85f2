# SPDX-License-Identifier: GPL-2.0
#
# numagpu top-level build.
#
#   make               module, libngemu, ngemu and the selftests
#   make check         every test (user space, sanitizers, style, VM); ends
#                      with "N passed, N failed, N skipped"
#   make check-debug   the kselftests on a KASAN + lockdep 6.1 kernel (slow)
#   make V=1           show the commands
#   make BUILD=dir     user-space outputs in dir (default: build)
#   make KDIR=... KVER=...  build the module against other kernel headers
#   make version | dist   print the version | tar the committed tree
#   make install PREFIX=dir  ngemu, libngemu.a, libngemu-cli.a, headers,
#                      ngemu.pc (DESTDIR too)
#   make dkms-install  the module's sources under DKMS (rebuilt per kernel)
#
# The module (Kbuild) builds in the source tree: Kbuild for external modules
# has no separate output directory on 6.1.

BUILD   ?= build
KFILES  ?= build/kernel-files
KVER    ?= $(shell tools/kver.sh)
KDIR    ?= /lib/modules/$(KVER)/build
SAN     ?= 0
OBJ     := $(BUILD)/obj

VERSION := $(shell sed -n 's/^\#define NUMAGPU_VERSION_\(MAJOR\|MINOR\|PATCH\)[[:space:]]*\([0-9]*\)/\2/p' include/uapi/linux/numagpu.h | paste -sd.)

ifeq ($(V),1)
Q :=
else
Q := @
MAKEFLAGS += --no-print-directory
endif

CC      ?= cc
CFLAGS  ?= -O2 -g
NG_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow \
	-Wformat=2 -Wstrict-prototypes -Wmissing-prototypes -pthread \
	-Iinclude/uapi -Iuser/include -Iuser/lib -MMD -MP
# Each function's loops at the same offset from a host cache line whatever
# code comes before it: without this an unrelated change moves the native
# triad's loop and the emulated / native ratio by 10-15%.
NG_CFLAGS += -falign-functions=64
ifeq ($(SAN),1)
# ASan cannot be linked statically
NG_CFLAGS += -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
NG_LDFLAGS := -fsanitize=address,undefined -pthread
else
# static, so the same binaries run in the VM's bare initramfs
NG_LDFLAGS := -static -pthread
endif
LDLIBS  := -lnuma -luring -lm

# a paper's preset (user/papers/NAME/preset.c) is the library's, as
# ng_config_preset() is; the rest of a paper (NAME.c, ngemu/paper.h) is
# the command line's
PRESET_SRCS  := $(sort $(wildcard user/papers/*/preset.c))
LIB_SRCS     := $(sort $(shell find user/lib -name '*.c')) $(PRESET_SRCS)
PAPER_SRCS   := $(filter-out $(PRESET_SRCS),$(sort $(shell find user/papers -name '*.c')))
NGEMU_SRCS   := $(sort $(shell find user/ngemu -name '*.c')) $(PAPER_SRCS)
# the command line but its main(): ng_main() for programs of one's own
CLI_SRCS     := $(filter-out user/ngemu/ngemu.c,$(NGEMU_SRCS))
UTEST_SRCS   := $(wildcard user/tests/*.c)
# *_m32_test.c: 32-bit clients, from the uapi header alone (gcc -m32)
KSFT_SRCS    := $(filter-out %_m32_test.c,$(wildcard selftests/numagpu/*.c))
KSFT_M32     := $(patsubst selftests/numagpu/%.c,$(BUILD)/selftests/numagpu/%,\
		$(wildcard selftests/numagpu/*_m32_test.c))

LIB_OBJS     := $(LIB_SRCS:%.c=$(OBJ)/%.o)
NGEMU_OBJS   := $(NGEMU_SRCS:%.c=$(OBJ)/%.o)
CLI_OBJS     := $(CLI_SRCS:%.c=$(OBJ)/%.o)
LIB          := $(BUILD)/libngemu.a
CLI_LIB      := $(BUILD)/libngemu-cli.a
NGEMU        := $(BUILD)/ngemu
UTESTS       := $(UTEST_SRCS:user/tests/%.c=$(BUILD)/tests/%)
KSFTS        := $(KSFT_SRCS:selftests/numagpu/%.c=$(BUILD)/selftests/numagpu/%)
KSFT_HDR     := $(KFILES)/kselftest_harness.h
KO           := numagpu.ko
KMOD_SRCS    := Kbuild $(wildcard kmod/*.c kmod/*.h) include/uapi/linux/numagpu.h

.PHONY: all module user tests selftests check check-user check-vm \
	check-style vm-shell version dist clean help kernel-files install
.DEFAULT_GOAL := all

all: module user tests selftests

help:
	@sed -n '3,15s/^# \{0,1\}//p' Makefile

version:
	@echo $(VERSION)

# The committed tree, named after the version in the uapi header.
dist:
	$(Q)mkdir -p $(BUILD)
	$(Q)git archive --format=tar.gz --prefix=numagpu-$(VERSION)/ \
		-o $(BUILD)/numagpu-$(VERSION).tar.gz HEAD
	@echo $(BUILD)/numagpu-$(VERSION).tar.gz

# libngemu for programs of one's own (examples/): the static libraries
# (libngemu-cli.a: the command line as ng_main()), the public headers (and
# the uapi header they include), pkg-config's file.
PREFIX  ?= /usr/local
INSTALL_DIR = $(DESTDIR)$(PREFIX)
PUB_HDRS := $(shell find user/include/ngemu -name '*.h')

install: user
	$(Q)install -d $(INSTALL_DIR)/bin $(INSTALL_DIR)/lib/pkgconfig \
		$(INSTALL_DIR)/include/linux $(INSTALL_DIR)/share/man/man1 \
		$(INSTALL_DIR)/share/ngemu/reproduce
	$(Q)install -m 755 $(NGEMU) $(INSTALL_DIR)/bin/ngemu
	$(Q)install -m 644 $(BUILD)/ngemu.1 $(INSTALL_DIR)/share/man/man1/ngemu.1
	$(Q)for d in user/papers/*/; do \
		p=$$(basename "$$d"); \
		install -m 644 "$$d/reproduce.txt" \
			$(INSTALL_DIR)/share/ngemu/reproduce/$$p.txt || exit 1; \
	done
	$(Q)install -m 644 $(LIB) $(INSTALL_DIR)/lib/libngemu.a
	$(Q)install -m 644 $(CLI_LIB) $(INSTALL_DIR)/lib/libngemu-cli.a
	$(Q)for h in $(PUB_HDRS); do \
		d=$(INSTALL_DIR)/include/$${h#user/include/}; \
		install -d "$${d%/*}" && install -m 644 "$$h" "$$d" || exit 1; \
	done
	$(Q)install -m 644 include/uapi/linux/numagpu.h $(INSTALL_DIR)/include/linux/
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' \
		user/ngemu.pc.in > $(INSTALL_DIR)/lib/pkgconfig/ngemu.pc
	@echo "installed in $(INSTALL_DIR)"

# DKMS: the module's sources and dkms.conf in /usr/src/numagpu-VERSION
# (DKMS_SRC), then added to DKMS and built and installed for DKMS_KVERS.
DKMS_SRC   ?= $(DESTDIR)/usr/src/numagpu-$(VERSION)
DKMS_KVERS ?= $(KVER)
.PHONY: dkms-source dkms-install dkms-uninstall
dkms-source:
	$(Q)install -d $(DKMS_SRC)/kmod $(DKMS_SRC)/include/uapi/linux
	$(Q)install -m 644 Kbuild $(DKMS_SRC)/
	$(Q)install -m 644 kmod/*.c kmod/*.h $(DKMS_SRC)/kmod/
	$(Q)install -m 644 include/uapi/linux/numagpu.h $(DKMS_SRC)/include/uapi/linux/
	$(Q)sed 's|@VERSION@|$(VERSION)|' dkms.conf.in > $(DKMS_SRC)/dkms.conf
	@echo "module sources in $(DKMS_SRC)"

dkms-install: dkms-source
	$(Q)dkms status -m numagpu -v $(VERSION) | grep -q . || \
		dkms add -m numagpu -v $(VERSION)
	$(Q)for k in $(DKMS_KVERS); do \
		dkms install -m numagpu -v $(VERSION) -k $$k || exit 1; \
	done

dkms-uninstall:
	$(Q)dkms remove -m numagpu -v $(VERSION) --all
	$(Q)rm -rf $(DKMS_SRC)

module: $(KO)
$(KO): $(KMOD_SRCS)
	@test -f $(KDIR)/Makefile || { echo "no kernel headers at $(KDIR): run tools/install-deps.sh or set KDIR" >&2; exit 1; }
	$(Q)$(MAKE) -C $(KDIR) M=$(CURDIR) $(if $(filter 1,$(V)),V=1) modules

user: $(LIB) $(CLI_LIB) $(NGEMU) $(BUILD)/ngemu.1

# the man page, with the version of the tree
# its PAPERS section is what the papers' registry says (config --papers)
$(BUILD)/ngemu.1: user/ngemu/ngemu.1.in include/uapi/linux/numagpu.h $(NGEMU)
	$(Q)mkdir -p $(@D)
	$(Q)$(NGEMU) config --papers | sed 's/\\/\\\\/g; s/-/\\-/g; s/^\./\\\&./' > $@.papers
	$(Q)sed -e 's|@VERSION@|$(VERSION)|' -e '/^@PAPERS@$$/{r $@.papers' -e 'd}' $< > $@
	$(Q)rm -f $@.papers
tests: $(UTESTS)
selftests: $(KSFTS) $(KSFT_M32) $(BUILD)/selftests/numagpu/run_order

kernel-files: $(KSFT_HDR)
$(KSFT_HDR):
	$(Q)tools/kernel-files.sh $(KFILES)

$(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) $(NG_CFLAGS) -c -o $@ $<

# The native triad is the side of a ratio the emulator is held to: its loop
# as fast as the compiler makes it (vectorized, as STREAM builds at -O3;
# -O2's cheap vectorizer leaves a loop of unknown count scalar).
$(OBJ)/user/lib/workloads/stream/triad.o: NG_CFLAGS += -O3

$(LIB): $(LIB_OBJS)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

$(CLI_LIB): $(CLI_OBJS)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

$(NGEMU): $(OBJ)/user/ngemu/ngemu.o $(CLI_LIB) $(LIB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(NG_LDFLAGS) -o $@ $< $(CLI_LIB) $(LIB) $(LDLIBS)

# Tests include the kselftest harness, extracted from linux-source-6.1.
TEST_OBJS := $(UTEST_SRCS:%.c=$(OBJ)/%.o) $(KSFT_SRCS:%.c=$(OBJ)/%.o)
# -isystem: the harness itself is not -Wextra clean
$(TEST_OBJS): NG_CFLAGS += -isystem $(KFILES) -Wno-missing-prototypes
$(TEST_OBJS): | $(KSFT_HDR)

$(BUILD)/tests/%: $(OBJ)/user/tests/%.o $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(NG_LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

# a paper plug-in's test is the command line too, and the option parser's
# tests the command line's own code: they link libngemu-cli
CLI_UTESTS := $(BUILD)/tests/paper_plugin_test $(BUILD)/tests/options_test
$(CLI_UTESTS): $(BUILD)/tests/%: $(OBJ)/user/tests/%.o $(CLI_LIB) $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(NG_LDFLAGS) -o $@ $< $(CLI_LIB) $(LIB) $(LDLIBS)

$(BUILD)/selftests/numagpu/%: $(OBJ)/selftests/numagpu/%.o $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(NG_LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

$(KSFT_M32): $(BUILD)/selftests/numagpu/%: selftests/numagpu/%.c \
		include/uapi/linux/numagpu.h | $(KSFT_HDR)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC -m32 $@")
	$(Q)$(CC) -m32 -static $(CFLAGS) -std=c11 -D_GNU_SOURCE \
		-D_FILE_OFFSET_BITS=64 -Wall -Wextra -Werror -Iinclude/uapi \
		-isystem $(KFILES) -o $@ $<

$(BUILD)/selftests/numagpu/run_order: selftests/numagpu/Makefile \
		selftests/numagpu/settings selftests/numagpu/kmods
	@mkdir -p $(dir $@)
	$(Q)$(MAKE) -s -C selftests/numagpu print-order > $@
	$(Q)cp selftests/numagpu/settings selftests/numagpu/kmods $(dir $@)

# The whole suite; see tools/check.sh.
check:
	$(Q)BUILD=$(BUILD) KFILES=$(KFILES) tools/check.sh

# The calibration microbenchmarks and stream-triad: measured vs configured,
# and the emulated / native ratio. BENCH_ARGS adds options (e.g. --system coda).
.PHONY: bench
bench: user
	$(Q)for w in local-stream remote-stream pointer-chase; do \
		$(NGEMU) bench $$w --rdc-size 0 $(BENCH_ARGS) | \
			grep -E '^(ngemu bench|modeled|native|calibrate|throughput)' || exit 1; \
		echo; \
	done
	$(Q)for w in stream-triad; do \
		$(NGEMU) bench $$w $(BENCH_ARGS) | \
			grep -E '^(ngemu bench|modeled|native|calibrate|throughput)' || exit 1; \
		echo; \
	done

# Each paper's bench (user/papers/NAME/bench.sh): its workloads under its
# systems, its averages beside the paper's. bench-carve (every CARVE
# workload under NUMA-GPU, replication, CARVE-SWC/HWC/none and the ideal),
# bench-rec (~10 s; SIZE=paper/8 for 1/8 of the paper's footprints, ~10
# min), bench-dualopt (classes beside the paper's, the granularity and
# timeout sweeps), bench-scalegpu (over device memory's share and data per
# tag), bench-coda (the measured categories beside the paper's).
# BENCH_ARGS passes options.
PAPERS := $(notdir $(patsubst %/bench.sh,%,$(wildcard user/papers/*/bench.sh)))
.PHONY: $(PAPERS:%=bench-%)
$(PAPERS:%=bench-%): bench-%: user
	$(Q)user/papers/$*/bench.sh $(NGEMU) $(BENCH_ARGS)

# Each paper's experiments, its claims beside ngemu's values, into
# reproduce-PAPER/, and every claim in reproduce-summary.md
# (Documentation/sweep.rst): REPRODUCE_ARGS passes options.
.PHONY: reproduce
# reproduce's exit 3 (a claim not in the paper's direction) is a result,
# not a failure; 1 (a run failed) and 2 (usage) fail the target
REPRODUCE_OK = s=$$?; [ $$s -eq 0 ] || [ $$s -eq 3 ] || exit $$s

reproduce: user
	$(Q)$(NGEMU) reproduce all --jobs 2 $(REPRODUCE_ARGS); $(REPRODUCE_OK)

# One paper at the papers' footprints (--size paper; a workload no paper
# sizes runs at its default) into reproduce-PAPER-paper/: PAPER=scalegpu
# takes about 5 minutes here; the others' footprints run to GBs.
PAPER ?= scalegpu
.PHONY: reproduce-paper
reproduce-paper: user
	$(Q)$(NGEMU) reproduce $(PAPER) --size paper --jobs 2 \
		--out reproduce-$(PAPER)-paper $(REPRODUCE_ARGS); $(REPRODUCE_OK)

# Each paper with every workload at its paper's proportion of input to
# cache (reproduce --at-proportion: the paper's input at the regime's cache
# scale, at least one wave of the machine) into reproduce-PAPER-proportion/;
# PAPERS="rec" for one. A long lane, not part of the tests: REC's 12
# workloads run to 32 MiB an array (Documentation/sweep.rst).
.PHONY: reproduce-proportion
reproduce-proportion: user
	$(Q)for p in $(PAPERS); do \
		$(NGEMU) reproduce $$p --at-proportion --jobs 2 $(REPRODUCE_ARGS); \
		$(REPRODUCE_OK); \
	done

# What the worker pool's design rests on: a barrier of a thread per SM
# against the pool's barrier of a thread per CPU and a coroutine switch.
.PHONY: bench-pool
bench-pool: $(BUILD)/bench-pool
	$(Q)$(BUILD)/bench-pool

$(BUILD)/bench-pool: tools/bench-pool.c $(LIB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(NG_CFLAGS) -o $@ $< $(LIB) $(NG_LDFLAGS) $(LDLIBS)

# The emulator's speed, each figure beside its goal (tools/bench-speed.sh).
.PHONY: bench-speed
bench-speed: user
	$(Q)tools/bench-speed.sh $(NGEMU)

# Threaded against deterministic modeled time: every preset's workloads at
# their default sizes and every system of the preset's compare regime
# (tools/bench-agreement.sh, ~15 min here; PRESETS="carve" for one).
.PHONY: bench-agreement
bench-agreement: user
	$(Q)tools/bench-agreement.sh $(NGEMU)

check-user: tests user
	$(Q)NGEMU=$(abspath $(NGEMU)) tools/ksft-run.sh -s user -t 600 $(UTESTS)

check-style: $(KSFT_HDR)
	$(Q)tools/check-style.sh $(KFILES)

check-vm: all
	$(Q)tools/vm/run.sh --kernel /boot/vmlinuz-$(KVER) --ko $(KO) \
		--tests $(BUILD)/selftests/numagpu --bin $(NGEMU) --out $(BUILD)/vm

# The kselftests on a debug 6.1 kernel (KASAN, lockdep, DEBUG_VM, ...),
# built once into $(BUILD)/debug-kernel/ (tools/debug-kernel.sh).
.PHONY: check-debug
check-debug: all
	$(Q)tools/debug-kernel.sh --out $(BUILD)/debug-kernel \
		--tests $(BUILD)/selftests/numagpu --bin $(NGEMU)

vm-shell: all
	$(Q)tools/vm/run.sh --kernel /boot/vmlinuz-$(KVER) --ko $(KO) \
		--tests $(BUILD)/selftests/numagpu --bin $(NGEMU) --out $(BUILD)/vm --shell

clean:
	$(Q)if [ -f $(KDIR)/Makefile ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
	$(Q)rm -rf $(BUILD)

-include $(shell find $(OBJ) -name '*.d' -type f 2>/dev/null)
