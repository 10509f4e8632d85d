# SPDX-License-Identifier: GPL-2.0
#
# tests/guest/reliability/rel-lib.sh - helpers of the reliability suites
# (tests/guest/reliability/*.sh), on top of tests/lib.sh.

FT_RELBIN=$FT_REPO/tests/progs/ft_rel
FT_CLI=$FT_REPO/userspace/foliotune
FT_REL_MODE=${FT_REL_MODE:-ci}	# ci or long (tests/soak.sh sets long)
FT_CG=/sys/fs/cgroup

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# ---- knobs ------------------------------------------------------------------

# A random valid value for a knob, by name (the knobs of include/foliotune.h;
# a knob the loaded module does not provide has no file and is skipped).
knob_random_value() {
	case $1 in
	fault_around_auto|reclaim_probes) echo $((RANDOM % 2)) ;;
	unmap_batch|referenced_batch|fault_around_mkold) echo $((RANDOM % 3)) ;;
	fault_around_bytes|fault_around_auto_max_bytes)
		echo $(( 4096 << (RANDOM % 10) )) ;;	# 4K .. 2M, powers of two
	*) return 1 ;;
	esac
}

# Knobs the flippers may write.  fault_around_mkold and fault_around_auto
# also flip a static key (foliotune_fa_unmap_key) in
# foliotune_try_to_unmap_one(): a text_poke_bp() per flip.  Multi-threaded
# TCG got that wrong ("Oops: int3" at the site, the stock kernel too when
# its own static calls are re-patched under load), so the test box runs
# single-threaded TCG (harness/vm/vmrun.sh) and every knob is flipped.
# reclaim_probes arms and disarms two kprobes on ftrace sites: text
# patching too.
FT_REL_FLIP_SAFE="unmap_batch referenced_batch fault_around_bytes fault_around_auto_max_bytes fault_around_mkold fault_around_auto fault_around_auto_age reclaim_probes"

# knob_flipper_start OUTFILE [KNOB...]: the known knobs (or the KNOBs named)
# to random valid values, then a random 10-100 ms pause, until
# knob_flipper_stop (ft_rel flip: a shell loop forks too slowly under TCG to
# keep a 10 ms period).  OUTFILE gets "flips N refused M rounds R
# mean_period_ms P".
knob_flipper_start() {
	local out=$1; shift
	"$FT_RELBIN" flip "$FT_DEBUGFS" 0 "$@" > "$out" 2>&1 &
	FLIPPER_PID=$!
}
knob_flipper_stop() {
	[ -n "${FLIPPER_PID:-}" ] || return 0
	kill -TERM "$FLIPPER_PID" 2>/dev/null
	wait "$FLIPPER_PID" 2>/dev/null
	FLIPPER_PID=
}

# ---- lifecycle with timing --------------------------------------------------

# klp_stragglers: tasks the running livepatch transition still waits for
# (/proc/PID/patch_state != the target state), with their kernel stacks;
# printed as "# " lines once per slow transition.
klp_stragglers() {
	local target p st n=0
	target=$(cat "$FT_LIVEPATCH/enabled" 2>/dev/null) || return 0
	for p in /proc/[0-9]*; do
		st=$(cat "$p/patch_state" 2>/dev/null) || continue
		[ "$st" = -1 ] || [ "$st" = "$target" ] && continue
		n=$((n + 1))
		[ "$n" -gt 8 ] && continue
		echo "# klp straggler: pid ${p#/proc/} $(cat "$p/comm" 2>/dev/null)" \
			"state $(awk '{ print $3 }' "$p/stat" 2>/dev/null) patch_state $st target $target:" \
			"$(head -6 "$p/stack" 2>/dev/null | awk '{ print $2 }' | paste -sd' ')"
	done
	echo "# klp stragglers: $n task(s)"
}

