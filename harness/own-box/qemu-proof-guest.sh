#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# qemu-proof-guest.sh TREE.tar - inside the test box (harness/own-box/qemu-proof.sh):
# what a user does on a test box of their own, each step checked.
set -u
# shellcheck source=SCRIPTDIR/../../tests/lib.sh
. "$FT_REPO/tests/lib.sh"
tar=${1:?usage: qemu-proof-guest.sh TREE.tar}
ft_results_start
kver=$(uname -r)
work=/tmp/ft-proof
log=$FT_RUNDIR/proof-logs
mkdir -p "$log" "$work"

# What the machine has before: install and uninstall must come back to it.
snapshot() {
	find "/lib/modules/$kver" /usr/local /var/lib -xdev 2>/dev/null | sort
}
snapshot > "$log/before.txt"

proof() {
tar -C "$work" -xf "$tar" && cd "$work/ft" || { not_ok "proof: unpack the tree" "tar failed"; return; }
check "proof: the clean copy has no build/ (no kallsyms dump, no modules)" test ! -e build -a ! -e module/foliotune.ko

# 1. build and install, as root, from the clean copy
t0=$(date +%s)
make -j2 install > "$log/install.log" 2>&1
rc=$?
echo "# make install took $(( $(date +%s) - t0 )) s"
check_eq "proof: make install" 0 "$rc"
[ "$rc" = 0 ] || tail -20 "$log/install.log" | sed 's/^/# /'
check "proof: the symbols came from this machine's /proc/kallsyms" grep -q '^cat /proc/kallsyms > ' "$log/install.log"
check "proof: no test box was booted to build" bash -c "! grep -q vmrun '$log/install.log'"
for f in "/lib/modules/$kver/updates/foliotune.ko" /usr/local/sbin/foliotune /usr/local/share/man/man8/foliotune.8; do
	check "proof: installed $f" test -f "$f"
done
check_eq "proof: modprobe's rules find the installed module" "/lib/modules/$kver/updates/foliotune.ko" \
	"$(modinfo -n foliotune 2>&1)"
# (Debian's /usr/local/man is a link to share/man, which man -w may name)
check_eq "proof: man foliotune shows the installed page" /usr/local/share/man/man8/foliotune.8 \
	"$(readlink -f "$(man -w foliotune 2>/dev/null)")"

# 2. foliotune from another directory finds the installed module
cd / || return
out=$(foliotune load 2>&1); rc=$?
echo "$out" | sed 's/^/# /'
check_eq "proof: foliotune load from / exits 0" 0 "$rc"
check "proof: foliotune load loaded the installed module" \
	grep -q "loading /lib/modules/$kver/updates/foliotune.ko" <<< "$out"
check_eq "proof: the livepatch is enabled" 1 "$(cat /sys/kernel/livepatch/foliotune/enabled 2>/dev/null)"
check "proof: foliotune status says loaded" bash -c 'foliotune status | grep -q "^module: *loaded"'
foliotune set unmap_batch 0 > /dev/null 2>&1
check_eq "proof: foliotune set from / reaches the knob" 0 "$(cat /sys/kernel/debug/foliotune/unmap_batch 2>/dev/null)"
foliotune unload > /dev/null 2>&1
check "proof: foliotune unload" test ! -d /sys/module/foliotune
cd "$work/ft" || return

# 3. check-box: refused without consent, then a CI-sized subset
out=$(make -s check-box 2>&1); rc=$?
if [ "$rc" != 0 ] && [ "$(echo "$out" | wc -l)" = 1 ] && [[ $out == *"set FT_TEST_BOX=1"* ]]; then
	ok "proof: check-box without FT_TEST_BOX=1 refuses in one line on a machine that has everything else"
else
	not_ok "proof: check-box without FT_TEST_BOX=1 refuses in one line" "exit $rc: $out"
fi
t0=$(date +%s)
FT_TEST_BOX=1 FT_BOX_ZRAM=1 FT_BOX_SCRATCH_MB=1024 FT_BOX_SUITES=main FT_BOX_TESTS="$FT_PROOF_TESTS" \
	FT_BOX_LOGS="$log/check-box" make check-box > "$log/check-box.log" 2>&1
rc=$?
echo "# make check-box took $(( $(date +%s) - t0 )) s"
check_eq "proof: make check-box exits 0" 0 "$rc"
sed -n '/^[0-9]* passed, [0-9]* failed$/p' "$log/check-box.log" | sed 's/^/# check-box: /'
npass=$(grep -c '^ok - ' "$log/check-box/results.tap" 2>/dev/null)
check "proof: check-box ran tests ($npass passed)" test "${npass:-0}" -gt 10
check "proof: check-box's results have no failure" bash -c "! grep -q '^not ok' '$log/check-box/results.tap'"
check "proof: check-box's scratch xfs was a loop device" grep -q 'scratch xfs .* on /dev/loop' "$log/check-box.log"
for t in $FT_PROOF_TESTS; do
	check "proof: check-box ran $t" grep -q "^# $t took" "$log/check-box/results.tap"
done
check "proof: check-box tested the clean copy's module" \
	grep -q "^# module_file $work/ft/module/foliotune.ko\$" "$log/check-box.log"
check "proof: check-box ran the console gate" grep -q '^ok - box: clean kernel log' "$log/check-box/results.tap"
grep '^not ok' "$log/check-box/results.tap" 2>/dev/null | head -10 | sed 's/^/# /'

# 4. a very short bench-box
out_dir=$log/bench
t0=$(date +%s)
FT_TEST_BOX=1 FT_BOX_ZRAM=1 FT_BOX_SCRATCH_MB=1024 FT_BOX_BENCH=unmap BENCH_ONLY=seed BENCH_REPS=1 \
	BENCH_SECONDS=2 BENCH_WARMUP=0 BENCH_OUT="$out_dir" make bench-box > "$log/bench-box.log" 2>&1
rc=$?
echo "# make bench-box took $(( $(date +%s) - t0 )) s"
check_eq "proof: make bench-box exits 0" 0 "$rc"
[ "$rc" = 0 ] || tail -15 "$log/bench-box.log" | sed 's/^/# /'
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
check "proof: results.md is labelled with this CPU ($cpu)" grep -qF "measured on $cpu, $(nproc) CPUs" "$out_dir/results.md"
# (this box's CPU model itself reads "QEMU TCG CPU": look for the report's
# own emulator wording, not the name)
check "proof: results.md does not claim an emulator run" \
	bash -c "[ -f '$out_dir/results.md' ] && ! grep -qE 'measured in a QEMU TCG guest|emulator (figures|times)' '$out_dir/results.md'"
check "proof: both modes of Yin Fengwei's MADV_PAGEOUT benchmark (seed) were recorded" \
	test -s "$out_dir/raw/seed.stock.1.rec" -a -s "$out_dir/raw/seed.batched.1.rec"
check "proof: the batched run batched (unmap_batches moved)" \
	bash -c "python3 '$FT_REPO/bench/records.py' '$out_dir/raw/seed.batched.1.rec' |
		awk -F'\t' '\$2 == \"counter\" && \$4 == \"unmap_batches\" && \$5 > 0 { f = 1 } END { exit !f }'"
check "proof: bench-box measured the clean copy's module" \
	grep -q "^module_file $work/ft/module/foliotune.ko\$" "$out_dir/raw/guest-meta.txt"
check "proof: the batched vs stock table is there" grep -q '^## Batched vs stock' "$out_dir/results.md"

# 5. the runs left nothing behind, uninstall removes everything
check "proof: no foliotune module left loaded" test ! -d /sys/module/foliotune
check "proof: no loop device left" bash -c '[ -z "$(losetup -a)" ]'
check "proof: no scratch mount left" bash -c '! grep -q ft-box /proc/mounts'
check "proof: no zram swap left" bash -c '! grep -q zram /proc/swaps'
make -s uninstall > "$log/uninstall.log" 2>&1
check_eq "proof: make uninstall" 0 "$?"
snapshot > "$log/after.txt"
if diff "$log/before.txt" "$log/after.txt" > "$log/leftovers.diff"; then
	ok "proof: after uninstall /lib/modules/$kver, /usr/local and /var/lib are as before"
else
	not_ok "proof: after uninstall /lib/modules/$kver, /usr/local and /var/lib are as before" \
		"$(head -5 "$log/leftovers.diff" | tr '\n' ' ')"
fi
check "proof: modprobe no longer finds foliotune" bash -c '! modinfo -n foliotune > /dev/null 2>&1'
check "proof: no foliotune command left" bash -c '! command -v foliotune'
}

# (the guest's /dev has no /dev/fd: a pipe, not a process substitution)
proof 2>&1 | tee -a "$results"
exit 0
