#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-mm-selftests.sh - build the kernel's own mm (and memfd) selftests
# from linux-source-6.12 on the host, for tests/guest/reliability/peer.sh.
#
#   tests/mm-selftests/build-mm-selftests.sh [-f]      (-f: rebuild)
#
# Output: build/mm-selftests/bin/ (one binary per test), cached: nothing is
# rebuilt while build/mm-selftests/stamp matches this script and the
# source package.  The shared source tree ($KSRC) is never written to:
#
#  1. uapi headers of the 6.12 tree, generated into build/mm-selftests/obj
#     (`make O=... headers`; headers_install would only rsync them elsewhere
#     and needs rsync): the Debian linux-libc-dev headers are
#     6.1's and lack UFFD, PAGEMAP_SCAN, MADV_COLLAPSE, mseal ... definitions);
#  2. tools/ and mm/gup_test.h copied to build/mm-selftests/src (the mm
#     Makefile writes local_config.{h,mk} next to its sources);
#  3. make -C src/tools/testing/selftests/mm OUTPUT=bin KHDR_INCLUDES=...
#     with only the targets we run (ksm_tests and migration want
#     libnuma-dev and are not run: the test box has one NUMA node; the
#     32-bit protection_keys want gcc-multilib: only the 64-bit one is built;
#     mlock-random-test and memfd_secret want libcap-dev and test rlimits
#     and secretmem, not reclaim).
#
# Needs: build-essential, liburing-dev (cow and gup_longterm
# cover io_uring fixed buffers with it; without it they silently build less).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
KSRC=${KSRC:-/var/cache/foliotune/linux-source-6.12}
out=$repo/build/mm-selftests
force=0
[ "${1:-}" = -f ] && force=1

MM_TARGETS=(
	cow gup_longterm hugetlb-madvise hugetlb-read-hwpoison hugepage-mmap
	hugepage-mremap hugepage-shm hugepage-vmemmap hugetlb_dio
	hugetlb_fault_after_madv hugetlb_madv_vs_map khugepaged ksm_functional_tests
	madv_populate map_fixed_noreplace map_hugetlb map_populate mdwe_test
	mkdirty mlock2-tests mrelease_test mremap_dontunmap
	mremap_test mseal_test on-fault-limit pagemap_ioctl seal_elf soft-dirty
	split_huge_page_test thuge-gen transhuge-stress uffd-stress
	uffd-unit-tests droppable protection_keys_64 pkey_sighandler_tests_64
	va_high_addr_switch virtual_address_range write_to_hugetlbfs
	compaction_test
)

[ -f "$KSRC/Makefile" ] || { echo "build-mm-selftests: $KSRC missing: make ksrc" >&2; exit 1; }
ver=$(sed -n 's/^\(VERSION\|PATCHLEVEL\|SUBLEVEL\) = //p' "$KSRC/Makefile" | paste -sd.)
key="$ver $(sha1sum "$0" | cut -c1-12) $(stat -c %Y "$KSRC/Makefile")"
if [ "$force" = 0 ] && [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$key" ]; then
	exit 0
fi
echo "build-mm-selftests: building the mm selftests of linux $ver into $out"
# Built into bin.new and renamed at the end: a test box may be running the
# old binaries from the shared tree.
rm -rf "$out/bin.new" "$out/src"
mkdir -p "$out/bin.new" "$out/src/mm"

# 1. uapi headers, out of tree (again when the tree is another one).
if [ ! -f "$out/obj/usr/include/linux/userfaultfd.h" ] || [ "$force" = 1 ] ||
   [ "$(cat "$out/obj/.ft-ksrc" 2>/dev/null)" != "$KSRC $ver" ]; then
	rm -rf "$out/obj"
	make -s -C "$KSRC" O="$out/obj" ARCH=x86 headers \
		> "$out/headers.log" 2>&1 || { cat "$out/headers.log" >&2; exit 1; }
	echo "$KSRC $ver" > "$out/obj/.ft-ksrc"
fi
# 2. a private copy of the sources the Makefiles and #includes reach.
cp -a "$KSRC/tools" "$out/src/"
cp "$KSRC/mm/gup_test.h" "$out/src/mm/"
# 6.12.117's and 6.12.118's khugepaged.c return KSFT_SKIP without including
# kselftest.h (a stable backport that missed its include): add it to our copy.
grep -q 'kselftest.h' "$out/src/tools/testing/selftests/mm/khugepaged.c" ||
	sed -i '0,/^#include "vm_util.h"/s//#include "..\/kselftest.h"\n&/' \
		"$out/src/tools/testing/selftests/mm/khugepaged.c"
# split_huge_page_test writes its 4 MiB test files one byte per write(2):
# 4M system calls per file, nine files, ~250 s under TCG.  Our copy writes
# the same bytes 64 KiB at a time (file contents, hence the test, unchanged).
perl -0pi -e 's/\tfor \(i = 0; i < fd_size; i\+\+\) \{\n\t\tunsigned char byte = \(unsigned char\)i;\n\n\t\twrite\(\*fd, &byte, sizeof\(byte\)\);\n\t\}/\tfor (i = 0; i < fd_size; i += 65536) {\n\t\tunsigned char chunk[65536];\n\n\t\tfor (size_t j = 0; j < sizeof(chunk); j++)\n\t\t\tchunk[j] = (unsigned char)(i + j);\n\t\twrite(*fd, chunk, sizeof(chunk));\n\t}/' \
	"$out/src/tools/testing/selftests/mm/split_huge_page_test.c"
grep -q 'chunk\[65536\]' "$out/src/tools/testing/selftests/mm/split_huge_page_test.c" ||
	{ echo "build-mm-selftests: split_huge_page_test.c speed-up did not apply" >&2; exit 1; }
# 3. the tests.
mm=$out/src/tools/testing/selftests/mm
targets=()
for t in "${MM_TARGETS[@]}"; do targets+=("$out/bin.new/$t"); done
make -s -C "$mm" OUTPUT="$out/bin.new" KHDR_INCLUDES="-isystem $out/obj/usr/include" \
	-j"$(nproc)" "${targets[@]}" > "$out/build.log" 2>&1 ||
	{ tail -40 "$out/build.log" >&2; exit 1; }
make -s -C "$out/src/tools/testing/selftests/memfd" OUTPUT="$out/bin.new" \
	KHDR_INCLUDES="-isystem $out/obj/usr/include" "$out/bin.new/memfd_test" \
	>> "$out/build.log" 2>&1 || { tail -40 "$out/build.log" >&2; exit 1; }
# Helper scripts some tests exec from their own directory.
cp "$mm/run_vmtests.sh" "$mm/charge_reserved_hugetlb.sh" "$mm/write_hugetlb_memory.sh" \
	"$mm/va_high_addr_switch.sh" "$out/bin.new/" 2>/dev/null || true
grep -q LOCAL_CONFIG_HAVE_LIBURING "$mm/local_config.h" &&
	echo "liburing: yes" > "$out/bin.new/CONFIG" || echo "liburing: no" > "$out/bin.new/CONFIG"
rm -rf "$out/bin.old"
[ -d "$out/bin" ] && mv "$out/bin" "$out/bin.old"
mv "$out/bin.new" "$out/bin"
echo "$key" > "$out/stamp"
echo "build-mm-selftests: $(find "$out/bin" -maxdepth 1 -type f -perm -u+x | wc -l) binaries ($(cat "$out/bin/CONFIG"))"
