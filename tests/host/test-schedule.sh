#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-schedule.sh - harness/vm/schedule.sh, with jobs that sleep instead of
# booting: longest first, never more lanes than asked, a quiet job alone, a
# job that dies leaves a failure line and the others' results, the measured
# times become the next run's order, and an interrupt stops every job's
# whole process group.
. "$(dirname "$0")/lib-host.sh"

cat > "$w/run.sh" <<'EOF'
#!/bin/bash
# run.sh LOGDIR LANES JOBSPEC...: JOBSPEC is NAME:QUIET:SECONDS[:die]
. "$FT_REPO/harness/vm/schedule.sh"
logs=$1 FT_LANES=$2
shift 2
sched_init "$logs"
job() {	# NAME SECONDS [die]
	local now
	now=$(date +%s.%N)
	echo "start $1 $now $(cat "$logs/running" 2>/dev/null | wc -w)" >> "$logs/events"
	echo "$1" >> "$logs/running"
	[ "${3:-}" = die ] && { sed -i "/^$1\$/d" "$logs/running"; exit 7; }
	sleep "$2" &	# a child in the job's process group, as QEMU is
	wait $!
	sed -i "/^$1\$/d" "$logs/running"
	echo "# run plan: $1 1" >> "$SCHED_PART"
	echo "ok - $1: slept $2 s" >> "$SCHED_PART"
}
for spec; do
	IFS=: read -r n q s d <<<"$spec"
	sched_add "$n" "$q" job "$n" "$s" "$d"
done
sched_run
echo done
EOF
chmod +x "$w/run.sh"
export FT_REPO=$repo
times=$w/times
export FT_JOB_TIMES=$times

# expectations: b longest, then c, then a, d (ties in the order added)
printf 'a 1\nb 3\nc 2\nd 1\n' > "$times"
"$w/run.sh" "$w/l1" 2 a:0:0.3 b:0:0.6 c:0:0.4 d:0:0.3 > "$w/out1" 2>&1
# (b and c start at once, one per lane: their start lines come in either
# order)
order=$(awk '$1 == "start" { printf "%s ", $2 }' "$w/l1/events" | sed 's/^c b /b c /')
check_eq "schedule: jobs start longest first by their last measured time" "b c a d " "$order"
most=$(awk '$1 == "start" && $4 + 1 > m { m = $4 + 1 } END { print m }' "$w/l1/events")
check_eq "schedule: two lanes run two jobs at once, never more" 2 "$most"
check_eq "schedule: every job's part holds its result" 4 "$(cat "$w"/l1/parts/*.tap | grep -c '^ok - ')"
check "schedule: the measured times are written back for the next run" \
	awk '$1 == "b" && $2 < 3 { f = 1 } END { exit !f }' "$times"

# a quiet job runs alone: nothing else starts while it runs, and it starts
# with nothing running
printf 'q 1\nx 5\ny 5\nz 5\n' > "$times"
"$w/run.sh" "$w/l2" 2 x:0:0.3 q:1:0.4 y:0:0.3 z:0:0.3 > "$w/out2" 2>&1
alone=$(awk '$1 == "start" && $2 == "q" { print $4 }' "$w/l2/events")
check_eq "schedule: a quiet job starts with no other job running" 0 "$alone"
beside=$(awk '$1 == "start" && $2 != "q" { print $3 }' "$w/l2/events" | sort -n | head -1)
qend=$(awk '$1 == "start" && $2 == "q" { printf "%.6f\n", $3 + 0.4 }' "$w/l2/events")
check "schedule: ... and no job starts beside it" awk -v a="$beside" -v b="$qend" 'BEGIN { exit !(a >= b - 0.05) }'

# a job that dies: one failure line in its part, the others' results kept
"$w/run.sh" "$w/l3" 2 ok1:0:0.2 bad:0:0.1:die ok2:0:0.2 > "$w/out3" 2>&1
check "schedule: a job that ends without results gets a failure line" \
	grep -q '^not ok - bad: the job ended without results (exit 7' "$w/l3/parts/bad.tap"
check_eq "schedule: ... with a plan of 1" "# run plan: bad 1" "$(grep '^# run plan' "$w/l3/parts/bad.tap")"
check_eq "schedule: ... and the other jobs' results are all there" 2 "$(cat "$w"/l3/parts/ok*.tap | grep -c '^ok - ')"

# an interrupt stops both lanes' jobs and their children (the runner in a
# process group of its own, as a command typed at a terminal is: a
# background command of a script ignores SIGINT).  env resets SIGINT: a
# test run started in the background (nohup make check &) inherits it
# ignored, and a shell cannot trap a signal ignored at its start.
# The jobs sleep an odd length, so that no other sleep on the machine is
# taken for a job's, nor killed below.
long=299.37
long_re="^sleep ${long/./[.]}\$"
set -m
env --default-signal=INT "$w/run.sh" "$w/l4" 2 long1:0:$long long2:0:$long long3:0:$long > "$w/out4" 2>&1 &
runner=$!
set +m
for _ in $(seq 50); do
	[ "$(grep -c '^start' "$w/l4/events" 2>/dev/null)" = 2 ] && break
	sleep 0.1
done
kill -INT "$runner"
wait "$runner"
rc=$?
check_eq "schedule: an interrupt ends the run with 130" 130 "$rc"
# (a busy host may take a moment to end them)
gone() { ! pgrep -f "$long_re" > /dev/null; }
for _ in $(seq 50); do gone && break; sleep 0.1; done
left=$(pgrep -f "$long_re" | wc -l)
check_eq "schedule: ... and leaves no job's process running" 0 "$left"
check "schedule: ... and the queue's rest never started" test "$(grep -c '^start' "$w/l4/events")" = 2
pkill -f "$long_re" 2>/dev/null
exit 0
