#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch.sh KVER [PART...] - put one Debian kernel build into the project's
# cache, never onto the host: `apt-get download` through the private apt
# configuration (apt.sh), then `dpkg-deb -x`.  Nothing is installed and
# /boot is not touched.  Each part is unpacked into a temporary directory
# and renamed into place only when complete; a part already there is not
# fetched again.  PARTs (default: image headers):
#
#   image    -> kernels/KVER/image/, laid out alike for every build:
#            boot/vmlinuz-KVER, boot/config-KVER, lib/modules/KVER (with
#            its modules.dep made by depmod).  Up to 6.x one package,
#            linux-image-KVER-unsigned, ships it so.  From Linux 7 Debian
#            splits the kernel: linux-binary-unsigned-KVER (the image,
#            usr/lib/modules/KVER/vmlinuz.unsigned), linux-modules-KVER and
#            linux-base-KVER (config, a stub System.map, modules.builtin*),
#            all under usr/lib/modules/KVER; an installed system gets the
#            image as vmlinuz there and, from linux-base's legacy-boot
#            hook, /boot/vmlinuz-KVER and /boot/config-KVER as links to
#            them.  The cache does what that install does (vmlinuz,
#            config, and their /boot names as hard links), so the box,
#            verify-kernel and the debug lane find image, config and
#            modules the same way for both generations.
#   headers  linux-headers-KVER, its -common and linux-kbuild packages
#                                         -> kernels/KVER/headers/
#            (usr/src/linux-headers-KVER is the KDIR; absolute symlinks
#            are made relative so the tree works where it lies)
#   source   the files of linux-source-X.Y (KVER's series, the same
#            package version) that foliotune copies from, and
#            scripts/extract-vmlinux     -> linux-source/VERSION/
#
# fetch.sh KVER --path PART  prints where PART lives (fetched or not):
#   kernel (the image file), modules (the modules dir), kdir, source, version
#
# FT_SOURCE_VERSION=VERSION names the package version instead of the
# registry's current one (make verify-kernel on the machine that runs KVER:
# the version its `uname -v` names).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${FT_CACHE:-/var/cache/foliotune}
kver=${1:?usage: fetch.sh KVER [image|headers|source...] | fetch.sh KVER --path WHAT}
shift
kdir=$cache/kernels/$kver
apt=("$here/apt.sh")

die() { echo "kernels: $*" >&2; exit 1; }

case "$kver" in
*[!A-Za-z0-9.+_-]* | "") die "'$kver' is not a kernel release (e.g. 6.12.118+deb13-amd64)" ;;
esac
# The source package is named by the series (7.3.4+deb13-amd64:
# linux-source-7.3); the image package by the generation (above).
series=$(echo "$kver" | sed -n 's/^\([0-9]\+\.[0-9]\+\)[.+-].*/\1/p')
[ -n "$series" ] || die "'$kver' is not a kernel release (e.g. 6.12.118+deb13-amd64)"
srcpkg=linux-source-$series
if [ "${series%%.*}" -ge 7 ]; then
	split=1
	imgpkg=linux-binary-unsigned-$kver
else
	split=0
	imgpkg=linux-image-$kver-unsigned
fi

# The package version of KVER's image (e.g. 6.12.118-1), from the cache when
# the image is there, else from the registry's lists.
pkg_version() {
	if [ -n "${FT_SOURCE_VERSION:-}" ]; then
		echo "$FT_SOURCE_VERSION"
		return
	fi
	if [ -s "$kdir/image/.version" ]; then
		cat "$kdir/image/.version"
		return
	fi
	{ "${apt[@]}" apt-cache show --no-all-versions "$imgpkg" 2>/dev/null || true; } |
		sed -n 's/^Version: //p' | head -1
}

if [ "${1:-}" = --path ]; then
	case "${2:-}" in
	kernel) echo "$kdir/image/boot/vmlinuz-$kver" ;;
	modules) echo "$kdir/image/lib/modules/$kver" ;;
	kdir) echo "$kdir/headers/usr/src/linux-headers-$kver" ;;
	version) pkg_version ;;
	source)
		v=$(pkg_version)
		[ -n "$v" ] || die "no package $imgpkg in the registry: check KVER (scripts/kernels/list.sh lists the builds)"
		echo "$cache/linux-source/$v"
		;;
	*) die "fetch.sh KVER --path kernel|modules|kdir|source|version" ;;
	esac
	exit 0
