#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build.sh [--dir] - build the debug kernel of the debug-kernel lane
# (docs/debug-lane.md), once, cached outside the repository.
#
# Debian's 6.12.117 of bookworm (6.12.117+deb12-amd64: linux-source-6.12
# 6.12.117-1~deb12u1, unpacked in $FT_DEBUG_KSRC by scripts/ksrc.sh, built
# out of tree with O=; not the default build's tree, KSRC), with
# Debian's own config plus debug.config (DEBUG_VM, DEBUG_VM_PGFLAGS,
# PAGE_TABLE_CHECK_ENFORCED, PROVE_LOCKING, DEBUG_ATOMIC_SLEEP), and the
# modules trimmed to what the test box loads (modules.lsmod, from lsmod in
# a stock guest), those built in (localyesconfig): the guest then needs no
# modules of its own, and the build fits in well under an hour on 2 cores.
#
# Cache: ${FT_DEBUG_CACHE:-/var/cache/foliotune}/debug-HASH, HASH over the
# config inputs (source package version, Debian config, debug.config,
# modules.lsmod, RECIPE below).  Inside: obj/ (the build tree, also the
# KDIR external modules build against), vmlinuz, modroot/lib/modules/REL
# (modules.builtin etc., bound over /lib/modules/REL in the guest),
# release, version, build-time, done.
#
# --dir prints the cache directory and exits (no build).
# Environment: FT_DEBUG_CACHE, FT_DEBUG_KSRC, FT_DEBUG_JOBS (default 2).
# The build runs under nice -n 19: the machine's cores belong to the VMs.
set -uo pipefail

