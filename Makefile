# SPDX-License-Identifier: GPL-2.0
#
# foliotune - top-level build.  `make help` lists the targets.
#
# KVER names the one kernel build everything is made for; its default is
# scripts/kernels/default-kver (nothing else spells it).  KDIR is its
# headers, unpacked into the kernel cache (scripts/kernels/fetch.sh, never
# installed on the host); KSRC the default build's unpacked linux-source
# package (for checkpatch and the kernel's mm selftests; scripts/ksrc.sh).
# A Debian 13 (+deb13) build is compiled by Debian 13's gcc-14: on a host
# without it, inside the cached trixie build root (scripts/kernels/
# buildroot.sh); KBUILD_RUN (scripts/kernels/kbuild-run.sh) decides.
# Bookworm builds are compiled by the host's gcc-12.

# A machine that runs a Debian 6.12 or Linux 7 kernel is a box foliotune is for: its
# build is the default, and make builds for it only if the support check
# passes (below); any other (a build host: bookworm's 6.1, CI's own kernel)
# builds for the default build, which the QEMU test box boots.  On the box, the
# installed headers (/lib/modules/KVER/build) are KDIR when present,
# with the link resolved: kbuild may run inside the build root, which sees
# the kernel cache and the worktree at their own paths but not this
# machine's /lib/modules (in the QEMU test box the link leads into the
# cache).
# (Given on the command line, RUNNING, RUNNING_VERSION and LIB_MODULES play
# another machine: tests/host/test-kernels-refuse.sh.)
RUNNING := $(shell uname -r)
RUNNING_VERSION := $(shell uname -v)
LIB_MODULES := /lib/modules
DEFAULT_KVER := $(shell cat scripts/kernels/default-kver)
KVER ?= $(if $(and $(filter 6.12.% 7.%,$(RUNNING)),$(findstring +deb1,$(RUNNING))),$(RUNNING),$(DEFAULT_KVER))
FT_CACHE ?= /var/cache/foliotune
# (Recomputed in a sub-make for another KVER: only a KDIR given on the
# command line wins over the one this KVER implies.)
ifneq ($(origin KDIR),command line)
KDIR := $(FT_CACHE)/kernels/$(KVER)/headers/usr/src/linux-headers-$(KVER)
ifeq ($(KVER),$(RUNNING))
ifneq ($(wildcard $(LIB_MODULES)/$(KVER)/build/Makefile),)
KDIR := $(realpath $(LIB_MODULES)/$(KVER)/build)
endif
endif
endif
KSRC ?= $(FT_CACHE)/ksrc/$(DEFAULT_KVER)
KBUILD_RUN = scripts/kernels/kbuild-run.sh $(KVER)
PREFIX ?= /usr/local
DESTDIR ?=
BUILD := $(CURDIR)/build
VMRUN := harness/vm/vmrun.sh -k $(KVER)

# Debug-kernel lane (docs/debug-lane.md): the same
# 6.12.117 built with DEBUG_VM, PAGE_TABLE_CHECK, PROVE_LOCKING, ... by
# harness/debug-kernel/build.sh, cached in $(FT_DEBUG_CACHE) (default
# /var/cache/foliotune).  `make FT_DEBUG_LANE=1 TARGET` builds TARGET for
# that kernel, into build/debug/ (the stock outputs are left alone).
.DEFAULT_GOAL := all
ifeq ($(FT_DEBUG_LANE),1)
DEBUG_DIR := $(shell harness/debug-kernel/build.sh --dir)
KVER := $(shell cat $(DEBUG_DIR)/release 2>/dev/null || echo 6.12.117-ftdebug)
KDIR := $(DEBUG_DIR)/obj
BUILD := $(CURDIR)/build/debug
DEBUG_MODULES := $(DEBUG_DIR)/modroot/lib/modules/$(KVER)
VMRUN := harness/vm/vmrun.sh -k $(KVER) -K $(DEBUG_DIR)/vmlinuz -M $(DEBUG_MODULES) -t 1800
$(KDIR)/Makefile:
	$(error debug kernel not built in $(DEBUG_DIR): make debug-kernel)
DEBUG_KALLSYMS_DEP := $(DEBUG_DIR)/vmlinuz
# the copied kernel code comes from the tree the debug kernel is built from
KCOPY_KSRC := $(or $(FT_DEBUG_KSRC),$(FT_CACHE)/linux-source-6.12)
endif
KALLSYMS := $(BUILD)/kallsyms-$(KVER).txt
# where make verify-kernel writes this machine's own headers (below)
FT_STATE_DIR ?= /var/lib/foliotune