fi

[ $# -gt 0 ] || set -- image headers

# download DIR PKG[=VER]...: .debs into DIR, one line on failure.
download() {
	local dir=$1
	shift
	(cd "$dir" && "${apt[@]}" apt-get -qq download "$@" >/dev/null 2>"$dir/.err") || {
		sed 's/^/kernels: /' "$dir/.err" >&2
		die "download of $* failed: check the network, or that KVER $kver is a build in the registry (scripts/kernels/list.sh)"
	}
	rm -f "$dir/.err"
}

# new_part DEST: a temporary directory next to DEST, removed on failure.
tmp=""
cleanup() {
	[ -z "$tmp" ] || rm -rf "$tmp"
	rmdir "$kdir" 2>/dev/null || true	# only if a first fetch left it empty
}
trap cleanup EXIT
new_part() {
	mkdir -p "$(dirname "$1")"
	tmp=$(mktemp -d "$(dirname "$1")/.fetch.XXXXXX")
}
commit_part() {
	rm -rf "$1"
	mv "$tmp/root" "$1"
	rm -rf "$tmp"
	tmp=""
}

need_root() {
	[ -w "$cache" ] || mkdir -p "$cache" 2>/dev/null || die "cannot write $cache: run as root (sudo make ...) or set FT_CACHE"
}

version=""
resolve() {
	[ -n "$version" ] && return
	"${apt[@]}" update
	version=$(pkg_version)
	[ -n "$version" ] || die "no package $imgpkg in the registry: check KVER (scripts/kernels/list.sh lists the builds)"
}

fetch_image() {
	[ -e "$kdir/image/.version" ] && return
	need_root
	resolve
	local pkgs=("$imgpkg=$version")
	[ "$split" = 0 ] || pkgs+=("linux-modules-$kver=$version" "linux-base-$kver=$version")
	echo "kernels: fetching ${pkgs[*]}" >&2
	new_part "$kdir/image"
	download "$tmp" "${pkgs[@]}"
	mkdir "$tmp/root"
	local deb
	for deb in "$tmp"/*.deb; do
		dpkg-deb -x "$deb" "$tmp/root"
	done
	# trixie ships usr/lib/modules (merged /usr), bookworm lib/modules; so
	# do the headers packages (their lib/modules/KVER/source link).
	local hmods=lib/modules
	if [ ! -d "$tmp/root/lib/modules/$kver" ] && [ -d "$tmp/root/usr/lib/modules/$kver" ]; then
		hmods=usr/lib/modules
		mkdir -p "$tmp/root/lib/modules"
		mv "$tmp/root/usr/lib/modules/$kver" "$tmp/root/lib/modules/"
	fi
	local mods=$tmp/root/lib/modules/$kver
	if [ "$split" = 1 ]; then
		[ -r "$mods/vmlinuz.unsigned" ] || die "$imgpkg has no usr/lib/modules/$kver/vmlinuz.unsigned"
		[ -r "$mods/config" ] || die "linux-base-$kver has no usr/lib/modules/$kver/config"
		[ -d "$mods/kernel" ] || die "linux-modules-$kver has no usr/lib/modules/$kver/kernel"
		mv "$mods/vmlinuz.unsigned" "$mods/vmlinuz"
		mkdir -p "$tmp/root/boot"
		ln "$mods/vmlinuz" "$tmp/root/boot/vmlinuz-$kver"
		ln "$mods/config" "$tmp/root/boot/config-$kver"
	fi
	[ -r "$tmp/root/boot/vmlinuz-$kver" ] || die "$imgpkg has no boot/vmlinuz-$kver"
	[ -r "$tmp/root/boot/config-$kver" ] || die "$imgpkg has no boot/config-$kver"
	depmod -b "$tmp/root" "$kver" || die "depmod of $kver failed"
	# The build link points where the headers would be installed; point it
	# at the cache's copy (the guest sees the host's root).
	ln -sfn "$kdir/headers/usr/src/linux-headers-$kver" "$mods/build"
	# and source (the -common headers, which bpftrace reads) at the
	# headers package's own source link
	ln -sfn "$kdir/headers/$hmods/$kver/source" "$mods/source"
	echo "$version" > "$tmp/root/.version"
	commit_part "$kdir/image"
}

fetch_headers() {
	[ -e "$kdir/headers/.version" ] && return
	need_root
	resolve
	local deps pkgs
	deps=$("${apt[@]}" apt-cache show --no-all-versions "linux-headers-$kver=$version" 2>/dev/null | sed -n 's/^Depends: //p' | head -1)
	[ -n "$deps" ] || die "no package linux-headers-$kver=$version in the registry"
	# The headers' own packages: linux-headers-*-common* and linux-kbuild-*
	# (pinned to their version); compilers etc. are the build root's job.
	mapfile -t pkgs < <(echo "$deps" | tr ',' '\n' | sed -n \
		's/^ *\(linux-\(headers-[^ ]*common[^ ]*\|kbuild-[^ ]*\)\) *(\(>=\|=\) *\([^)]*\)).*/\1=\4/p; s/^ *\(linux-kbuild-[^ (|]*\) *$/\1/p')
	echo "kernels: fetching linux-headers-$kver $version (+ ${pkgs[*]})" >&2
	new_part "$kdir/headers"
	download "$tmp" "linux-headers-$kver=$version" "${pkgs[@]}"
	mkdir "$tmp/root"
	local deb
	for deb in "$tmp"/*.deb; do
		dpkg-deb -x "$deb" "$tmp/root"
	done
	# Absolute symlinks (e.g. into /usr/lib/linux-kbuild-*) would point into
	# the host: make them relative within the tree.
	local link target
	while IFS= read -r link; do
		target=$(readlink "$link")
		ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" "$tmp/root$target")" "$link"
	done < <(find "$tmp/root" -type l -lname '/*')
	# The flavour's Makefile includes the -common one by absolute path
	# (and from Linux 7 names itself as KBUILD_OUTPUT so).
	sed -i -e "s|^include /usr/src/|include $kdir/headers/usr/src/|" \
		-e "s|^KBUILD_OUTPUT=/usr/src/|KBUILD_OUTPUT=$kdir/headers/usr/src/|" \
		"$tmp/root/usr/src/linux-headers-$kver/Makefile"
	[ -r "$tmp/root/usr/src/linux-headers-$kver/Makefile" ] || die "linux-headers-$kver has no Makefile"
	echo "$version" > "$tmp/root/.version"
	commit_part "$kdir/headers"
}

# The source files foliotune's copies come from (every sources list of
# module/kcopy/patches.list: kcopy.py --files), and what make verify-kernel
# runs from the source: the callers it checks (mm/filemap.c), the version,
# extract-vmlinux.
mapfile -t source_files < <(python3 "$here/kcopy.py" --files "$here/../..")
[ ${#source_files[@]} -gt 0 ] || die "no kernel files in module/kcopy/'s sources lists"
source_files+=(mm/filemap.c Makefile scripts/extract-vmlinux)

# source_complete DIR: DIR holds every file above.  One cached before a file
# joined the list is fetched again.
source_complete() {
	local f
	[ -e "$1/.version" ] || return 1
	for f in "${source_files[@]}"; do
		[ -e "$1/$f" ] || return 1
	done
}

fetch_source() {
	# A source already cached needs no registry (make kcopy, make deps).
	local have
	have=$(pkg_version)
	[ -n "$have" ] && source_complete "$cache/linux-source/$have" && return
	resolve
	local dest=$cache/linux-source/$version
	source_complete "$dest" && return
	need_root
	echo "kernels: fetching $srcpkg $version" >&2
	new_part "$dest"
	download "$tmp" "$srcpkg=$version"
	mkdir "$tmp/root"
	dpkg-deb --fsys-tarfile "$tmp"/linux-source-*.deb |
		tar -xO "./usr/src/$srcpkg.tar.xz" |
		xz -dc | tar -C "$tmp/root" --strip-components=1 -x "${source_files[@]/#/$srcpkg/}" ||
		die "$srcpkg $version: could not unpack ${source_files[*]}"
	echo "$version" > "$tmp/root/.version"
	commit_part "$dest"
}

for part; do
	case "$part" in
	image) fetch_image ;;
	headers) fetch_headers ;;
	source) fetch_source ;;
	*) die "unknown part '$part' (image, headers, source)" ;;
	esac
done
