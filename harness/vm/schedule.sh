# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# schedule.sh - run jobs (test-box boots, mostly) in parallel lanes, longest
# first.  Sourced by tests/run.sh and scripts/kernels/check-all.sh.
#
# Each test box is one single-threaded TCG process: on the two-core machines
# this project runs on, two boxes at once use both cores, a third slows all.
# So jobs run in FT_LANES lanes (default: the number of cores, at most 2),
# each taking the next job off a queue sorted by its expected time (the
# job's last measured time, longest first: a long job started last would
# leave the other lane idle at the end).  A "quiet" job runs with nothing
# beside it: a timing check that cannot hold with another box on the other
# core.
#
#   sched_init LOGDIR            parts in LOGDIR/parts/, times in LOGDIR/job-times
#   sched_add NAME QUIET CMD...  queue a job; QUIET is 0 or 1
#   sched_run                    run the queue; returns when every job ended
#
# A job is CMD run in the background in its own process group with its
# standard output and error in LOGDIR/parts/NAME.out; what it leaves in
# LOGDIR/parts/NAME.tap (result lines, "# run plan:" lines) is the job's
# contribution, printed as soon as it ends ($SCHED_ON_DONE NAME) and kept
# for the caller to assemble in its own order.  A job that ends without a
# "# run plan:" line gets one failure line in its part (so one box that
# dies takes no other job's results with it).  SIGINT/SIGTERM stop every
# running job's whole process group (QEMU included) and end the caller
# with 130.
#
# Expected times come from $FT_JOB_TIMES (default build/job-times, this
# machine's last measured run), then harness/vm/job-times (committed: a clean
# clone's first run), then 300 s.  sched_run writes this run's measured
# times back to $FT_JOB_TIMES and to LOGDIR/job-times.

sched_repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

sched_init() {
	sched_dir=$1
	sched_names=()
	sched_quiet=()
	sched_cmds=()
	sched_times_file=${FT_JOB_TIMES:-$sched_repo/build/job-times}
	mkdir -p "$sched_dir/parts" "$(dirname "$sched_times_file")"
	: > "$sched_dir/job-times"
	if [ -z "${FT_LANES:-}" ]; then
		FT_LANES=$(nproc 2>/dev/null || echo 1)
		[ "$FT_LANES" -gt 2 ] && FT_LANES=2
	fi
}

# sched_add NAME QUIET CMD...: CMD (a function of the caller, say) runs in
# a subshell, which sees the caller's functions and variables.
sched_add() {
	sched_names+=("$1")
	sched_quiet+=("$2")
	shift 2
	sched_cmds+=("$(printf '%q ' "$@")")
}

# sched_expected NAME: seconds, from the last measured run.
sched_expected() {
	local f t
	for f in "$sched_times_file" "$sched_repo/harness/vm/job-times"; do
		t=$(awk -v n="$1" '$1 == n { t = $2 } END { if (t != "") print t }' "$f" 2>/dev/null)
		[ -n "$t" ] && { echo "$t"; return; }
	done
	echo 300
}

sched_kill_all() {
	local pid
	trap '' INT TERM
	echo "# interrupted: stopping ${#sched_running[@]} running job(s)" >&2
	for pid in "${!sched_running[@]}"; do
		kill -TERM -- "-$pid" 2>/dev/null
	done
	sleep 3
	for pid in "${!sched_running[@]}"; do
		kill -KILL -- "-$pid" 2>/dev/null
	done
	set +m	# no "Terminated" line per job
	wait 2>/dev/null
	exit 130
}

# sched_finish PID RC: a job ended.
sched_finish() {
	local i=${sched_running[$1]} rc=$2 name t
	name=${sched_names[$i]}
	unset "sched_running[$1]"
	t=$(( $(date +%s) - sched_start[$i] ))
	echo "$name $t" >> "$sched_dir/job-times"
	if ! grep -q '^# run plan: ' "$sched_dir/parts/$name.tap" 2>/dev/null; then
		{ echo "# run plan: $name 1"
		  echo "not ok - $name: the job ended without results (exit $rc; see $sched_dir/parts/$name.out)"
		} >> "$sched_dir/parts/$name.tap"
	fi
	echo "# job $name took $t s (exit $rc, expected $(sched_expected "$name") s)" >> "$sched_dir/parts/$name.tap"
	[ "${sched_quiet[$i]}" = 1 ] && sched_quiet_running=0
	${SCHED_ON_DONE:-:} "$name"
}

sched_run() {
	local order i n pid rc
	declare -gA sched_running=()
	declare -ga sched_start=()
	sched_quiet_running=0
	# quiet jobs first (each alone, before the lanes fill), then longest
	# first; ties in the order added
	mapfile -t order < <(for i in "${!sched_names[@]}"; do
		echo "${sched_quiet[$i]} $(sched_expected "${sched_names[$i]}") $i"; done |
		sort -s -k1,1nr -k2,2nr | cut -d' ' -f3)
	trap sched_kill_all INT TERM
	set -m	# each job in its own process group, so that a stop reaches QEMU
	n=0
	while [ "$n" -lt ${#order[@]} ] || [ ${#sched_running[@]} -gt 0 ]; do
		while [ "$n" -lt ${#order[@]} ] && [ ${#sched_running[@]} -lt "$FT_LANES" ] &&
		      [ "$sched_quiet_running" = 0 ]; do
			i=${order[$n]}
			if [ "${sched_quiet[$i]}" = 1 ]; then
				[ ${#sched_running[@]} -eq 0 ] || break
				sched_quiet_running=1
			fi
			: > "$sched_dir/parts/${sched_names[$i]}.tap"
			sched_start[$i]=$(date +%s)
			( SCHED_PART=$sched_dir/parts/${sched_names[$i]}.tap
			  trap - INT TERM
			  eval "${sched_cmds[$i]}" ) > "$sched_dir/parts/${sched_names[$i]}.out" 2>&1 < /dev/null &
			sched_running[$!]=$i
			n=$((n + 1))
		done
		[ ${#sched_running[@]} -gt 0 ] || continue
		wait -n -p pid "${!sched_running[@]}"
		rc=$?
		# wait -n also returns for a job that was already reaped
		[ -n "${pid:-}" ] && [ -n "${sched_running[$pid]:-}" ] && sched_finish "$pid" "$rc"
		for pid in "${!sched_running[@]}"; do
			kill -0 "$pid" 2>/dev/null || { wait "$pid"; sched_finish "$pid" $?; }
		done
	done
	set +m
	trap - INT TERM
	# this run's times become the next run's expectations
	local tmp
	touch "$sched_times_file"
	tmp=$(mktemp "$sched_times_file.XXXXXX") &&
		awk 'NR == FNR { t[$1] = $2; next } !($1 in t) { print } END { for (k in t) print k, t[k] }' \
			"$sched_dir/job-times" "$sched_times_file" 2>/dev/null | sort > "$tmp" &&
		mv "$tmp" "$sched_times_file"
	return 0
}
