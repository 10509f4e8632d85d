#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh KVER OUT [MODDIR] - build the test box's stage-1 initramfs.
# VMRUN_FS=virtiofs: the root comes over virtiofs, not 9p (kernels without
# 9p, e.g. Debian's cloud flavour).
#
# A static busybox, the modules needed to mount the host's root over
# virtio-9p with a tmpfs overlay (resolved with modprobe --show-depends, so
# 6.1's extra virtio_pci/fscache are picked up too), and harness/vm/init.
# Modules are decompressed here because busybox insmod does not read .ko.xz.
# MODDIR: the kernel's modules dir when it is not /lib/modules/KVER (the
# debug-kernel lane's, where all of these are built in).
set -euo pipefail

kver=${1:?usage: mkinitramfs.sh KVER OUT [MODDIR]}
out=${2:?usage: mkinitramfs.sh KVER OUT [MODDIR]}
moddir=${3:-/lib/modules/$kver}
here=$(cd "$(dirname "$0")" && pwd)
modprobe_args=(-S "$kver")
# modprobe -d takes the root above lib/modules/KVER.
[ "$moddir" = "/lib/modules/$kver" ] || modprobe_args+=(-d "${moddir%/lib/modules/$kver}")

[ -x /bin/busybox ] || { echo "mkinitramfs: /bin/busybox missing: apt-get install busybox-static" >&2; exit 1; }
[ -d "$moddir" ] || { echo "mkinitramfs: $moddir missing: install linux-image-$kver-unsigned" >&2; exit 1; }

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,dev,proc,sys,lower,upper,newroot,lib/modules}
cp /bin/busybox "$root/bin/busybox"
for applet in sh mount umount insmod mkdir cat echo sleep poweroff sync chroot dmesg ln; do
	ln -s busybox "$root/bin/$applet"
done

: > "$root/lib/modules/load.order"
fs_mods="9pnet_virtio 9p"
[ "${VMRUN_FS:-9p}" = virtiofs ] && fs_mods="virtiofs"
for mod in virtio_pci $fs_mods overlay; do
	modprobe "${modprobe_args[@]}" --show-depends "$mod" 2>/dev/null | while read -r kind path _; do
		[ "$kind" = builtin ] && echo "$path" >> "$root/builtin"
		[ "$kind" = insmod ] || continue
		name=$(basename "$path"); name=${name%.xz}; name=${name%.zst}
		[ -e "$root/lib/modules/$name" ] && continue
		case "$path" in
		*.xz) xz -dc "$path" > "$root/lib/modules/$name" ;;
		*.zst) zstd -qdc "$path" > "$root/lib/modules/$name" ;;
		*) cp "$path" "$root/lib/modules/$name" ;;
		esac
		echo "$name" >> "$root/lib/modules/load.order"
	done
done
fs_mod=${fs_mods##* }
grep -q "^$fs_mod.ko\$" "$root/lib/modules/load.order" || grep -qx "$fs_mod" "$root/builtin" 2>/dev/null ||
	{ echo "mkinitramfs: could not resolve $fs_mod for $kver" >&2; exit 1; }

rm -f "$root/builtin"
install -m 0755 "$here/init" "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$out.tmp"
mv "$out.tmp" "$out"
