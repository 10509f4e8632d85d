#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make verify-kernel on the machine that runs the kernel (scripts/kernels/
# verify.sh, local mode; docs/own-box.md), with the machine faked:
# FT_VERIFY_ROOT prefixes /proc, /boot, /sys, /etc and /var/lib/foliotune,
# FT_VERIFY_UID the uid, FT_CACHE a scratch kernel cache.  Each refusal is
# one line that names what went wrong and the next step, with a non-zero
# exit and no header (nor a partial one) in module/verified/, the fake
# /var/lib/foliotune or build/verify/: without FT_TEST_BOX=1, without root,
# a PREEMPT_RT build (by name and by version string), a /boot image
# missing, a source package that cannot be fetched (a mirror that does not
# answer), a patch that does not apply (a cached source with a changed
# context line).  Then the header: the local one names the machine (a hash
# of its machine-id, never the id) and the time; the tree's is byte for
# byte the committed one's; make, support.sh and dkms's hook pick a local
# header for the kernel it was made for, and the tree's wins.  What this
# cannot fake (the build, the smoke suite on a real machine) is proved in
# the QEMU test box (docs/own-box.md, "Verifying the running kernel").
. "$(dirname "$0")/lib-host.sh"
cd "$repo" || exit 1
dkver=$(cat scripts/kernels/default-kver)
dver=$(sed -n '/^#define FT_VERIFIED_VERSION/,/"/s/^[^"]*"\(.*\)"$/\1/p' "module/verified/$dkver.h" | head -1)
dpkg=$(sed -n 's/^#define FT_VERIFIED_SOURCE.*linux-source-6.12 \(.*\)"$/\1/p' "module/verified/$dkver.h")
# a release of the default build's shape that nothing else uses
kver=${dkver%-amd64}-fttest-amd64
kre=${kver//+/\\+}	# (as an extended regular expression)

# fake [RELEASE [VERSION]]: a machine that runs RELEASE (default $kver),
# with its /boot, kallsyms, swap, cgroup v2 and machine-id; an empty cache.
root=$w/root cache=$w/cache
fake() {
	local rel=${1:-$kver} ver=${2:-$dver}
	rm -rf "$root" "$cache"
	mkdir -p "$root/proc/sys/kernel" "$root/boot" "$root/etc" "$root/sys/fs/cgroup" "$cache"
	echo "$rel" > "$root/proc/sys/kernel/osrelease"
	echo "$ver" > "$root/proc/sys/kernel/version"
	echo box1 > "$root/proc/sys/kernel/hostname"
	echo 0123456789abcdef0123456789abcdef > "$root/etc/machine-id"
	printf 'ffffffffa3e00000 T _text\nffffffffa3e01000 T startup_64\n' > "$root/proc/kallsyms"
	printf 'Filename\tType\tSize\tUsed\tPriority\n/dev/zram9 partition 1 0 1\n' > "$root/proc/swaps"
	echo "cpu memory" > "$root/sys/fs/cgroup/cgroup.controllers"
	echo 'image' > "$root/boot/vmlinuz-$rel"
	printf 'CONFIG_LIVEPATCH=y\nCONFIG_KPROBES=y\nCONFIG_DEBUG_FS=y\nCONFIG_KALLSYMS_ALL=y\n' > "$root/boot/config-$rel"
}
headers_before=$(find module/verified -name "*.h" | sort)
# verify NAME PATTERN [VAR=VAL...]: verify.sh for the faked running kernel
# fails with one line on standard error matching PATTERN (an extended
# regular expression), and leaves no header anywhere.
verify() {
	local name=$1 pat=$2 rel out rc left
	shift 2
	rel=$(cat "$root/proc/sys/kernel/osrelease")
	out=$(env FT_VERIFY_ROOT="$root" FT_CACHE="$cache" FT_VERIFY_UID=0 FT_TEST_BOX=1 \
		FT_DEBIAN_MIRROR=http://127.0.0.1:9 "$@" scripts/kernels/verify.sh "$rel" 2>&1 >/dev/null)
	rc=$?
	left=$(find "$root/var/lib/foliotune" "build/verify/$rel" -name '*.h*' 2>/dev/null)
	if [ "$rc" = 0 ]; then
		not_ok "verify-local: $name" "exit 0: $out"
	elif [ "$(printf '%s\n' "$out" | grep -c .)" != 1 ]; then
		not_ok "verify-local: $name" "not one line: $out"
	elif ! grep -qE "$pat" <<< "$out"; then
		not_ok "verify-local: $name" "no '$pat' in: $out"
	elif [ -n "$left" ] || [ "$(find module/verified -name "*.h" | sort)" != "$headers_before" ]; then
		not_ok "verify-local: $name" "a header was left: $left"
	else
		ok "verify-local: $name"
	fi
}
cleanup_build() { rm -rf "build/verify/$kver" "build/kcopy/$kver" "build/kallsyms-$kver.txt"; }

fake
verify "without FT_TEST_BOX=1: one line, asks for it or FT_VERIFY_LOCAL=0" \
	"^verify-kernel $kre: verifying the running kernel .*THIS machine.*set FT_TEST_BOX=1 .*FT_VERIFY_LOCAL=0" FT_TEST_BOX=
verify "without root: one line, run as root" \
	"^verify-kernel $kre: .*run as root \(sudo FT_TEST_BOX=1 make verify-kernel\)$" FT_VERIFY_UID=1000
fake "${dkver%-amd64}-rt-amd64"
verify "a PREEMPT_RT build (release): refused in one line" "^verify-kernel .*-rt-amd64: refused: PREEMPT_RT .*boot a Debian build without -rt$"
fake "$kver" "#1 SMP PREEMPT_RT Debian $dpkg (2026-11-20)"
verify "a PREEMPT_RT build (version string): refused in one line" "^verify-kernel $kre: refused: PREEMPT_RT "
fake
rm "$root/boot/vmlinuz-$kver"
verify "the running kernel's /boot image missing: names it and the reinstall" \
	"^verify-kernel $kre: $root/boot/vmlinuz-$kre is missing: .*apt-get install --reinstall linux-image-$kre"
# A Linux 7 box: Debian installs image and config under
# /usr/lib/modules/REL/ (/boot has them only from linux-base's legacy-boot
# hook).  Found there, the run goes on to the source package, which for
# Linux 7.3 is linux-source-7.3 (the mirror does not answer).
k7=7.3.4+deb13-fttest-amd64
fake "$k7" "#1 SMP PREEMPT_DYNAMIC Debian 7.3.4-1~bpo13+1 (2026-11-15)"
mkdir -p "$root/usr/lib/modules/$k7"
mv "$root/boot/vmlinuz-$k7" "$root/boot/config-$k7" "$root/usr/lib/modules/$k7/"
mv "$root/usr/lib/modules/$k7/vmlinuz-$k7" "$root/usr/lib/modules/$k7/vmlinuz"
mv "$root/usr/lib/modules/$k7/config-$k7" "$root/usr/lib/modules/$k7/config"
verify "a Linux 7 box, image and config under /usr/lib/modules/REL/ only: found there; its source is linux-source-7.3" \
	"^verify-kernel ${k7//+/\\+}: the source package linux-source-7\.3 7\.3\.4-1~bpo13\+1 cannot be fetched"
rm "$root/usr/lib/modules/$k7/config"
verify "a Linux 7 box without its config anywhere: names the missing file" \
	"^verify-kernel ${k7//+/\\+}: $root/boot/config-${k7//+/\\+} is missing: "
rm -rf "build/verify/$k7" "build/kcopy/$k7"
fake
echo 6.12.0+deb13-amd64 > "$root/proc/sys/kernel/osrelease"
out=$(FT_VERIFY_ROOT="$root" FT_CACHE="$cache" FT_VERIFY_LOCAL=1 scripts/kernels/verify.sh "$kver" 2>&1)
check "verify-local: FT_VERIFY_LOCAL=1 and KVER not the running kernel: one line, refused" \
	grep -qF "verify-kernel $kver: FT_VERIFY_LOCAL=1 verifies the running kernel, 6.12.0+deb13-amd64, not KVER=$kver" <<< "$out"

# The running kernel is a build of the tree: nothing to do, nothing written.
fake "$dkver"
out=$(FT_VERIFY_ROOT="$root" FT_CACHE="$cache" scripts/kernels/verify.sh "$dkver" 2>&1)
check "verify-local: a build the tree verified: exit 0, nothing to do, in one line" \
	test $? = 0 -a "$(grep -c . <<< "$out")" = 1 -a ! -e "$root/var/lib/foliotune"
check "verify-local: ... saying so" grep -qF "already verified in the tree (module/verified/$dkver.h): nothing to do" <<< "$out"
out=$(FT_VERIFY_ROOT="$root" FT_CACHE="$cache" FT_VERIFY_LOCAL=1 FT_VERIFY_UID=1000 FT_TEST_BOX=1 scripts/kernels/verify.sh "$dkver" 2>&1)
check "verify-local: ... and FT_VERIFY_LOCAL=1 verifies it all the same (here: refused, not root)" \
	grep -q "run as root" <<< "$out"

# The source package of the version `uname -v` names, through the private
# apt configuration of a scratch cache, from a mirror that does not answer.
fake
verify "a source package that cannot be fetched: one line, the network or an upgrade" \
	"^verify-kernel $kre: the source package linux-source-6.12 $dpkg cannot be fetched \(.*\): check the network .*upgrade it"
check "verify-local: the fetch used the scratch cache's own apt configuration" \
	grep -q "127.0.0.1:9" "$cache/apt/sources.list"
cleanup_build

# A cached source (no registry needed) with a line of the patch's context
# changed: the patch does not apply.
ksrc=$(scripts/kernels/fetch.sh "$dkver" --path source 2>/dev/null)
if [ -r "$ksrc/mm/rmap.c" ]; then
	fake
	s=$cache/linux-source/$dpkg
	# the cached source as fetch.sh made it (only the files it fetches)
	mkdir -p "$s"
	cp -r "$ksrc/." "$s/"
	echo "$dpkg" > "$s/.version"
	sed -i 's/^\tunsigned long hsz = 0;$/\tunsigned long hsz = 1;/' "$s/mm/rmap.c"
	if cmp -s "$ksrc/mm/rmap.c" "$s/mm/rmap.c"; then
		not_ok "verify-local: a patch that does not apply" "test setup: the edit changed nothing"
	else
		verify "a patch that does not apply: one line, update foliotune or boot a verified build" \
			"^verify-kernel $kre: foliotune's patch does not apply to this kernel's source, linux-source-6.12 $dpkg \(build/verify/$kre/source.txt\): .*git pull.*boot a verified build"
		check "verify-local: the patch's own output is kept" grep -q "does not apply without fuzz" "build/verify/$kver/source.txt"
	fi
	cleanup_build
else
	not_ok "verify-local: a patch that does not apply" "no source of $dkver in the cache: make kcopy"
fi

# The header.
sizes=$w/sizes
printf 'try_to_unmap_one 0xd00\nfolio_referenced_one 0x460\n' > "$sizes"
fake
h=$(scripts/kernels/verified-header.sh "$kver" "$dver" "$dpkg" foliotune.patch "gcc-14 (Debian 14.2.0-19) 14.2.0" "$sizes" --local "$root")
mid=$(sha256sum < "$root/etc/machine-id" | cut -c1-16)
check "verify-local: the local header names the machine: hostname, machine-id hash, time" \
	grep -qE "^#define FT_VERIFIED_BY	\"on box1 \(machine-id sha256 $mid\) at [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} UTC\"$" <<< "$h"
check "verify-local: the local header holds no raw machine-id" sh -c "! grep -q 0123456789abcdef0123 <<'E'
$h
E"
check "verify-local: the local header says it is not the tree's" grep -q "not a header of" <<< "$h"
check_eq "verify-local: the local header's release, version, source, sizes" \
	"$kver|$dver|linux-source-6.12 $dpkg|0xd00|0x460" \
	"$(sed -n 's/^#define FT_VERIFIED_RELEASE.*"\(.*\)"$/\1/p' <<< "$h")|$(sed -n '/FT_VERIFIED_VERSION/{n;s/^\t"\(.*\)"$/\1/p}' <<< "$h")|$(sed -n 's/^#define FT_VERIFIED_SOURCE.*"\(.*\)"$/\1/p' <<< "$h")|$(sed -n 's/^#define FT_VERIFIED_SIZE_try_to_unmap_one\t//p' <<< "$h")|$(sed -n 's/^#define FT_VERIFIED_SIZE_folio_referenced_one\t//p' <<< "$h")"
# The tree's header: the committed default one's definitions, no machine.
t=module/verified/$dkver.h
sed -n 's/^#define FT_VERIFIED_SIZE_\([a-z_]*\)\t\(.*\)$/\1 \2/p' "$t" > "$w/tsizes"
scripts/kernels/verified-header.sh "$dkver" "$dver" "$dpkg" \
	"$(sed -n 's|^ \* Copies made with module/kcopy/\(.*\)\.$|\1|p' "$t")" \
	"$(sed -n 's/^ \* Compiler: //p' "$t")" "$w/tsizes" > "$w/tree.h"
if diff <(grep -v '^ \*\|^/\*' "$t") <(grep -v '^ \*\|^/\*' "$w/tree.h") > "$w/diff"; then
	ok "verify-local: the tree's header has the committed one's definitions, and no FT_VERIFIED_BY"
else
	not_ok "verify-local: the tree's header has the committed one's definitions, and no FT_VERIFIED_BY" "$(head -5 "$w/diff" | tr '\n' ' ')"
fi

# Who picks a local header up: support.sh (foliotune support), dkms's hook, make.
st=$w/state
mkdir -p "$st/verified"
printf '%s\n' "$h" > "$st/verified/$kver.h"
out=$(FT_STATE_DIR=$st scripts/kernels/support.sh "$kver" "$dver" 2>&1)
check "verify-local: support.sh supports a locally verified build and says by which machine" \
	grep -q "^foliotune supports $kver .*: verified locally on box1 (machine-id sha256 $mid) at .* ($st/verified/$kver.h)$" <<< "$out"
out=$(FT_STATE_DIR=$st scripts/kernels/support.sh "$kver" "#1 another build" 2>&1)
check "verify-local: support.sh refuses another version than the local header's: verify again" \
	grep -q "was verified on version .*verify this build again: sudo FT_TEST_BOX=1 make verify-kernel" <<< "$out"
cp "$st/verified/$kver.h" "$st/verified/$(uname -r).h"
check "verify-local: dkms's hook accepts a locally verified running kernel" \
	env FT_STATE_DIR="$st" scripts/dkms-check.sh "$(uname -r)"
out=$(scripts/dkms-check.sh 6.12.0+deb13-amd64 2>&1)
check "verify-local: dkms's hook refuses an unverified build, naming verify-kernel then dkms autoinstall" \
	grep -q "sudo FT_TEST_BOX=1 make verify-kernel, then dkms autoinstall" <<< "$out"
# (make -n still runs the lines that name $(MAKE): MAKE=echo, so that kbuild
# never runs here; a kbuild -n would remove the tree's module)
out=$(make -n --no-print-directory module KVER="$kver" FT_STATE_DIR="$st" KBUILD_RUN= MAKE=echo 2>&1)
check "verify-local: make module builds with the local header (copied into build/)" \
	grep -q "cp $st/verified/$kver.h $repo/build/verified-$kver.h" <<< "$out"
check "verify-local: ... and hands it to kbuild" grep -q "FT_VERIFIED_HEADER=$repo/build/verified-$kver.h modules" <<< "$out"
out=$(make -p -n --no-print-directory module KVER="$kver" FT_STATE_DIR="$st" KBUILD_RUN= MAKE=echo 2>&1)
check "verify-local: ... whose copies come from the source version it names, not the registry's current one" \
	grep -q "^FT_SOURCE_VERSION := $dpkg$" <<< "$out"
out=$(make -n --no-print-directory module KVER="$kver" FT_STATE_DIR="$w/none" KBUILD_RUN= MAKE=echo 2>&1)
check "verify-local: make module without any header: refused, naming both ways to verify" \
	grep -q "not verified on $kver: run .make verify-kernel KVER=$kver. .*sudo FT_TEST_BOX=1 make verify-kernel" <<< "$out"
cp "$st/verified/$kver.h" "$st/verified/$dkver.h"
out=$(make -n --no-print-directory module KVER="$dkver" FT_STATE_DIR="$st" KBUILD_RUN= MAKE=echo 2>&1)
check "verify-local: the tree's header wins over a local one" sh -c "! grep -q 'FT_VERIFIED_HEADER=' <<'E'
$out
E"
cleanup_build
