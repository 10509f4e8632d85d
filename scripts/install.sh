#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# install.sh install|uninstall - `make install` / `make uninstall`.
#
# Installs the built module as /lib/modules/KVER/updates/foliotune.ko (then
# depmod, so modprobe and `foliotune load` find it), the CLI and its man
# page.  Every file and every directory it had to create is written to a
# manifest, so that uninstall removes exactly those and nothing that was
# there before.  The converted module is copied as built: kbuild's
# modules_install would sign and recompress it, and foliotune is an
# unsigned livepatch.
#
# Environment (from the Makefile): KVER DESTDIR PREFIX.
set -eu
what=${1:?usage: install.sh install|uninstall}
: "${KVER:?}" "${PREFIX:?}"
DESTDIR=${DESTDIR:-}
repo=$(cd "$(dirname "$0")/.." && pwd)
manifest=$DESTDIR/var/lib/foliotune/installed
ko=$DESTDIR/lib/modules/$KVER/updates/foliotune.ko
files=("$repo/module/foliotune.ko:$ko:0644"
       "$repo/userspace/foliotune:$DESTDIR$PREFIX/sbin/foliotune:0755"
       "$repo/userspace/foliotune.8:$DESTDIR$PREFIX/share/man/man8/foliotune.8:0644")

# mkdirs DIR: create DIR and its missing parents, printing a manifest
# line for each.
mkdirs() {
	local d=$1 missing=()
	while [ ! -d "$d" ]; do
		missing=("$d" "${missing[@]}")
		d=$(dirname "$d")
	done
	for d in "${missing[@]}"; do
		mkdir -m 0755 "$d"
		echo "dir $d"
	done
}

depmod_kver() {
	[ -n "$DESTDIR" ] || depmod "$KVER"
}

case $what in
install)
	for f in "${files[@]}"; do
		src=${f%%:*}
		[ -f "$src" ] || { echo "install.sh: $src missing: run make first" >&2; exit 1; }
	done
	# Installing again (a rebuild, or for another kernel) keeps what the
	# earlier installs created: their directories, and a module of another
	# kernel, which uninstall must remove too.
	created=$(mkdirs "$(dirname "$manifest")")
	{
		[ -f "$manifest" ] && grep -E '^(dir|file) ' "$manifest"
		[ -n "$created" ] && echo "$created"
	} > "$manifest.new"
	for f in "${files[@]}"; do
		IFS=: read -r src dst mode <<< "$f"
		mkdirs "$(dirname "$dst")" >> "$manifest.new"
		install -m "$mode" "$src" "$dst"
		echo "file $dst" >> "$manifest.new"
		echo "  installed $dst"
	done
	awk '!seen[$0]++' "$manifest.new" > "$manifest"
	rm -f "$manifest.new"
	depmod_kver
	;;
uninstall)
	# the CLI that unloads it goes with the files: unload first.
	# (FT_SYSFS: the tests' fake sysfs; a DESTDIR has no module loaded.)
	sysfs=${FT_SYSFS-$([ -n "$DESTDIR" ] || echo /sys)}
	if [ -n "$sysfs" ] && [ -d "$sysfs/module/foliotune" ]; then
		echo "install.sh: foliotune is loaded: run 'foliotune unload' first (the CLI goes with uninstall)" >&2
		exit 1
	fi
	if [ -f "$manifest" ]; then
		# files first, then the directories install created, deepest first
		grep '^file ' "$manifest" | cut -d' ' -f2- | while read -r p; do
			rm -f "$p" && echo "  removed $p"
		done
		# the other kernels whose module went (depmod_kver does KVER's)
		if [ -z "$DESTDIR" ]; then
			grep -o '^file /lib/modules/[^/]*/updates/foliotune.ko$' "$manifest" |
				cut -d/ -f4 | grep -vx "$KVER" | while read -r k; do
				[ -d "/lib/modules/$k/kernel" ] && depmod "$k"
			done
		fi
		dirs=$(grep '^dir ' "$manifest" | cut -d' ' -f2- | sort -r)
		rm -f "$manifest"
		echo "$dirs" | while read -r p; do
			[ -n "$p" ] && rmdir "$p" 2>/dev/null || true
		done
	else
		echo "install.sh: no $manifest: removing foliotune's files only"
		for f in "${files[@]}"; do
			IFS=: read -r src dst mode <<< "$f"
			rm -f "$dst"
		done
	fi
	depmod_kver
	;;
*)
	echo "usage: install.sh install|uninstall" >&2
	exit 1
	;;
esac
