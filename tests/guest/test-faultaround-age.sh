#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fault_around_auto_age: the auto mode also decides whether pre-mapped PTEs
# are mapped old (module/fa_policy.c).  Knob rules; old under file reclaim
# pressure (a reader in a small memcg), young again only after the quiet
# periods of the hysteresis; the counter and the state file say so; data
# read back intact while the age flips; writing fault_around_mkold takes the
# age back from the tuner; turning the tuner off gives back the mkold it
# found.  Premises come from counters: /proc/vmstat pgsteal_file for the
# pressure, fa_pages_mapped_old for "old" having reached the PTEs.
. "$(dirname "$0")/../lib.sh"

P=$FT_REPO/tests/progs/ft_faultaround
D=$FT_DEBUGFS
CG=/sys/fs/cgroup/ft-fa-age
F=$FT_XFS/ft-fa-age.dat
PERIOD_MS=200

echo "1..16"
write_raw() { "$FT_REPO/tests/progs/ft_write" "$@"; }
state() { sed -n "s/^$1 //p" "$D/fault_around_auto_state"; }
vmstat() { awk -v n="$1" '$1 == n { print $2 }' /proc/vmstat; }
mkold_is() { [ "$(<"$D/fault_around_mkold")" = "$1" ]; }
wl=
cleanup() {
	[ -n "$wl" ] && kill "$wl" 2>/dev/null && wait "$wl" 2>/dev/null
	[ -d "$CG" ] && rmdir "$CG" 2>/dev/null
	rm -f "$F"
	return 0
}
trap cleanup EXIT

ft_unload
if ! ft_load; then
	not_ok "fa-age: load" "insmod failed"
	exit 0
fi
ok "fa-age: load"

# ---- the knob ----
check_eq "fa-age: fault_around_auto_age is 0600 and reads 0" "600 0" \
	"$(stat -c %a "$D/fault_around_auto_age") $(<"$D/fault_around_auto_age")"
check_eq "fa-age: 2 -> EINVAL, still 0" "EINVAL 0" \
	"$(write_raw "$D/fault_around_auto_age" 2) $(<"$D/fault_around_auto_age")"
check_eq "fa-age: 1 -> OK, reads 1" "OK 1" \
	"$(write_raw "$D/fault_around_auto_age" 1) $(<"$D/fault_around_auto_age")"

# ---- old under pressure ----
echo 0 > "$D/fault_around_auto_age"
echo 1 > "$D/fault_around_mkold"	# what the tuner must give back
echo 1 > "$D/fault_around_auto_age"
echo $PERIOD_MS > "$D/fault_around_auto_period_ms"
echo 1 > "$D/fault_around_auto"
check_eq "fa-age: the tuner starts young (mkold 0, age_old 0)" "0 0" \
	"$(<"$D/fault_around_mkold") $(state age_old)"

"$P" prep "$F" 96 > /dev/null
# out of the page cache: charged to the root memcg, it would never be reclaimed
"$P" drop "$F"
echo +memory > /sys/fs/cgroup/cgroup.subtree_control
mkdir -p "$CG"
echo 32M > "$CG/memory.max"
steal0=$(vmstat pgsteal_file) changes0=$(ft_counter fa_auto_age_changes)
# a sequential reader in the small memcg: 96 MiB through 32 MiB is file
# reclaim, and the tuner keeps a window for it, so PTEs are pre-mapped
bash -c "echo \$\$ > $CG/cgroup.procs && exec $P touch seq $F 60" > /tmp/ft-fa-age.out 2>&1 &
wl=$!
check "fa-age: file reclaim pressure makes pre-mapped PTEs old (mkold reads 2)" \
	loop_until 60 mkold_is 2
steal1=$(vmstat pgsteal_file) changes1=$(ft_counter fa_auto_age_changes)
check "fa-age: premise: the reader caused file reclaim (pgsteal_file +$((steal1 - steal0)))" \
	test "$((steal1 - steal0))" -gt 0
check "fa-age: fa_auto_age_changes counted it (+$((changes1 - changes0)))" \
	test "$((changes1 - changes0))" -ge 1
# the change's own reason: the latest period's may already be a quiet one
check_eq "fa-age: state: age_old 1, turned old by pressure" "1 file" \
	"$(state age_old) $(state age_last_change | cut -d' ' -f1)"
# the sample alone maps 1 in 8 windows old: more than half means mkold 2
mapped0=$(ft_counter fa_pages_mapped) old0=$(ft_counter fa_pages_mapped_old)
sleep 2
mapped=$(( $(ft_counter fa_pages_mapped) - mapped0 )) old=$(( $(ft_counter fa_pages_mapped_old) - old0 ))
check "fa-age: the PTEs fault-around maps meanwhile are old ($old of $mapped)" \
	test "$mapped" -gt 0 -a $((2 * old)) -gt "$mapped"

# ---- young again, after the hysteresis ----
kill "$wl" 2>/dev/null
wait "$wl" 2>/dev/null
wl=
check "fa-age: without pressure it turns young again (mkold reads 0)" loop_until 60 mkold_is 0
quiet=$(state age_last_change | sed -n 's/^no file reclaim pressure for \([0-9]*\) ms$/\1/p')
check "fa-age: ... only after 4 quiet periods (${quiet:-?} ms >= $((4 * PERIOD_MS)))" \
	test "${quiet:-0}" -ge $((4 * PERIOD_MS))

# ---- data while the age flips ----
echo 20M > "$CG/memory.max"
"$P" drop "$F"
bash -c "echo \$\$ > $CG/cgroup.procs && exec $P verify $F 20" > /tmp/ft-fa-age.out 2>&1
rc=$?
check "fa-age: data read back intact under pressure with the age on ($(tail -1 /tmp/ft-fa-age.out))" \
	test "$rc" = 0

# ---- giving the age back ----
echo 2 > "$D/fault_around_mkold"
check_eq "fa-age: writing fault_around_mkold turns the age off and sticks" "0 2" \
	"$(<"$D/fault_around_auto_age") $(<"$D/fault_around_mkold")"
echo 1 > "$D/fault_around_auto_age"
echo 0 > "$D/fault_around_auto"
check_eq "fa-age: turning the tuner off gives back the mkold it found" 2 "$(<"$D/fault_around_mkold")"
ft_unload
check "fa-age: unload" ft_module_gone