# All in one function, parsed before it runs: the build takes long, and bash
# would read an edited script file mid-run from a stale offset.
main() {
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
ksrc=${FT_DEBUG_KSRC:-/var/cache/foliotune/linux-source-6.12}
cache=${FT_DEBUG_CACHE:-/var/cache/foliotune}
base_kver=6.12.117+deb12-amd64
srcpkg=linux-source-6.12
jobs=${FT_DEBUG_JOBS:-2}
# Bump when the way the tree is configured or built changes.
RECIPE=1

die() { echo "debug-kernel: $*" >&2; exit 1; }

# Debian's config and the source version of the base build, from the
# kernel cache (scripts/kernels/fetch.sh: never installed on the host)
"$repo/scripts/kernels/fetch.sh" "$base_kver" image > /dev/null ||
	die "cannot fetch $base_kver into the kernel cache"
base_config=$(dirname "$("$repo/scripts/kernels/fetch.sh" "$base_kver" --path kernel)")/config-$base_kver
[ -r "$base_config" ] || die "$base_config missing from the kernel cache"
srcver=$("$repo/scripts/kernels/fetch.sh" "$base_kver" --path version) ||
	die "no package version for $base_kver"
[ "$srcver" = "6.12.117-1~deb12u1" ] || die "$base_kver is $srcver, the lane is for 6.12.117-1~deb12u1"

hash=$( { echo "recipe $RECIPE"; echo "$srcpkg $srcver"; cat "$base_config" \
	"$here/debug.config" "$here/modules.lsmod"; } | sha256sum | cut -c1-12)
dir=$cache/debug-$hash
# FT_DEBUG_DIR: use an already built tree of the same layout instead (e.g.
# a copy from another machine; the lane's plumbing can be tried on a
# stand-in made of the stock kernel, see docs/debug-lane.md).
if [ -n "${FT_DEBUG_DIR:-}" ]; then
	dir=$FT_DEBUG_DIR
	[ "${1:-}" = --dir ] && { echo "$dir"; exit 0; }
	[ -f "$dir/done" ] || die "FT_DEBUG_DIR=$dir is not a finished build (no $dir/done)"
fi
if [ "${1:-}" = --dir ]; then
	echo "$dir"
	exit 0
fi
# The headers of an O= build are split: generated ones in obj/ (the
# modules' "build" link), the rest in the source tree.  Like Debian's
# /lib/modules/REL, give the guest a "source" link too: bpftrace (no BTF
# here) finds include/linux/kconfig.h through it.
source_link() {
	ln -sfn "$ksrc" "$dir/modroot/lib/modules/$(cat "$dir/release")/source"
}
if [ -f "$dir/done" ]; then
	source_link || die "cannot link the source tree into $dir/modroot"
	echo "debug-kernel: cached: $dir ($(cat "$dir/release"), built in $(cat "$dir/build-time"))"
	exit 0
fi

for tool in flex bison bc gcc make perl; do
	command -v $tool >/dev/null || die "$tool missing: make deps"
done
"$repo/scripts/ksrc.sh" "$ksrc" "$base_kver" || exit 1
[ ! -e "$ksrc/.config" ] || die "$ksrc is configured in place; O= builds need a clean source tree"

obj=$dir/obj
mkdir -p "$obj" || die "cannot create $obj (FT_DEBUG_CACHE picks another cache)"
# One build per tree at a time (a second `make check-debug` waits for none).
exec 9> "$dir/.lock"
flock -n 9 || die "another build of $dir is running (its log: $dir/build.log)"
# The version string carries the config hash: the module's build check
# (module/verified/REL.h) then names exactly this build.
export KBUILD_BUILD_VERSION=1
export KBUILD_BUILD_VERSION_TIMESTAMP="6.12.117-1~deb12u1 ftdebug-$hash"
export KBUILD_BUILD_USER=foliotune KBUILD_BUILD_HOST=debug-lane
kmake() { nice -n 19 make -C "$ksrc" O="$obj" "$@"; }

start=$(date +%s)
# An interrupted build resumes (same .config: kbuild rebuilds nothing done);
# its build-time then covers only the last part, and says so.
resumed=""
[ -e "$obj/init/main.o" ] && resumed=", resumed"
echo "debug-kernel: configuring $obj"
cp "$base_config" "$obj/.config"
kmake olddefconfig > "$dir/config.log" 2>&1 || die "olddefconfig failed: $dir/config.log"
# Trim: keep (built in) only the modules the test box loads.
kmake LSMOD="$here/modules.lsmod" localyesconfig >> "$dir/config.log" 2>&1 ||
	die "localyesconfig failed: $dir/config.log"
"$ksrc/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$here/debug.config" \
	>> "$dir/config.log" 2>&1 || die "merge_config failed: $dir/config.log"
kmake olddefconfig >> "$dir/config.log" 2>&1 || die "olddefconfig failed: $dir/config.log"
# Every line of debug.config must have survived the dependency resolution.
bad=0
while read -r line; do
	case "$line" in
	CONFIG_*=*) grep -qxF "$line" "$obj/.config" || { echo "debug-kernel: not set: $line" >&2; bad=1; } ;;
	"# CONFIG_"*" is not set") sym=${line#\# }; sym=${sym%% *}
		! grep -q "^$sym=" "$obj/.config" || { echo "debug-kernel: still set: $sym" >&2; bad=1; } ;;
	esac
done < "$here/debug.config"
[ "$bad" = 0 ] || die "config check failed (see above)"
for m in xfs zram 9p overlay virtio_blk loop; do
	sym=$(case $m in xfs) echo XFS_FS ;; zram) echo ZRAM ;; 9p) echo 9P_FS ;;
		overlay) echo OVERLAY_FS ;; virtio_blk) echo VIRTIO_BLK ;; loop) echo BLK_DEV_LOOP ;; esac)
	grep -qx "CONFIG_$sym=y" "$obj/.config" || die "CONFIG_$sym not built in"
done
echo "debug-kernel: $(grep -c '=m$' "$obj/.config") modules, $(grep -c '=y$' "$obj/.config") built-in options"

echo "debug-kernel: building (make -j$jobs under nice -n 19; log: $dir/build.log)"
if ! kmake -j"$jobs" bzImage modules > "$dir/build.log" 2>&1; then
	tail -20 "$dir/build.log" >&2
	die "kernel build failed: $dir/build.log"
fi
rm -rf "$dir/modroot"
kmake INSTALL_MOD_PATH="$dir/modroot" INSTALL_MOD_STRIP=1 modules_install >> "$dir/build.log" 2>&1 ||
	die "modules_install failed: $dir/build.log"
end=$(date +%s)

rel=$(cat "$obj/include/config/kernel.release")
cp "$obj/arch/x86/boot/bzImage" "$dir/vmlinuz"
echo "$rel" > "$dir/release"
source_link || die "cannot link the source tree into $dir/modroot"
sed -n 's/^#define UTS_VERSION "\(.*\)"$/\1/p' "$obj/include/generated/utsversion.h" > "$dir/version"
secs=$((end - start))
printf '%dm%02ds (make -j%s, nice 19, %s%s)\n' $((secs / 60)) $((secs % 60)) "$jobs" "$(date -u +%F)" "$resumed" > "$dir/build-time"
ln -sfn "debug-$hash" "$cache/debug-current" 2>/dev/null || true
touch "$dir/done"
echo "debug-kernel: built $rel in $(cat "$dir/build-time"): $dir"
}
main "$@"
exit
