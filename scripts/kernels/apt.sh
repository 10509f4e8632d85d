#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# apt.sh APT-GET|APT-CACHE ARGS... - run apt-get or apt-cache against the
# project's private apt configuration in $FT_CACHE/apt (default
# /var/cache/foliotune/apt): its own sources list (bookworm, trixie and their
# security suites, trixie-backports and unstable, where Debian serves
# Linux 7), package lists and .deb cache, and an empty dpkg status, so the
# host's sources, lists and installed packages play no part and nothing is
# installed.  `apt.sh update` refreshes the lists (once a day unless
# FT_APT_REFRESH=1, and whenever the sources list changed).
#
# unstable is pinned below the stable suites (trixie-backports is below
# them already: its Release says NotAutomatic): a package name both serve
# resolves to the stable suite's version, so adding the Linux 7 suites
# changes no version a 6.12 build resolves to.
set -euo pipefail
cache=${FT_CACHE:-/var/cache/foliotune}
dir=$cache/apt
mirror=${FT_DEBIAN_MIRROR:-http://deb.debian.org}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

opts=(
	-o "Dir::Etc::sourcelist=$dir/sources.list" -o "Dir::Etc::sourceparts=$dir/empty.d"
	-o "Dir::Etc::preferences=$dir/preferences" -o "Dir::Etc::preferencesparts=$dir/empty.d"
	-o "Dir::State=$dir/state" -o "Dir::State::Lists=$dir/lists"
	-o "Dir::State::status=$dir/state/status" -o "Dir::Cache=$dir/cache"
	-o APT::Architecture=amd64 -o APT::Architectures::=amd64
	-o Acquire::Languages=none -o Debug::NoLocking=1 -o APT::Sandbox::User=root
)

setup() {
	mkdir -p "$dir/empty.d" "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/state"
	cat > "$dir/preferences.$$" <<EOT
Package: *
Pin: release a=unstable
Pin-Priority: 90
EOT
	mv "$dir/preferences.$$" "$dir/preferences"
	[ -e "$dir/state/status" ] || : > "$dir/state/status"
	cat > "$dir/sources.list.$$" <<EOT
deb [signed-by=$keyring] $mirror/debian bookworm main
deb [signed-by=$keyring] $mirror/debian-security bookworm-security main
deb [signed-by=$keyring] $mirror/debian trixie main
deb [signed-by=$keyring] $mirror/debian-security trixie-security main
deb [signed-by=$keyring] $mirror/debian trixie-backports main
deb [signed-by=$keyring] $mirror/debian unstable main
EOT
	mv "$dir/sources.list.$$" "$dir/sources.list"
}

[ $# -ge 1 ] || { echo "usage: apt.sh update | apt-get ARGS | apt-cache ARGS" >&2; exit 2; }
case "$1" in
update)
	# One update at a time (apt's own locking is off: Debug::NoLocking,
	# for a cache that is not root's alone).
	mkdir -p "$dir"
	exec 9> "$dir/.update.lock"
	flock 9
	setup
	# The stamp holds the sources list it was made for, and each suite
	# needs its lists: lists made for another sources list do not count.
	stamp=$dir/lists/.updated
	fresh=0
	if [ "${FT_APT_REFRESH:-0}" != 1 ] && [ -n "$(find "$stamp" -mmin -1440 2>/dev/null)" ] &&
	   cmp -s "$stamp" "$dir/sources.list"; then
		fresh=1
		for suite in $(awk '{ print $4 }' "$dir/sources.list"); do
			ls "$dir/lists/"*"_dists_${suite}_InRelease" > /dev/null 2>&1 || fresh=0
		done
	fi
	[ "$fresh" = 0 ] || exit 0
	apt-get "${opts[@]}" -qq --error-on=any update || {
		echo "kernels: apt-get update of $dir/sources.list failed: check the network or FT_DEBIAN_MIRROR" >&2
		exit 1
	}
	cp "$dir/sources.list" "$stamp"
	;;
apt-get | apt-cache)
	# (a sources list another checkout wrote, without the newer suites,
	# is brought up to date first)
	"$0" update
	tool=$1
	shift
	exec "$tool" "${opts[@]}" "$@"
	;;
*)
	echo "usage: apt.sh update | apt-get ARGS | apt-cache ARGS" >&2
	exit 2
	;;
esac
