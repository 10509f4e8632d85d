#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Knobs: root only, strict input.  Every bad write fails with an errno and
# leaves the value unchanged; good writes take effect and read back.
. "$(dirname "$0")/../lib.sh"
plan 52

ft_unload
ft_load || { not_ok "knobs: load" "insmod failed"; exit 0; }
knob=$FT_DEBUGFS/unmap_batch
check_eq "knobs: unmap_batch defaults to 1" 1 "$(cat "$knob")"
# Every knob's value at load is the default the header gives it, as the
# CLI's help prints it ("name  values, default D", 64K = 65536); not
# fault_around_bytes, which is the kernel's and left as found.
defaults=$("$FT_REPO/userspace/foliotune" --help | awk '
	/^Knobs/ { k = 1; next } k && /^$/ { exit }
	k && match($0, /^  [a-z_]+ .*, default [0-9]+K?$/) {
		d = $NF; if (d ~ /K$/) d = d * 1024
		if ($1 != "fault_around_bytes") print $1, d }')
differ=
while read -r name d; do
	v=$(cat "$FT_DEBUGFS/$name" 2>/dev/null)
	[ "$v" = "$d" ] || differ+=" $name=$v(default $d)"
done <<< "$defaults"
check "knobs: every knob reads its default after load ($(wc -l <<< "$defaults") knobs, 8 or more)${differ:+:$differ}" \
	test -z "$differ" -a "$(wc -l <<< "$defaults")" -ge 8

# write_raw FILE VALUE [OFFSET]: one write(2), prints OK or the errno name.
write_raw() { "$FT_REPO/tests/progs/ft_write" "$@"; }

# the arms (0 the kernel's own code, 1 foliotune's, 2 one PTE at a time)
for v in 0 1 2 '0\n' '1\n' '2\n'; do
	check_eq "knobs: unmap_batch accepts '$v'" OK "$(write_raw "$knob" "$v")"
	check_eq "knobs: unmap_batch reads back '$v'" "${v%\\n}" "$(cat "$knob")"
done
echo 1 > "$knob"
for v in '' '\n' 3 -1 +1 0x1 ' 1' '1 ' '1\n\n' 1.0 abc on '1\x00' \
	99999999999999999999999 18446744073709551616; do
	r=$(write_raw "$knob" "$v")
	case "$r" in
	EINVAL|ERANGE) ok "knobs: unmap_batch rejects '$v' ($r)" ;;
	*) not_ok "knobs: unmap_batch rejects '$v'" "got $r" ;;
	esac
	check_eq "knobs: unmap_batch unchanged after '$v'" 1 "$(cat "$knob")"
done
big=$(head -c 4096 /dev/zero | tr '\0' 1)
check_eq "knobs: unmap_batch rejects a 4 KiB write" EINVAL "$(write_raw "$knob" "$big")"
# A write that continues at a nonzero offset is refused.
r=$(write_raw "$knob" 0 1)
check_eq "knobs: unmap_batch rejects a write at offset 1" EINVAL "$r"
check_eq "knobs: unmap_batch unchanged after offset write" 1 "$(cat "$knob")"

# Concurrent writers: the value always reads back as one of the written ones.
for i in $(seq 4); do
	( for j in $(seq 50); do echo $((j % 3)) > "$knob"; done ) &
done
bad=0
for j in $(seq 50); do
	case "$(cat "$knob")" in 0|1|2) ;; *) bad=1 ;; esac
done
wait
check_eq "knobs: reads are 0, 1 or 2 under concurrent writers" 0 "$bad"
echo 1 > "$knob"

# Root only: an unprivileged user can neither read nor write.
check_nobody knobs
refused "knobs: unprivileged read refused" 'Permission denied' as_nobody cat "$knob"
refused "knobs: unprivileged write refused" 'Permission denied' as_nobody sh -c "echo 0 > $knob"
check_eq "knobs: unmap_batch unchanged after unprivileged write" 1 "$(cat "$knob")"
ft_unload