# klp_wait_transition BOUND_MS_DEADLINE: wait until no transition runs;
# print the stragglers once after 5 s.
klp_wait_transition() {
	local deadline=$1 t0 shown=0
	t0=$(now_ms)
	while [ -e "$FT_LIVEPATCH/transition" ] && [ "$(cat "$FT_LIVEPATCH/transition" 2>/dev/null)" = 1 ]; do
		if [ "$shown" = 0 ] && [ $(( $(now_ms) - t0 )) -gt 5000 ]; then
			klp_stragglers >&2
			shown=1
		fi
		[ "$(now_ms)" -lt "$deadline" ] || return 1
		sleep 0.05
	done
}

# ft_unload_timed BOUND_S: disable, wait for the transition, rmmod (retrying
# EBUSY while a reader holds a file), wait until the module is gone.  Prints
# the milliseconds it took; fails if any step fails or BOUND_S passes.
ft_unload_timed() {
	local bound=$1 t0 deadline
	t0=$(now_ms)
	deadline=$((t0 + bound * 1000))
	if [ -d "$FT_LIVEPATCH" ]; then
		echo 0 > "$FT_LIVEPATCH/enabled" || return 1
		klp_wait_transition "$deadline" || { echo "transition-timeout"; return 1; }
		while [ -d "$FT_LIVEPATCH" ]; do
			[ "$(now_ms)" -lt "$deadline" ] || { echo "transition-timeout"; return 1; }
			sleep 0.05
		done
	fi
	until rmmod foliotune 2>/dev/null; do
		ft_module_gone && break
		[ "$(now_ms)" -lt "$deadline" ] || { echo "rmmod-timeout"; return 1; }
		sleep 0.05
	done
	while ! ft_module_gone; do
		[ "$(now_ms)" -lt "$deadline" ] || { echo "module-gone-timeout"; return 1; }
		sleep 0.05
	done
	echo $(( $(now_ms) - t0 ))
}

# ft_load_timed BOUND_S: insmod and wait for the transition; prints ms.
ft_load_timed() {
	local bound=$1 t0 deadline
	t0=$(now_ms)
	deadline=$((t0 + bound * 1000))
	insmod "$FT_KO" || return 1
	klp_wait_transition "$deadline" || { echo "transition-timeout"; return 1; }
	echo $(( $(now_ms) - t0 ))
}

# Nothing of the module left: no debugfs directory, livepatch, module.
ft_nothing_left() {
	[ ! -e "$FT_DEBUGFS" ] && [ ! -e "$FT_LIVEPATCH" ] && ft_module_gone
}

# stats_ms LIST: "n N min A median B p90 C max D" of numbers (one per line).
stats_ms() {
	sort -n | awk '{ v[NR] = $1 } END {
		if (!NR) { print "n 0"; exit }
		printf "n %d min %d median %d p90 %d max %d", NR, v[1], v[int((NR + 1) / 2)],
			v[int(NR * 0.9 + 0.999)], v[NR] }'
}

# ---- memory cgroups ----------------------------------------------------------

# cg_make NAME MAX: a child memcg with memory.max (and swap allowed).
cg_make() {
	echo "+memory" > "$FT_CG/cgroup.subtree_control" 2>/dev/null
	mkdir -p "$FT_CG/$1" && echo "$2" > "$FT_CG/$1/memory.max"
}
# cg_run NAME CMD...: run CMD inside the cgroup, in the foreground.
cg_run() {
	local cg=$1; shift
	sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh "$FT_CG/$cg" "$@"
}
# cg_spawn NAME OUTFILE CMD...: the same in the background; SPAWN_PID is the
# command's own PID (no wrapper shell), so kill/wait reach it.
cg_spawn() {
	local cg=$1 out=$2; shift 2
	sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh "$FT_CG/$cg" "$@" > "$out" 2>&1 &
	SPAWN_PID=$!
}
cg_remove() {
	[ -d "$FT_CG/$1" ] || return 0
	echo 1 > "$FT_CG/$1/cgroup.kill" 2>/dev/null
	loop_until 10 rmdir "$FT_CG/$1" 2>/dev/null
}

# ---- counters ----------------------------------------------------------------