# The one support check, the CLI's (foliotune support, which support.sh
# builds and asks: release and version string, as the module checks them):
# on the machine that runs KVER, make builds and installs nothing for a
# build it refuses, and says why and what to do next, in one line.
ifeq ($(KVER),$(RUNNING))
ifneq ($(filter all module install test-modules kernel-module check-box bench-box,$(or $(MAKECMDGOALS),all)),)
SUPPORT_REFUSAL := $(shell FT_STATE_DIR='$(FT_STATE_DIR)' scripts/kernels/support.sh '$(RUNNING)' '$(RUNNING_VERSION)' 2>&1 >/dev/null)
ifneq ($(SUPPORT_REFUSAL),)
$(error $(SUPPORT_REFUSAL))
endif
endif
endif

export KVER KDIR KSRC FT_CACHE

.PHONY: all module cli progs test-modules deps check check-host check-style bench-unmap bench-faultaround bench-reclaim \
	mm-selftests klp-floor soak bench plots docs demo vm-run help clean install uninstall ksrc check-box bench-box check-box-proof \
	debug-kernel check-debug check-debug-catches debug-modules debug-break-rmap debug-verified \
	debug-verified-current debug-run debug-catches check-mutants mutant-module \
	verify-kernel verify-module kernel-module modules-all check-kernels kernels-doc kernels-newer \
	kcopy kcopy-refresh

all: module cli progs test-modules

ifneq ($(FT_DEBUG_LANE),1)
# The headers come into the cache on first use (root: the cache is shared).
$(KDIR)/Makefile:
	scripts/kernels/fetch.sh $(KVER) image headers
endif

# A build is refused until `make verify-kernel` has proved foliotune's copies
# and its binary layout on it (scripts/kernels/verify.sh): its header is the
# tree's module/verified/KVER.h or, on a machine that verified the kernel it
# runs, that machine's own $(FT_STATE_DIR)/verified/KVER.h (never part of
# the tree; docs/own-box.md).  The tree's wins.
VERIFIED_HEADER := $(firstword $(wildcard module/verified/$(KVER).h $(FT_STATE_DIR)/verified/$(KVER).h) \
	module/verified/$(KVER).h)
# A machine's own header names the package version of the source it was
# verified with: the copies are made from that one, not the registry's
# current one (fetch.sh).
ifeq ($(filter module/%,$(VERIFIED_HEADER)),)
export FT_SOURCE_VERSION := $(shell sed -n 's/^\#define FT_VERIFIED_SOURCE.*linux-source-[0-9.]* \(.*\)"$$/\1/p' $(VERIFIED_HEADER))
endif
module/verified/$(KVER).h:
	$(if $(findstring -rt-,$(KVER)),$(error foliotune refuses $(KVER): PREEMPT_RT kernels are not supported (the per-CPU fault-around record assumes preemption is off under the page-table lock)))
	$(error foliotune is not verified on $(KVER): run `make verify-kernel KVER=$(KVER)` (docs/kernels.md; on a test box that runs it: sudo FT_TEST_BOX=1 make verify-kernel, docs/own-box.md))

# Non-exported vmlinux symbols are reached through livepatch relocations
# (never function pointers: Debian 6.12 has IBT).  module/klp-symbols.list
# names them; the private symvers lets modpost accept exactly those; after
# the link, klp-convert turns their references into .klp.rela sections,
# checking every name against the real symbol table of the target build
# (the test box's /proc/kallsyms, dumped once per KVER: Debian's
# /boot/System.map is a stub and the -dbg package is a 1 GB download).
# The lines of the list that apply to KVER (a symbol of one kernel
# generation is qualified there: scripts/kernels/klp_list.py).
KLP_LIST := $(BUILD)/klp-symbols-$(KVER).list
KLP_LISTS := module/klp-symbols.list
ifneq ($(and $(filter 1,$(FT_DEBUG_LANE)),$(shell grep -sx CONFIG_LOCKDEP=y $(KDIR)/.config)),)
# A lockdep kernel's inlines reach one more unexported symbol.
KLP_LISTS += module/klp-symbols-debug.list
endif
$(KLP_LIST): $(KLP_LISTS) scripts/kernels/klp_list.py
	mkdir -p $(BUILD)
	python3 scripts/kernels/klp_list.py $(KVER) $(KLP_LISTS) > $@.tmp
	mv $@.tmp $@
KLP_SYMVERS := $(BUILD)/klp-$(KVER).symvers
KLP_CONVERT := scripts/klp-convert

