#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# matrix.sh - print docs/kernels.md (make kernels-doc): the Debian builds
# the registry offers (scripts/kernels/list.sh), 6.12 from 6.12.107 on and
# every Linux 7 one, amd64 and cloud-amd64 of each suite plus rt-amd64,
# and for each whether
# foliotune is verified on it (module/verified/REL.h: date and commit from
# its header) or why not (scripts/kernels/refused.list, else "not yet
# verified").
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
default=$(cat scripts/kernels/default-kver)

cat <<'EOT'
# Kernel builds

foliotune replaces kernel functions with copies of their source, so it
loads only on a kernel build it was verified on: `module/verified/REL.h`
exists for that exact release and version string.  This page is generated
by `make kernels-doc` (scripts/kernels/matrix.sh); do not edit the table.

One support check says whether a kernel is such a build, the module's own
(release and version string): `foliotune support` (the running kernel; or
`foliotune support RELEASE VERSION`), which `scripts/kernels/support.sh`
builds and runs for people and `make` in the tree, and which `foliotune -V`
and `foliotune status` use.
Where it fails, each prints one line with the next step (verify this
build, or the verified builds to boot) and exits non-zero.  `make` on a
machine that runs a Debian 6.12 kernel builds for that kernel and stops
there with that line; on any other machine (a build host: bookworm's 6.1,
CI) it builds for the default build, which the QEMU test box boots.

## Verifying a build

    make verify-kernel KVER=6.12.118+deb13-cloud-amd64

fetches the build's image, headers and source package into the kernel
cache (`/var/cache/foliotune/kernels/REL/`, `linux-source/VERSION/`; never
installed on the host) and proves, stage by stage (scripts/kernels/verify.sh):

* **source**: foliotune's copies of kernel code are made from this build's
  own source (`make kcopy`, below): the patch applies with no fuzz, every
  change it makes is marked, and it changes nothing but the copied
  definitions; otherwise the patch's own output and one line;
* **binary**: from the image's vmlinux (scripts/extract-vmlinux) and the
  build's kallsyms (one test-box boot with `nokaslr`): each replaced
  function exists once with no `.isra`/`.constprop`/`.part`/`.cold` clone;
  each caller in its own source file really calls it (objdump; an inlined
  copy would bypass the livepatch; other files cannot inline it, the build
  has no LTO, which is checked); every module/klp-symbols.list name
  resolves; the sizes the load-time check compares;
* **boot**: the module, built for the build with its candidate header, loads
  in the test box and tests/guest/smoke.sh passes (knob validation, the
  fault-around PTE-age and counter checks, integrity cases with batching
  on/off/flipping and the order-9 batch that proves batching, unload leaves
  nothing), console clean;

and only then writes `module/verified/REL.h` (release, version string,
source package version, compiler, sizes).  Any failure prints one line
naming what failed and leaves no header.  Commit the header.

On a test box that runs the build, `sudo FT_TEST_BOX=1 make verify-kernel`
(no `KVER`: the running kernel) does the same on the machine itself,
without QEMU: the source package of the running build, `/boot/vmlinuz-REL`
and `/proc/kallsyms` for the binary checks, the smoke suite on the box.
It writes the machine's own `/var/lib/foliotune/verified/REL.h`, which
names the machine and the time and is never committed; `FT_VERIFY_LOCAL=0`
verifies in the QEMU box instead.  [own-box.md](own-box.md), "Verifying
the running kernel".

Debian 13 builds (`+deb13`) are compiled by Debian 13's gcc-14: on a host
without it (bookworm), inside a trixie build root made once by mmdebstrap
(`/var/cache/foliotune/buildroot-trixie`, scripts/kernels/buildroot.sh;
scripts/kernels/kbuild-run.sh decides); bookworm builds by the host's gcc-12.
The cloud flavour has no 9p: the test box serves its root over virtiofs
for it (tests/vm/vmrun.sh picks this from the build's config).

Other targets: `make KVER=REL` builds module, CLI and test programs for a
verified build (an unverified one is refused with the command that verifies
it); `make modules-all` builds foliotune.ko for every verified build into
build/modules/REL/; `make check-kernels` runs the smoke suite on each
(FT_KERNELS='REL ...' for a subset); `make vm-run KVER=REL CMD=...` boots
any build of the cache.  `scripts/kernels/list.sh` lists the registry's
builds; `make kernels-newer` (scripts/kernels/newer.sh) names, in one line,
those newer than the newest verified build of their suite and flavour
(PREEMPT_RT left out): the ones to verify next.  CI (`.ci/run`) prints that
line and never fails on it, nor on a registry it cannot ask.

PREEMPT_RT builds (`-rt-amd64`) are refused at build and at load: the
per-CPU fault-around record assumes preemption is off under the page-table
lock, which PREEMPT_RT's sleeping spinlocks do not give.

## The copies of kernel code

foliotune compiles copies of kernel code: the functions it replaces
(`try_to_unmap_one`, `folio_referenced_one`, `set_pte_range`), static
helpers a module cannot reach, and x86's accessed-bit test-and-clear as
static functions the batched reference check inlines (a sources list
names every definition: module/kcopy/sources.list for 6.12,
sources-7.2.list and sources-7.3.list for Linux 7).  They are made for
each build from that build's own linux-source, the way kpatch makes a
livepatch: the source files, then a patch, then the result.  `make kcopy [KVER=REL]` (scripts/kernels/kcopy.py;
`make module` and every other module build run it) takes mm/rmap.c,
mm/memory.c, mm/internal.h, arch/x86/include/asm/tlbflush.h and
arch/x86/mm/pgtable.c of the build's source package (fetched into the
kernel cache through the private apt configuration,
`linux-source/VERSION/`; a source cached before a file joined the list is
fetched again), applies the patch that
module/kcopy/patches.list picks by the source's upstream version, with
the sources list that line names (`patch -F0`: offsets are fine, fuzz
is not), and writes into `build/kcopy/REL/`:

* `kcopy-gen/NAME.c`: the definitions of each sources list line as the
  patched source has them, each with the comment above it; the module
  compiles these;
* `a/`, `b/`: the kernel files as the source has them and patched;
* `deviations.diff`: the patch per definition (foliotune's names put back
  to the kernel's), for reading.

It refuses, with one line and no `build/kcopy/REL/`, when the patch does
not apply without fuzz, when a hunk lands outside the definitions its
`@@` line names (an offset can carry a hunk into another function:
foliotune.patch's abort counter applies at the end of
`try_to_migrate_one()` in a source whose `try_to_unmap_one()` ends
otherwise; `make kcopy-refresh` names every hunk), when a copied
definition is missing from the source, when a change the patch makes carries no `foliotune:` marker, and
when the patch changes anything outside the copied definitions (b/ with
each copied definition put back as a/ has it must equal a/).  So every
line compiled from `kcopy-gen/` is the build's own code or a marked
change, by construction; there is no hand-made copy to compare.  A build
whose source takes the patch, and passes the binary and boot stages of
`make verify-kernel`, needs no change to foliotune.

The seam: module/unmap.c, module/referenced.c and module/faultaround.c
`#include "kcopy-gen/NAME.c"` where the function stands, and the frames in
module/kcopy/*.h (their includes and build-time checks) include the
helpers; Kbuild puts `build/kcopy/REL/` on the include path (FT_KCOPY).
An include, not a separate object: the copies call foliotune's static
helpers and counters of the file they are part of, and inline them, so
the translation unit, and the code compiled, is what it was when the
copies were in the file; nothing of them had to become global.  Module
copies for tests (`build_module_copy`: mutants, inject, the debug lane)
get `kcopy-gen/` in their flat copy, so a mutant of copied code patches
`module/kcopy-gen/NAME.c`.

The readable copy is generated, not kept in the tree: `make kcopy` shows
where (the default build unless KVER is given), and `make check-style`
runs checkpatch on it.  One home for foliotune's changes, the patch: an
in-tree copy would be a second home, right for one build and silently
wrong for the others, which compile their own.  To change copied code,
edit the patched files in `build/kcopy/REL/b/` and run `make
kcopy-refresh KVER=REL`: it rewrites the patch as the difference of `a/`
and `b/` (the way a kpatch patch is a diff of an edited tree) and makes
the copies again, with every check above.  Review the patch and the
`kcopy-gen/` files it makes.

A source whose code differs in meaning gets a variant: a patch of its own
in module/kcopy/, reviewed against that source and kept as small as the
difference allows, named in patches.list with the first upstream version
it serves.  Measured on 2026-12-03 with `make kcopy` on all 13 source
versions of the 26 non-RT builds from 6.12.107 on:

| sources | foliotune.patch | the copies, against 6.12.118-1's |
|---|---|---|
| 6.12.117-1, 6.12.118-1 (and their `~deb12u1`) | applies, no fuzz | identical |
| 6.12.111-1 to 6.12.116-1 (8 versions: 111, 113, 115, 115-2, 116, the `~deb12u1` ones) | applies, no fuzz; the same marked changes | 4 lines more: the build's own `unmap_huge_pmd_locked()` call in `try_to_unmap_one()`'s PMD branch (gone from 6.12.117 on), which none of foliotune's changes touches; the module reaches it by livepatch relocation (klp-symbols.list) |
| 6.12.107-1 (and `~deb12u1`) | 3 of 19 hunks fail | from the variant foliotune-6.12.107.patch: `try_to_unmap_one()` there takes `pteval` only from clearing the PTE and marks the folio dirty after the branches (no PFN-swap PTE handling yet); the variant differs from foliotune.patch in those 3 hunks only (the PTE read once for the run decision, the batched branch without its own dirty marking, one restore count), about 20 changed lines |

So patches.list names foliotune-6.12.107.patch for 6.12.107 and
foliotune.patch from 6.12.111 on.

Linux 7 is a generation of its own: its `try_to_unmap_one()` and
`folio_referenced_one()` batch runs themselves, and 7.3 moved hugetlb to
its own `rmap_one` and the anon branch into `ttu_anon_*()` helpers.  The
6.12 patch cannot be refreshed for it (with `--fuzz=0` most hunks fail,
and three that apply land in `try_to_migrate_one()`), so
foliotune-7.3.patch and foliotune-7.2.patch are written against 7.3.4
and 7.2.13, each with its sources list (7.3's adds `folio_unmap_pte_batch()`,
`ttu_anon_*()`, `swp_pte_prepare()`, the `flush_tlb_range()` macro and
the 4-argument `arch_tlbbatch_add_pending()`).  Every 7.2 source Debian
serves (7.2.6-1~bpo13+1 to 7.2.13-1) has the same code in the copied
definitions: the copies differ only in their header line.  The module compiles for 6.12.107 and
6.12.111 of both suites (every non-exported symbol it reaches is in
klp-symbols.list); the binary and boot stages of `make verify-kernel` are
what proves each build.

A change to a patch that leaves its context lines alone (marked lines
only) keeps each build's proof of the copies, but is made and compiled
again on every build: `make modules-all` runs `make kcopy` (no fuzz,
every hunk marked) and the module build per verified build.  Last after
such a change: 2026-12-03 at da72b79 (`folio_referenced_one()` handed
the run's any-young answer): 25 of 25 builds, no fuzz, built; not booted
(CI's kernels stage boots two of them).

## What it costs (shared 2-core host, TCG)

| step | time |
|---|---|
| Debian 13 build root (mmdebstrap, once) | 66 s, 352 MB |
| 2026-12-01: `verify-kernel`, first time (fetch included) | 6.12.117+deb13-amd64 398 s, 6.12.117+deb13-cloud-amd64 335 s, 6.12.117+deb12-cloud-amd64 376 s |
| 2026-12-01: `verify-kernel`, all but the kallsyms boot cached | 6.12.117+deb12-amd64 398 s, 6.12.118+deb13-cloud-amd64 494 s |
| 2026-12-01: `verify-kernel`, everything cached | 6.12.118+deb13-amd64 463 s |
| 2026-12-01, of which: fetch / source / binary / module build / smoke boot | 64-114 s / 1 s / 4-10 s / 30-80 s / 181-375 s |
| 2026-12-03: fetch alone (`fetch.sh REL image headers source`, one build ahead, mostly during the previous smoke boot) | 23-129 s per build (18 builds, 6.12.107 to 6.12.116) |
| 2026-12-03: `verify-kernel`, fetch cached, kallsyms boot included | 16 builds of 6.12.107 to 6.12.116: 228-347 s (median 260 s); 6.12.107+deb13-amd64 347 s, 6.12.116+deb13-amd64 228 s |
| 2026-12-03, of which: source / kallsyms boot / binary / module build / smoke boot | 0-2 s / 10-38 s / 1-5 s / 12-37 s / 203-319 s |
| a build refused by the source check | the source download (1-4 min), then 1 s |
| one build in the cache | 130-280 MB (image, headers, modules.dep, vmlinux, kallsyms); a source 0.6 MB |

Ranges are from a shared host: on 2026-12-01 with other test boxes
running, on 2026-12-03 one box at a time beside another helper's host
tests (the next build's fetch ran during each smoke boot).  The smoke
boot dominates; `make check-kernels` costs the module build plus the smoke
boot per build.  `make check` runs it (its "kernels" stage) on the builds
in scripts/kernels/ci-kernels other than the default, which gets the whole
suite.

## Support matrix

EOT
echo "Default build (scripts/kernels/default-kver, what \`make\` and \`make check\` build for): \`$default\`."
echo
echo "| build | package | verified | date | commit | note |"
echo "|---|---|---|---|---|---|"
scripts/kernels/list.sh | awk '{ split($1, v, "[.+]"); if (v[1] + 0 >= 7 || v[3] + 0 >= 107) print }' |
while read -r rel pkg; do
	h=module/verified/$rel.h
	if [ -f "$h" ]; then
		read -r date commit < <(sed -n 's/^ \* Verified \([0-9-]*\) at commit \([0-9a-f]*\)\.$/\1 \2/p' "$h")
		echo "| $rel | $pkg | yes | ${date:-} | ${commit:-} | |"
	elif [[ $rel == *-rt-amd64 ]]; then
		echo "| $rel | $pkg | no | | | refused: PREEMPT_RT |"
	elif reason=$(awk -v r="$rel" -v p="$pkg" '$1 == r || $1 == p { sub(/^[^ ]+ /, ""); print; exit }' \
			scripts/kernels/refused.list) && [ -n "$reason" ]; then
		echo "| $rel | $pkg | no | | | $reason |"
	else
		echo "| $rel | $pkg | no | | | not yet verified |"
	fi
done