# ft_counters_snapshot FILE: the module's vmstat into FILE.
ft_counters_snapshot() { cat "$FT_DEBUGFS/vmstat" > "$1" 2>/dev/null; }
# ft_counter_delta BEFORE_FILE NAME: current value minus the one in the file.
ft_counter_delta() {
	echo $(( $(ft_counter "$2") - $(awk -v n="$2" '$1 == n { print $2 }' "$1") ))
}

# ft_counter_moves BEFORE [AFTER]: "name +delta" of every counter that
# moved between two snapshots (AFTER: the counters now).
ft_counter_moves() {
	awk 'NR == FNR { b[$1] = $2; next } $2 != b[$1] { printf "%s +%d ", $1, $2 - b[$1] }' \
		"$1" "${2:-$FT_DEBUGFS/vmstat}"
}

# mm_snapshot FILE: the global counters a mapcount or refcount leak moves,
# after dropping clean caches.
mm_snapshot() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	{
		grep -E '^(nr_mapped|nr_file_pages|nr_anon_pages|nr_shmem|nr_anon_transparent_hugepages|nr_file_hugepages|nr_shmem_hugepages|nr_file_pmdmapped|nr_shmem_pmdmapped|nr_isolated_anon|nr_isolated_file|nr_unevictable|nr_mlock) ' /proc/vmstat
		awk '/^(HugePages_Total|HugePages_Free|HugePages_Rsvd|HugePages_Surp|HardwareCorrupted|Mlocked|AnonHugePages|ShmemHugePages|FileHugePages|Unevictable):/ { sub(":", ""); print $1, $2 }' /proc/meminfo
	} > "$1"
}

# mm_compare BEFORE AFTER TOLERANCE_PAGES [NAME=EXPECTED_GROWTH...]: print
# counters that grew by more than the tolerance (pages; kB values are
# converted; HugePages_* exactly, by EXPECTED_GROWTH if given); exit 1 if any.
mm_compare() {
	local before=$1 after=$2 tol=$3 allow=""
	shift 3
	allow="$*"
	awk -v tol="$tol" -v allow="$allow" '
		BEGIN { n = split(allow, a, " "); for (i = 1; i <= n; i++) { split(a[i], kv, "="); x[kv[1]] = kv[2] } }
		NR == FNR { b[$1] = $2; next }
		{
			d = $2 - b[$1]
			if ($1 in x) { if (d != x[$1]) { printf "%s %s -> %s (expected +%d)\n", $1, b[$1], $2, x[$1]; bad = 1 }; next }
			if ($1 ~ /^HugePages_/) t = 0
			else if ($1 ~ /HugePages$|^Mlocked$|^Unevictable$/) { d = d / 4; t = tol }
			else if ($1 == "HardwareCorrupted") next
			else t = tol
			if (d > t) { printf "%s %s -> %s (+%d pages, tolerance %d)\n", $1, b[$1], $2, d, t; bad = 1 }
		}
		END { exit bad }' "$before" "$after"
}

# ---- kernel log --------------------------------------------------------------

# kernel_errors_since MARK: lines the console gate would fail on, plus
# Bad rss-counter and refcount warnings.
kernel_errors_since() {
	dmesg_since "$1" | grep -E 'BUG:|WARNING:|Oops|Call Trace|Bad page|Bad rss-counter|page dumped because|kernel BUG|general protection|refcount_t:|list_(add|del) corruption|soft lockup|hard LOCKUP|rcu: INFO|VM_BUG_ON'
}
# check_kernel_clean NAME MARK
check_kernel_clean() {
	local errs
	errs=$(kernel_errors_since "$2")
	if [ -z "$errs" ]; then
		ok "$1"
	else
		printf '%s\n' "$errs" | head -20 | sed 's/^/# dmesg: /'
		not_ok "$1" "$(printf '%s\n' "$errs" | head -1)"
	fi
}

# ---- what the replacement did ------------------------------------------------