# On a machine that runs KVER itself (a verified build: `uname -r` has a
# verified header, the tree's or the machine's own) the table is its own
# /proc/kallsyms, which shows addresses to root only; anywhere else the test
# box boots KVER to dump it.
ifeq ($(and $(filter $(KVER),$(shell uname -r)),$(wildcard $(VERIFIED_HEADER))),)
$(KALLSYMS): harness/vm/init harness/vm/mkinitramfs.sh $(DEBUG_KALLSYMS_DEP)
	mkdir -p $(BUILD)
	$(VMRUN) -q -- 'cat /proc/kallsyms > $@.tmp'
	mv $@.tmp $@
else
$(KALLSYMS):
	@awk '$$3 == "_text" { exit $$1 ~ /^0+$$/ }' /proc/kallsyms || \
		{ echo "/proc/kallsyms hides the kernel's addresses from this user: build once as root (sudo make)" >&2; exit 1; }
	mkdir -p $(BUILD)
	cat /proc/kallsyms > $@.tmp
	mv $@.tmp $@
endif

$(KLP_CONVERT): $(wildcard scripts/klp-convert-src/*.[ch])
	$(MAKE) -C scripts all

$(KLP_SYMVERS): $(KLP_LIST) $(KALLSYMS) $(KLP_CONVERT)
	$(KLP_CONVERT) --list $(KLP_LIST) --kallsyms $(KALLSYMS) \
		--symvers $(KDIR)/Module.symvers --write-symvers $@

# klp_convert KO: convert a freshly linked KO in place (kbuild relinks it
# only when its inputs change; an already converted one is left alone).
define klp_convert
	if ! readelf -SW $(1) | grep -q '\.klp\.rela\.'; then \
		cp $(1) $(1).unconverted && \
		$(KLP_CONVERT) --list $(KLP_LIST) --kallsyms $(KALLSYMS) \
			--symvers $(KDIR)/Module.symvers $(1).unconverted $(1) || \
		{ rm -f $(1); exit 1; }; \
	fi
endef

# The kernel code foliotune copies (module/kcopy/sources.list), made from
# KVER's own linux-source (fetched into the kernel cache on first use) with
# module/kcopy/'s patch by scripts/kernels/kcopy.py: $(KCOPY)/kcopy-gen/*.c,
# which module/ #includes.  Never written into module/.  make kcopy shows it.
KCOPY := $(BUILD)/kcopy/$(KVER)
KCOPY_INPUTS := $(wildcard module/kcopy/*.list module/kcopy/*.patch) \
	scripts/kernels/kcopy.py
$(KCOPY)/patch: $(KCOPY_INPUTS)
	@src='$(KCOPY_KSRC)'; \
	if [ -z "$$src" ]; then \
		src=$$(scripts/kernels/fetch.sh $(KVER) --path source) && \
		scripts/kernels/fetch.sh $(KVER) source; \
	fi && python3 scripts/kernels/kcopy.py $(CURDIR) "$$src" $(KCOPY)

kcopy: $(KCOPY)/patch
	@echo "$(KVER): module/kcopy/$$(cat $(KCOPY)/patch), no fuzz"
	@echo "  compiled copies:     $(KCOPY)/kcopy-gen/*.c"
	@echo "  per definition:      $(KCOPY)/deviations.diff"
	@echo "  kernel files, as the source has them and patched: $(KCOPY)/a/ $(KCOPY)/b/"

# After editing the patched kernel files in $(KCOPY)/b/: the patch (the one
# patches.list picks for KVER) as their difference to the source, then the
# copies again from it.
kcopy-refresh:
	@test -d $(KCOPY)/b || { echo "no $(KCOPY)/b: make kcopy KVER=$(KVER) first"; exit 1; }
	python3 scripts/kernels/kcopy.py --refresh $(CURDIR) $(KCOPY)
	@$(MAKE) --no-print-directory kcopy

# (a machine's own header is copied into build/ first: kbuild may run in the
# build root, which does not see /var/lib)
LOCAL_HEADER := $(if $(filter module/%,$(VERIFIED_HEADER)),,$(BUILD)/verified-$(KVER).h)
module: $(VERIFIED_HEADER) $(KDIR)/Makefile $(KLP_SYMVERS) $(KCOPY)/patch
	$(if $(LOCAL_HEADER),mkdir -p $(BUILD) && { cmp -s $(VERIFIED_HEADER) $(LOCAL_HEADER) || cp $(VERIFIED_HEADER) $(LOCAL_HEADER); })
	$(KBUILD_RUN) $(MAKE) -C $(KDIR) M=$(CURDIR)/module FT_KCOPY=$(KCOPY) KBUILD_EXTRA_SYMBOLS=$(KLP_SYMVERS) \
		$(if $(LOCAL_HEADER),FT_VERIFIED_HEADER=$(LOCAL_HEADER)) modules
	@$(call klp_convert,module/foliotune.ko)

# The CLI names the build it serves (FOLIOTUNE_KVER); exported so that the
# CLI's own tests (make -C userspace check, from tests/run-host.sh) agree.
# userspace/Makefile does not track it: a CLI built for another KVER is
# rebuilt from clean.
export FOLIOTUNE_KVER := $(KVER)
export FOLIOTUNE_VERIFIED_DIR := $(CURDIR)/module/verified
cli:
	@[ "$$(cat $(BUILD)/cli.kver 2>/dev/null)" = "$(KVER)" ] || $(MAKE) -s -C userspace clean
	$(MAKE) -C userspace
	@mkdir -p $(BUILD) && echo "$(KVER)" > $(BUILD)/cli.kver

progs:
	$(MAKE) -C tests/progs
	$(MAKE) -C bench/progs

# The kernel's mm selftests of $(KSRC), for the reliability peer suite
# (built once into build/mm-selftests/, see tests/mm-selftests/README.md).
mm-selftests: ksrc
	tests/mm-selftests/build-mm-selftests.sh

# The kernel's own livepatch selftest module (one patched function), from
# KVER's source, built for KVER: the floor tests/guest/reliability/loadtime.sh
# compares foliotune's load under load with.
klp-floor: ksrc $(KDIR)/Makefile
	rm -rf $(BUILD)/klp-floor && mkdir -p $(BUILD)/klp-floor
	cp $(KSRC)/tools/testing/selftests/livepatch/test_modules/test_klp_livepatch.c $(BUILD)/klp-floor/
	echo 'obj-m := test_klp_livepatch.o' > $(BUILD)/klp-floor/Kbuild
	$(KBUILD_RUN) $(MAKE) -C $(KDIR) M=$(BUILD)/klp-floor modules

# build_module_copy DIR KBUILD-ARGS [PATCH]: foliotune.ko built from a
# fresh copy of module/ in DIR, with PATCH (a diff of module/: -p2 in the
# flat copy) applied: TEST-ONLY variants (tests/inject/, tests/mutants/)
# and the debug-kernel lane's build.  Never a change to module/ itself.
# KVER's copied kernel code is in the copy as kcopy-gen/ (a PATCH names it
# module/kcopy-gen/NAME.c).
define build_module_copy
	rm -rf $(1)
	mkdir -p $(1)
	cp module/*.c module/*.h module/Kbuild $(1)/
	cp -r module/verified module/kcopy $(KCOPY)/kcopy-gen $(1)/
	$(if $(filter module/%,$(VERIFIED_HEADER)),,cp $(VERIFIED_HEADER) $(1)/verified/)
	cp $(KLP_LIST) $(1)/
	$(if $(3),patch -s -p2 -F0 --no-backup-if-mismatch -d $(1) < $(3))
	$(KBUILD_RUN) $(MAKE) -C $(KDIR) M=$(1) FT_INCLUDE=$(CURDIR)/include \
		FT_KCOPY=$(1) KBUILD_EXTRA_SYMBOLS=$(KLP_SYMVERS) $(2) modules
	@$(call klp_convert,$(1)/foliotune.ko)
endef

# Test-only modules: the WARN_ON module for the console-gate self-test, a
# copy of foliotune that expects another kernel build, and one whose init
# steps fail on demand (insmod ... fail_at=STEP, tests/inject/).
test-modules: $(KDIR)/Makefile $(KLP_SYMVERS) $(KCOPY)/patch
	$(KBUILD_RUN) $(MAKE) -C $(KDIR) M=$(CURDIR)/tests/modules modules
	$(call build_module_copy,$(BUILD)/wrong-build,FT_TEST_WRONG_BUILD=1)
	$(call build_module_copy,$(BUILD)/inject,,tests/inject/load-failures.patch)

# Mutation lane (docs/mutants.md): each tests/mutants/NAME.patch is one
# planted bug, built in $(BUILD)/mutants/NAME/ (foliotune.ko from a patched
# copy of module/, or userspace/foliotune from a patched copy of
# userspace/), then booted with the tests that must catch it.
# make check-mutants [MUTANTS='name ...']
MUTANTS ?= $(sort $(basename $(notdir $(wildcard tests/mutants/*.patch))))

# A mutant that does not build (a stale patch) is reported as missed.  The
# control boots of the mutants whose header names another Kver load that
# build's own module (build/modules/KVER/).
MUTANT_KVERS = $(filter-out $(KVER),$(sort $(shell sed -n 's/^Kver: *//p' \
	$(patsubst %,tests/mutants/%.patch,$(MUTANTS)))))
check-mutants: all
	-$(MAKE) -k --no-print-directory $(addprefix mutant-,$(MUTANTS))
	@set -e; for k in $(MUTANT_KVERS); do $(MAKE) --no-print-directory KVER=$$k kernel-module; done
	FT_MUTANTS_RECORD=1 tests/mutants/mutation-lane.sh $(MUTANTS)

# A mutant whose header names a Kver is built for that build (its code is
# that generation's).
mutant-%: $(KDIR)/Makefile $(VERIFIED_HEADER) $(KLP_SYMVERS) $(KCOPY)/patch
	@test -r tests/mutants/$*.patch || { echo "no tests/mutants/$*.patch"; exit 1; }
	kv=$$(sed -n '/^diff /q; s/^Kver: *//p' tests/mutants/$*.patch); \
	if [ -n "$$kv" ] && [ "$$kv" != "$(KVER)" ]; then \
		$(MAKE) --no-print-directory KVER=$$kv mutant-$*; \
	elif grep -q '^+++ b/userspace/' tests/mutants/$*.patch; then \
		rm -rf $(BUILD)/mutants/$* && mkdir -p $(BUILD)/mutants/$*/userspace && \
		cp -r userspace/*.c userspace/*.h userspace/Makefile userspace/util $(BUILD)/mutants/$*/userspace/ && \
		cp -r include $(BUILD)/mutants/$*/ && \
		patch -s -p1 -F0 --no-backup-if-mismatch -d $(BUILD)/mutants/$* < tests/mutants/$*.patch && \
		$(MAKE) -C $(BUILD)/mutants/$*/userspace KVER=$(KVER); \
	else \
		$(MAKE) --no-print-directory mutant-module MUTANT=$*; \
	fi

mutant-module:
	$(call build_module_copy,$(BUILD)/mutants/$(MUTANT),,tests/mutants/$(MUTANT).patch)

deps:
	@scripts/deps.sh $(KVER)

# Kernel builds (docs/kernels.md).  verify-kernel: prove foliotune on
# KVER and write module/verified/KVER.h (scripts/kernels/verify.sh).
# modules-all: foliotune.ko for every verified build, into
# build/modules/KVER/.  check-kernels: the smoke suite on each of them
# (FT_KERNELS: a subset).  kernels-doc: regenerate the support matrix of
# docs/kernels.md (its table only: the prose is edited by hand).
VERIFIED_KVERS := $(filter-out %-ftdebug,$(patsubst module/verified/%.h,%,$(wildcard module/verified/*.h)))
FT_KERNELS ?= $(VERIFIED_KVERS)

verify-kernel: cli progs
	scripts/kernels/verify.sh $(KVER)

# The module against verify-kernel's candidate header (FT_VERIFY_HEADER).
verify-module: $(KDIR)/Makefile $(KLP_SYMVERS) $(KCOPY)/patch
	$(call build_module_copy,$(BUILD)/verify/$(KVER)/module,FT_VERIFIED_HEADER=$(FT_VERIFY_HEADER))

kernel-module: module/verified/$(KVER).h $(KDIR)/Makefile $(KLP_SYMVERS) $(KCOPY)/patch
	$(call build_module_copy,$(BUILD)/modules/$(KVER),)

modules-all:
	@set -e; for k in $(FT_KERNELS); do $(MAKE) --no-print-directory KVER=$$k kernel-module; done

check-kernels: cli progs
	scripts/kernels/check-all.sh $(FT_KERNELS)

kernels-doc:
	scripts/kernels/matrix.sh --update docs/kernels.md

# kernels-newer: the registry's builds newer than the newest verified ones,
# in one line (scripts/kernels/newer.sh; CI prints it and goes on).
kernels-newer:
	@scripts/kernels/newer.sh

ksrc: $(KSRC)/Makefile
$(KSRC)/Makefile:
	@scripts/ksrc.sh $(KSRC)

CHECKPATCH := $(KSRC)/scripts/checkpatch.pl --no-tree --quiet --show-types
KERNEL_SOURCES = $(filter-out %.mod.c,$(wildcard module/*.c module/*.h module/*/*.h \
	module/*/*.c tests/modules/*.c))

# include/foliotune.h is X-macros by design (one source of truth for names).
# The copied kernel code is checked as the default build compiles it.
check-style: ksrc $(KCOPY)/patch
	$(CHECKPATCH) -f $(KERNEL_SOURCES) $(KCOPY)/kcopy-gen/*.c
	$(CHECKPATCH) --ignore COMPLEX_MACRO,MACRO_ARG_UNUSED -f include/foliotune.h

check-host:
	tests/run-host.sh

# Debug-kernel lane.  debug-kernel: build (once, cached) the debug kernel.
# check-debug: the test-box suites and the gate self-tests on it, with
# foliotune and the test modules built for it (build/debug/); logs in
# build/test-logs-debug/, result appended to docs/debug-runs.md.
# check-debug-catches: a TEST-ONLY foliotune that removes one rmap too few
# per batch must be caught there (console gate or crash).
DEBUG_MAKE = $(MAKE) --no-print-directory FT_DEBUG_LANE=1

debug-kernel:
	harness/debug-kernel/build.sh

check-debug: debug-kernel cli progs mm-selftests
	$(DEBUG_MAKE) debug-verified-current
	$(DEBUG_MAKE) debug-modules
	$(DEBUG_MAKE) debug-run

check-debug-catches: debug-kernel cli progs
	$(DEBUG_MAKE) debug-verified-current
	$(DEBUG_MAKE) debug-break-rmap
	$(DEBUG_MAKE) debug-catches

# The inner targets of the lane (FT_DEBUG_LANE=1).
debug-modules: $(KDIR)/Makefile module/verified/$(KVER).h $(KLP_SYMVERS) $(KCOPY)/patch
	$(call build_module_copy,$(BUILD)/module,)
	$(call build_module_copy,$(BUILD)/wrong-build,FT_TEST_WRONG_BUILD=1)
	$(call build_module_copy,$(BUILD)/inject,,tests/inject/load-failures.patch)
	mkdir -p $(BUILD)/tests-modules
	cp tests/modules/*.c tests/modules/Kbuild $(BUILD)/tests-modules/
	$(MAKE) -C $(KDIR) M=$(BUILD)/tests-modules modules

debug-break-rmap: $(KDIR)/Makefile module/verified/$(KVER).h $(KLP_SYMVERS) $(KCOPY)/patch
	$(call build_module_copy,$(BUILD)/break-rmap,,tests/mutants/break-rmap.patch)

# module/verified/REL.h for the debug kernel, from its kallsyms (the copied
# functions are the same source on both builds; only their sizes differ).
# debug-verified-current regenerates it when it names another debug build
# (a new HASH): commit the result.
debug-verified: $(KALLSYMS)
	harness/debug-kernel/kallsyms-header.sh $(KALLSYMS) $(DEBUG_DIR) > module/verified/$(KVER).h.tmp
	mv module/verified/$(KVER).h.tmp module/verified/$(KVER).h

debug-verified-current:
	@if ! grep -qF "\"$$(cat $(DEBUG_DIR)/version)\"" module/verified/$(KVER).h 2>/dev/null || \
	    ! grep -q FT_VERIFIED_SIZE_folio_referenced_one module/verified/$(KVER).h; then \
		echo "module/verified/$(KVER).h missing, for another build or without a replaced function: regenerating it (commit it)"; \
		$(MAKE) --no-print-directory FT_DEBUG_LANE=1 debug-verified; \
	fi

DEBUG_ENV = FT_TEST_LOGS=$${FT_TEST_LOGS:-$(CURDIR)/build/test-logs-debug} FT_TIME_SCALE=$${FT_TIME_SCALE:-4} \
	KVER=$(KVER) FT_KERNEL_IMAGE=$(DEBUG_DIR)/vmlinuz FT_GUEST_MODULES=$(DEBUG_MODULES) \
	FT_KO=$(BUILD)/module/foliotune.ko FT_WRONG_KO=$(BUILD)/wrong-build/foliotune.ko \
	FT_WARN_KO=$(BUILD)/tests-modules/ft_warn_test.ko \
	FT_LOCKDEP_KO=$(BUILD)/tests-modules/ft_lockdep_test.ko \
	FT_LEAK_KO=$(BUILD)/tests-modules/ft_leak_test.ko

debug-run:
	$(DEBUG_ENV) harness/debug-kernel/record.sh harness/debug-kernel/debug-boots.sh

debug-catches:
	$(DEBUG_ENV) harness/debug-kernel/catches.sh

# The whole suite: host tests, style, and the guest suites in the test box.
# The prerequisites build on every core at once (kbuild, the copies, the mm
# selftests); the suites then run their own lanes (tests/run.sh).
FT_JOBS ?= $(shell nproc)
check:
	@$(MAKE) --no-print-directory -j$(FT_JOBS) all ksrc mm-selftests
	tests/run.sh

# The long reliability runs (tests/soak.sh): make soak [DURATION=2h]
# [CYCLES=500] [SUITES='cycles faults stress peer']
soak: all mm-selftests
	tests/soak.sh $(if $(DURATION),-d $(DURATION)) $(if $(CYCLES),-n $(CYCLES)) $(SUITES)

demo: all
	bench/demo.sh

# Batched vs stock try_to_unmap_one in one test-box boot (~30 min under TCG
# with the defaults, 8 reps).  Environment: BENCH_REPS BENCH_SECONDS BENCH_SIZE_MB
# BENCH_ONLY BENCH_OVERHEAD BENCH_TRACE_REPS BENCH_WARMUP BENCH_KERNEL_ARGS
# BENCH_OUT.  Results: bench/results/<date>-<commit>/results.md
bench-unmap: module cli progs
	bench/unmap.sh

# Fault-around configurations (stock 64K, 4K, mkold=1, mkold=2, auto) on the
# 2016 thread's app-launch workload and on sequential/strided readers, in one
# test-box boot (~80 min idle under TCG with the defaults, 8 reps).  Environment: see the top of
# bench/faultaround.sh.  Results: bench/results/<date>-<commit>-faultaround/
bench-faultaround: module cli progs
	bench/faultaround.sh

# The 2x2 of unmap_batch x referenced_batch (stock, unmap, refs, both) under
# the classic LRU and MGLRU, memcg reclaim of PTE-mapped 2 MiB and readahead
# file folios, in one test-box boot (reclaim.sh prints its estimate; trim it
# with BENCH_WORKLOADS BENCH_LRU BENCH_REPS BENCH_TRACE_REPS
# BENCH_TRACE_WORKLOADS, see the top of bench/reclaim.sh).
# Results: bench/results/<date>-<commit>-reclaim/
bench-reclaim: module cli progs
	bench/reclaim.sh

# The three benchmarks as one command, then the figures (gnuplot): one results
# directory bench/results/<date>-<commit>/ with unmap/, faultaround/,
# reclaim/ (each results.md + raw/), plots/ and a README.md.  Settings per
# benchmark: BENCH_UNMAP='BENCH_REPS=1 ...' BENCH_FA='...' BENCH_RECLAIM='...'
# (see bench/all.sh).
bench: module cli progs
	bench/all.sh

# The figures of an existing results directory, from its raw/ files:
# make plots RESULTS=bench/results/DIR
plots:
	@test -n "$(RESULTS)" || { echo 'usage: make plots RESULTS=bench/results/DIR'; exit 1; }
	bench/report/plot.py $(RESULTS)

# Regenerate the knob and counter tables of docs/counters.md from
# include/foliotune.h (tests/host/test-docs.sh checks they agree).
docs:
	scripts/gen-docs.sh

# Run a shell command in the test box: make vm-run CMD='uname -a'
vm-run:
	@$(VMRUN) -- '$(CMD)'

# install: the module into /lib/modules/$(KVER)/updates/ (depmod), the CLI
# and its man page; uninstall removes exactly what install created
# (scripts/install.sh keeps the list).
install: module cli
	KVER=$(KVER) DESTDIR=$(DESTDIR) PREFIX=$(PREFIX) scripts/install.sh install

uninstall:
	KVER=$(KVER) DESTDIR=$(DESTDIR) PREFIX=$(PREFIX) scripts/install.sh uninstall

# The suites and benchmarks on the machine itself (docs/own-box.md).  They
# reclaim memory, livepatch the kernel and poison pages: they refuse to
# start without FT_TEST_BOX=1, and on a machine where they cannot run,
# before building or changing anything.  Settings: see harness/own-box/box-lib.sh.
# The refusal is one line, before make builds anything.
BOX_GOAL := $(firstword $(filter check-box bench-box,$(MAKECMDGOALS)))
ifneq ($(BOX_GOAL),)
BOX_REFUSAL := $(shell FT_TEST_BOX='$(FT_TEST_BOX)' KVER='$(KVER)' FT_BOX_ZRAM='$(FT_BOX_ZRAM)' \
	FT_BOX_SCRATCH='$(FT_BOX_SCRATCH)' FT_BOX_ROOT='$(FT_BOX_ROOT)' FT_BOX_UID='$(FT_BOX_UID)' \
	harness/own-box/preflight.sh $(BOX_GOAL:-box=) 2>&1 >/dev/null)
ifneq ($(BOX_REFUSAL),)
$(error $(BOX_REFUSAL))
endif
endif

# The QEMU test box as a user's own machine (harness/own-box/qemu-proof.sh):
# make install, foliotune load, check-box and bench-box from a clean copy
# of the tree, the module compiled inside the emulator.  A lane of its own
# (30-55 min under TCG), like the debug kernel's: not part of make check.
check-box-proof: all
	@out=$$(harness/own-box/qemu-proof.sh); rc=$$?; printf '%s\n' "$$out"; \
	echo "$$(printf '%s\n' "$$out" | grep -c '^ok - ') passed, $$(printf '%s\n' "$$out" | grep -c '^not ok - ') failed"; \
	exit $$rc

check-box:
	$(MAKE) all
	harness/own-box/check.sh

bench-box:
	$(MAKE) module cli progs
	bench/box.sh

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR)/module clean
	-$(MAKE) -C $(KDIR) M=$(CURDIR)/tests/modules clean
	-$(MAKE) -C userspace clean
	-$(MAKE) -C tests/progs clean
	-$(MAKE) -C bench/progs clean
	-$(MAKE) -C scripts clean
	rm -rf $(BUILD)

help:
	@echo 'foliotune targets (KVER=$(KVER)):'
	@echo '  make deps     install build and test dependencies (apt-get; root)'
	@echo '  make          build module/foliotune.ko, userspace/foliotune, test programs, test modules'
	@echo '  make module / cli     the module alone / the CLI alone (make -C userspace check: its tests)'
	@echo '  make progs    the test and benchmark programs (tests/progs/, bench/progs/)'
	@echo '  make test-modules     the test-only modules (console gate, wrong build, injected load failures)'
	@echo '  make ksrc     the default build'"'"'s kernel source, unpacked into the kernel cache (checkpatch, mm selftests)'
	@echo '  make mm-selftests     the kernel'"'"'s mm selftests of that source, built into build/mm-selftests/'
	@echo '  make check    the whole test suite (host tests, style, test-box suites)'
	@echo '  make demo     boot the test box: reclaim, MADV_PAGEOUT, app launch through foliotune ab, each with its verdict (~5 min TCG)'
	@echo '  make vm-run CMD=...   run a command in the test box (exit status returned)'
	@echo '  make bench-unmap      batched vs stock unmap benchmarks, one test-box boot (~30 min TCG)'
	@echo '  make bench-faultaround   fault-around configurations, one test-box boot (~80 min TCG)'
	@echo '  make bench-reclaim    unmap_batch x referenced_batch, classic LRU and MGLRU, one test-box boot (estimate printed)'
	@echo '  make soak [DURATION=2h] [CYCLES=500] [SUITES=...]   long reliability runs'
	@echo '  make bench     the three benchmarks + plots into one bench/results/<date>-<commit>/ (~2 h TCG + reclaim'"'"'s estimate)'
	@echo '  make plots RESULTS=DIR   PNG/SVG figures of a results directory, from its raw/ files'
	@echo '  make docs      regenerate docs/counters.md tables and the man page knob list from include/foliotune.h'
	@echo '  make check-host       host-side tests only'
	@echo '  make check-style      checkpatch on the kernel code'
	@echo '  make debug-kernel     build the debug kernel (DEBUG_VM, PAGE_TABLE_CHECK, lockdep), cached'
	@echo '  make check-debug      the test-box suites on the debug kernel (docs/debug-lane.md)'
	@echo '  make check-debug-catches  a TEST-ONLY rmap-breaking build must be caught there'
	@echo '  make FT_DEBUG_LANE=1 debug-modules / debug-verified   the lane'"'"'s modules / its verified header (docs/debug-lane.md)'
	@echo '  make check-mutants [MUTANTS=...]  planted bugs (tests/mutants/) must each be caught (docs/mutants.md)'
	@echo '  make mutant-NAME      build one planted bug, tests/mutants/NAME.patch, into build/mutants/NAME/'
	@echo '  make install / uninstall   module, CLI, man page (DESTDIR, PREFIX); root'
	@echo '  FT_TEST_BOX=1 make check-box / bench-box   the suites / benchmarks on this machine (root; docs/own-box.md)'
	@echo '  make check-box-proof  install, check-box, bench-box inside the QEMU box from a clean copy (30-55 min TCG)'
	@echo '  make verify-kernel [KVER=...]  prove foliotune on a kernel build, write module/verified/KVER.h (docs/kernels.md);'
	@echo '                        for the running kernel on a test box (FT_TEST_BOX=1, root): on the box itself, into /var/lib/foliotune (docs/own-box.md)'
	@echo '  make modules-all [FT_KERNELS=...]  foliotune.ko for every verified build, into build/modules/KVER/'
	@echo '  make check-kernels [FT_KERNELS=...]  the smoke suite in the test box on every verified build'
	@echo '  make kernels-doc      regenerate the support matrix of docs/kernels.md (its table; the prose is edited by hand)'
	@echo '  make kcopy [KVER=...]  the copied kernel code, made from the build'"'"'s source with module/kcopy/'"'"'s patch: where to read it'
	@echo '  make kcopy-refresh [KVER=...]  after editing build/kcopy/KVER/b/: the patch again, then the copies'
	@echo '  make kernels-newer    the registry'"'"'s Debian builds (6.12, Linux 7) newer than the newest verified ones'
	@echo '  make help     this list'
	@echo '  make clean'