# rel_delta BEFORE AFTER NAME: how much counter NAME moved between two
# snapshots (ft_counters_snapshot).
rel_delta() {
	awk -v n="$3" 'NR == FNR { if ($1 == n) b = $2; next } $1 == n { print $2 - b }' "$1" "$2"
}

# rel_identities LABEL BEFORE [order0]: identities (1)-(3) of
# module/unmap.c's header on the counters' moves since BEFORE, three
# results.  Each needs unmap_calls to have moved (an identity over nothing
# proves nothing); "order0" also needs unmap_batch_order0 to have moved
# (the part unmapped large folios singly: with unmap_batch flipping, the
# knob's 2, and 0 on 6.12).  One snapshot serves all three; a snapshot taken while an
# unmap was counting is taken again, up to 5 times.
rel_identities() {
	local label=$1 b=$2 a=$2.after need=${3:-} i calls single nb ob batches o0 sm ht
	for i in 1 2 3 4 5; do
		ft_counters_snapshot "$a"
		calls=$(rel_delta "$b" "$a" unmap_calls)
		single=$(rel_delta "$b" "$a" unmap_single_ptes)
		batches=$(rel_delta "$b" "$a" unmap_batches)
		o0=$(rel_delta "$b" "$a" unmap_batch_order0)
		sm=$(rel_delta "$b" "$a" unmap_nobatch_small)
		ht=$(rel_delta "$b" "$a" unmap_nobatch_hugetlb)
		nb=$(awk 'NR == FNR { b[$1] = $2; next } /^unmap_nobatch_/ { s += $2 - b[$1] } END { print s + 0 }' "$b" "$a")
		ob=$(awk 'NR == FNR { b[$1] = $2; next } /^unmap_batch_order[1-9] / { s += $2 - b[$1] } END { print s + 0 }' "$b" "$a")
		[ "$nb" = "$single" ] && [ "$ob" = "$batches" ] && [ "$o0" = $((single - sm - ht)) ] && break
		sleep 0.3
	done
	local moved="unmap_calls +$calls"
	[ "${calls:-0}" -gt 0 ] && moved=yes
	check_eq "$label: (1) sum(unmap_nobatch_*) == unmap_single_ptes over $calls unmap calls" \
		"$single yes" "$nb $moved"
	check_eq "$label: (2) sum(order1..9) == unmap_batches over $calls unmap calls" \
		"$batches yes" "$ob $moved"
	local want=yes got=$moved
	if [ "$need" = order0 ]; then
		want="yes yes"
		got="$moved $([ "${o0:-0}" -gt 0 ] && echo yes || echo "order0+$o0")"
	fi
	check_eq "$label: (3) unmap_batch_order0 ($o0) == unmap_single_ptes - nobatch_small - nobatch_hugetlb over $calls unmap calls" \
		"$((single - sm - ht)) $want" "$o0 $got"
}

# rel_batched LABEL BEFORE on|flip: batching happened since BEFORE:
# unmap_batches moved and 2 <= unmap_batched_ptes / unmap_batches <= 512
# (identity (4)); "flip" (unmap_batch flipping): unmap_nobatch_off, the
# knob's 2 (and 0 on 6.12), moved as well.  One result.
rel_batched() {
	local label=$1 b=$2 mode=$3 a=$2.batched n p off
	ft_counters_snapshot "$a"
	n=$(rel_delta "$b" "$a" unmap_batches)
	p=$(rel_delta "$b" "$a" unmap_batched_ptes)
	off=$(rel_delta "$b" "$a" unmap_nobatch_off)
	if [ "$mode" = flip ]; then
		check "$label: both modes ran: unmap_batches +$n ($p PTEs), unmap_nobatch_off +$off" \
			test "$n" -gt 0 -a "$p" -ge $((2 * n)) -a "$p" -le $((512 * n)) -a "$off" -gt 0
	else
		check "$label: batching ran: unmap_batches +$n ($p PTEs)" \
			test "$n" -gt 0 -a "$p" -ge $((2 * n)) -a "$p" -le $((512 * n))
	fi
}
