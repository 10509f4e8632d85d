#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# plot.sh RESULTS_DIR - the figures of a benchmark session, from its raw
# files only, so it also works on old results directories.
#
# Looks for raw/ directories (or their raw.tar.xz, bench/pack.sh) in
# RESULTS_DIR itself and one level below
# (bench/results/<date>-<commit>/{unmap,faultaround}/raw from `make bench`,
# whose reclaim/raw it leaves out,
# or an older <date>-<commit>/raw or <date>-<commit>-faultaround/raw), and
# writes RESULTS_DIR/plots/NAME.{png,svg} plus the NAME.dat it plotted:
#
#   unmap-time      reclaim seconds per benchmark (ordered by folio size),
#                   stock vs batched: median bar, min..max whisker over reps
#   unmap-speedup   stock/batched (loops/s: batched/stock) per benchmark,
#                   median and min..max of the per-rep ratios (1 = same)
#   unmap-batches   batch-size histogram: PTE runs unmapped per batched run
#                   by run size (unmap_batch_order<k>: 2^k..2^(k+1)-1 PTEs)
#   fa-launch       average app-launch latency per fault-around
#                   configuration and scenario: median, min..max over reps
#   fa-seqread      ft_seqread ns per touched page, by pattern and configuration (no pressure)
#
# A figure whose input is absent is skipped with a line saying so.  Every
# figure is labelled as QEMU TCG (software emulation) unless the metadata
# says the guest ran under KVM, or on the machine itself (make bench-box:
# then with its CPU model).  Needs gnuplot (Debian: gnuplot-nox).
set -uo pipefail

dir=${1:?usage: plot.sh RESULTS_DIR}
[ -d "$dir" ] || { echo "plot.sh: $dir: no such directory" >&2; exit 1; }
command -v gnuplot > /dev/null || { echo "plot.sh: gnuplot missing (apt-get install gnuplot-nox)" >&2; exit 2; }
out=$dir/plots
mkdir -p "$out" || exit 2

# The raw directories: RESULTS_DIR/raw and RESULTS_DIR/*/raw (or raw.tar.xz).
. "$(dirname "$0")/raw.sh"
# The reclaim benchmark's (host-meta.txt "benchmark reclaim") has no figures
# yet, and its configuration "stock" must not join the unmap figures.
raws=() nreclaim=0
for d in "$dir" "$dir"/*/; do
	bench_raw "${d%/}" || continue
	if grep -qx 'benchmark reclaim' "$BENCH_RAW/host-meta.txt" 2>/dev/null; then
		nreclaim=$((nreclaim + 1))
		continue
	fi
	raws+=("$BENCH_RAW")
done
if [ ${#raws[@]} = 0 ] && [ "$nreclaim" -gt 0 ]; then
	echo "plot.sh: only the reclaim benchmark's raw files under $dir: it has no figures"
	exit 0
fi
[ ${#raws[@]} -gt 0 ] || { echo "plot.sh: no raw/ or raw.tar.xz under $dir" >&2; exit 1; }

label="QEMU TCG guest (software emulation)"
if cat "${raws[@]/%//host-meta.txt}" "${raws[@]/%//guest-meta.txt}" 2>/dev/null | grep -q "^accel kvm"; then
	label="KVM guest"
elif cat "${raws[@]/%//host-meta.txt}" 2>/dev/null | grep -q "^accel box"; then
	# make bench-box: the machine itself
	label=$(cat "${raws[@]/%//guest-meta.txt}" 2>/dev/null | sed -n 's/^guest_cpu_model //p' | head -1)
fi
smoke=""
case $(basename "$(cd "$dir" && pwd)") in *smoke*) smoke=" - SMOKE RUN, not a result" ;; esac

# Files of one kind across the raw dirs: unmap runs are BENCH.CONFIG.REP.*
# with CONFIG stock|batched; fault-around runs SCEN.CONFIG.REP.* with a
# launch-* or seqread scenario.  The records of the batched runs come from
# bench/records.py (the one reader of .rec files outside C), as its lines.
unmap_outs=() fa_outs=()
for r in "${raws[@]}"; do
	for f in "$r"/*.out; do
		[ -e "$f" ] || continue
		b=$(basename "$f" .out)
		IFS=. read -r s c t x <<< "$b"
		[ -z "${x:-}" ] && [[ $t =~ ^[0-9]+$ ]] || continue
		case $s in
		launch-*|seqread) fa_outs+=("$f") ;;
		*) case $c in stock|batched) unmap_outs+=("$f") ;; esac ;;
		esac
	done
done
batched_recs=$(python3 "$(dirname "$0")/records.py" "${raws[@]}" | awk -F '\t' '$1 ~ /\.batched\.[0-9]+$/')

# Medians, min..max and the outlier rule: foliotune analyze (userspace/util/statistics.c),
# as in the reports.
bench_ft || { echo "plot.sh: cannot build userspace/foliotune (its stats command)" >&2; exit 2; }

# stats: stdin "KEY VALUE" lines -> "KEY n min median max", keys in first-seen order.
stats() {
	"$BENCH_FT" analyze | awk -F '\t' '$1 !~ /^#/ && $2 == "samples" { print $1, $3, $7, $4, $8 }'
}

# outliers FILE: FILE's "BENCH.CONFIG.REP METRIC VALUE" lines but those of
# an outlier of BENCH.CONFIG (the runs unmap-report.sh warns about), which
# are named on stderr.
outliers() {
	awk '{ split($1, p, "."); print p[1] "." p[2], $3 }' "$1" | "$BENCH_FT" analyze |
		awk 'FNR == NR {
			split($0, f, "\t")
			if (f[1] !~ /^#/ && f[2] == "samples") { med[f[1]] = f[4]; n = split(f[9], o, ","); for (i = 1; i <= n; i++) out[f[1], o[i]] = 1 }
			next
		}
		{
			split($1, p, "."); g = p[1] "." p[2]; k = ++pos[g]
			if ((g, k) in out) printf "plot.sh: left out %s (%s against a median of %s)\n", $0, $3, med[g] > "/dev/stderr"
			else print
		}' - "$1"
}

# plot NAME TITLE YLABEL LOGSCALE(0|1) GNUPLOT-PLOT-COMMAND: PNG and SVG.
plot() {
	local name=$1 title=$2 ylabel=$3 logy=$4 cmd=$5 term
	for term in "pngcairo size 1000,560 noenhanced font ',10'|png" "svg size 1000,560 noenhanced font ',11'|svg"; do
		gnuplot 2> "$out/$name.gnuplot.log" <<-EOF || { echo "plot.sh: gnuplot failed for $name: $(tail -2 "$out/$name.gnuplot.log")" >&2; return 1; }
		set terminal ${term%|*}
		set output '$out/$name.${term#*|}'
		set title "$title\n$label$smoke"
		set ylabel "$ylabel"
		set grid ytics
		set key top left
		set style data histograms
		set style histogram errorbars gap 2 lw 1
		set style fill solid 0.8 border -1
		set boxwidth 0.9
		set bmargin 7
		set xtics rotate by -30 left nomirror
		set yrange [0:*]
		$( [ "$logy" = 1 ] && echo "set logscale y; set yrange [*:*]" )
		$cmd
		EOF
		rm -f "$out/$name.gnuplot.log"
	done
	echo "plot.sh: $out/$name.png, $out/$name.svg"
}

# Order of the unmap benchmarks: by folio size, then anything else.
unmap_order="order0 shmem16k lazyfree shmem64k shmem128k seed filera file2m file2m-shift shmem2m-pte shmem2m"
declare -A fsize=([order0]="4K" [shmem16k]="16K" [lazyfree]="64K" [shmem64k]="64K" [shmem128k]="128K"
	[seed]="16K-128K readahead" [filera]="16K-128K readahead" [file2m]="2M" [file2m-shift]="2M, shifted"
	[shmem2m-pte]="2M PTE-mapped" [shmem2m]="2M PMD-mapped")

# ---- unmap: per benchmark and config, the metric of every rep ----
if [ ${#unmap_outs[@]} -gt 0 ]; then
	for f in "${unmap_outs[@]}"; do
		b=$(basename "$f" .out); IFS=. read -r s c t <<< "$b"
		awk -v k="$s.$c.$t" '$1 == "loops_per_sec" || $1 == "reclaim_seconds" { print k, $1, $2 }' "$f"
	done > "$out/unmap-runs.txt.all"
	# leave out a run 4x off the median of its benchmark and configuration
	# (a stalled run; unmap-report.sh warns about the same runs)
	outliers "$out/unmap-runs.txt.all" > "$out/unmap-runs.txt"
	rm -f "$out/unmap-runs.txt.all"
	# one row per benchmark: name, stock n/min/med/max, batched n/min/med/max
	for c in stock batched; do
		awk -v c=$c '{ split($1, p, "."); if (p[2] == c && $2 == "reclaim_seconds") print p[1], $3 }' \
			"$out/unmap-runs.txt" | stats > "$out/.unmap-$c.txt"
	done
	: > "$out/unmap-time.dat"
	for s in $unmap_order $(cut -d' ' -f1 "$out/.unmap-stock.txt"); do
		grep -q "^\"$s\\\\" "$out/unmap-time.dat" && continue
		st=$(grep "^$s " "$out/.unmap-stock.txt") || continue
		ba=$(grep "^$s " "$out/.unmap-batched.txt") || continue
		echo "\"$s\\n${fsize[$s]:-?}\" ${st#* } ${ba#* }" >> "$out/unmap-time.dat"
	done
	rm -f "$out"/.unmap-*.txt
	if [ -s "$out/unmap-time.dat" ]; then
		sed -i '1i # benchmark(folio size) stock_n stock_min stock_median stock_max batched_n batched_min batched_median batched_max (reclaim seconds)' "$out/unmap-time.dat"
		plot unmap-time "try_to_unmap_one: memcg reclaim time by folio size, stock vs batched (median, min..max)" \
			"reclaim seconds (lower is better)" 1 \
			"plot '$out/unmap-time.dat' using 4:3:5:xtic(1) title 'stock (unmap_batch=0)', '' using 8:7:9 title 'batched (unmap_batch=1)'"
	else
		echo "plot.sh: no reclaim benchmarks with both stock and batched runs: no unmap-time"
	fi

	# speedup per rep pair: stock/batched time, batched/stock loops/s
	awk '{ split($1, p, "."); v[p[1], p[2], p[3]] = $3; m[p[1]] = $2; reps[p[1], p[3]] = 1; if (!(p[1] in seen)) { seen[p[1]] = 1; ord[++n] = p[1] } }
	END { for (i = 1; i <= n; i++) { b = ord[i]
		for (k in reps) { split(k, q, SUBSEP); if (q[1] != b) continue
			s = v[b, "stock", q[2]]; t = v[b, "batched", q[2]]
			if (s == "" || t == "" || s == 0 || t == 0) continue
			print b, (m[b] == "loops_per_sec") ? t / s : s / t } } }' "$out/unmap-runs.txt" | stats > "$out/.speed.txt"
	: > "$out/unmap-speedup.dat"
	for s in $unmap_order $(cut -d' ' -f1 "$out/.speed.txt"); do
		grep -q "^\"$s\\\\" "$out/unmap-speedup.dat" && continue
		row=$(grep "^$s " "$out/.speed.txt") || continue
		echo "\"$s\\n${fsize[$s]:-?}\" ${row#* }" >> "$out/unmap-speedup.dat"
	done
	rm -f "$out/.speed.txt"
	if [ -s "$out/unmap-speedup.dat" ]; then
		sed -i '1i # benchmark n min median max of the per-rep speedup (stock time / batched time; seed: batched loops/s / stock loops/s)' "$out/unmap-speedup.dat"
		plot unmap-speedup "batched try_to_unmap_one: speedup over stock by folio size (median, min..max over reps)" \
			"speedup (stock time / batched time; seed: loops/s ratio)" 0 \
			"set style histogram errorbars gap 3 lw 1; plot '$out/unmap-speedup.dat' using 4:3:5:xtic(1) title 'speedup' lc rgb '#3070b0', 1 with lines dt 2 lc rgb 'black' title 'no change'"
	fi
else
	echo "plot.sh: no unmap benchmark runs (BENCH.stock|batched.REP.out): no unmap figures"
fi

# ---- unmap: batch-size histogram from the batched runs' counters ----
if [ -n "$batched_recs" ]; then
	# mean unmap_batch_order<k> per batched run, one column per benchmark
	printf '%s\n' "$batched_recs" | awk -F '\t' '
		{ b = $1; sub(/\..*/, "", b) }
		$2 == "record" { if (!(b in nrun)) ord[++nb] = b; nrun[b]++ }
		$2 == "counter" && $4 ~ /^unmap_batch_order[0-9]$/ { k = substr($4, 18); sum[b, k] += $5 }
		END {
			printf "\"PTEs per run\""; for (i = 1; i <= nb; i++) printf " %s", ord[i]; print ""
			for (k = 0; k <= 9; k++) {
				lo = 2 ^ k; hi = 2 ^ (k + 1) - 1; if (k == 9) hi = 512
				if (k == 0) printf "\"1 (large folio)\""; else if (k == 9) printf "\"512\""; else printf "\"%d-%d\"", lo, hi
				for (i = 1; i <= nb; i++) printf " %.1f", sum[ord[i], k] / nrun[ord[i]]
				print ""
			}
		}' > "$out/unmap-batches.dat"
	nb=$(head -1 "$out/unmap-batches.dat" | awk '{ print NF - 3 }')
	# log scale: zero bars are drawn as missing (gnuplot skips log(0))
	plot unmap-batches "batched try_to_unmap_one: PTE runs per batched run, by run size (unmap_batch_order<k>)" \
		"runs per benchmark run (mean over reps, log)" 1 \
		"set style histogram clustered gap 2; set key outside right top; set datafile missing '0.0'; set yrange [0.8:*]; plot for [i=2:$((nb + 1))] '$out/unmap-batches.dat' using i:xtic(1) title columnheader(i)"
else
	echo "plot.sh: no batched .rec files: no unmap-batches"
fi

# ---- fault-around: launch latency and seqread time per configuration ----
fa_order="stock fa4k mkold1 mkold2 auto auto200"
if [ ${#fa_outs[@]} -gt 0 ]; then
	for f in "${fa_outs[@]}"; do
		b=$(basename "$f" .out); IFS=. read -r s c t <<< "$b"
		awk -v s="$s" -v c="$c" '
			function kv(k,   i, a) { for (i = 1; i <= NF; i++) { split($i, a, "="); if (a[1] == k) return a[2] } return "" }
			$1 == "summary" { print s "." c, kv("avg_ms") }
			# seqread: ns per touched page of each pattern over its passes
			$1 == "read" { p = kv("pattern"); if (!(p in ms)) ord[++n] = p; ms[p] += kv("ms"); tp[p] += kv("touched") }
			END { for (i = 1; i <= n; i++) if (tp[ord[i]] > 0) print s "/" ord[i] "." c, ms[ord[i]] * 1e6 / tp[ord[i]] }' "$f"
	done | stats > "$out/.fa.txt"
	confs=$(for c in $fa_order $(cut -d' ' -f1 "$out/.fa.txt" | cut -d. -f2); do echo "$c"; done | awk '!s[$0]++' |
		while read -r c; do grep -q "^[^ ]*\.$c " "$out/.fa.txt" && echo "$c"; done)
	scens=$(for s in launch-zram launch-noswap launch-zram-classic launch-noswap-classic \
		$(cut -d' ' -f1 "$out/.fa.txt" | cut -d. -f1); do echo "$s"; done |
		awk '!s[$0]++' | while read -r s; do grep -q "^$s\." "$out/.fa.txt" && echo "$s"; done | grep '^launch-')
	# fa_clusters NAME KEYPREFIX WHAT TITLE YLABEL GROUP...: one cluster of
	# bars (a bar per configuration) per GROUP, from the .fa.txt rows
	# KEYPREFIX GROUP.CONFIG; WHAT names the values in the .dat header.
	fa_clusters() {
		local name=$1 prefix=$2 what=$3 title=$4 ylabel=$5 g c row cmd=plot i=0
		shift 5
		{
			echo "# group, then per configuration ($(echo $confs)): median min max of $what"
			for g in "$@"; do
				printf '"%s"' "$g"
				for c in $confs; do
					row=$(grep "^$prefix$g\.$c " "$out/.fa.txt") && echo "$row" | awk '{ printf " %s %s %s", $4, $3, $5 }' || printf ' - - -'
				done
				echo
			done
		} > "$out/$name.dat"
		for c in $confs; do
			cmd="$cmd '$out/$name.dat' using $((2 + 3 * i)):$((3 + 3 * i)):$((4 + 3 * i))$([ $i = 0 ] && echo ':xtic(1)') title '$c',"
			i=$((i + 1))
		done
		plot "$name" "$title" "$ylabel" 0 "set datafile missing '-'; ${cmd%,}"
	}
	if [ -n "$scens" ]; then
		# shellcheck disable=SC2086
		fa_clusters fa-launch "" "the per-run average launch ms" \
			"app launch latency by fault-around configuration (median, min..max over reps)" \
			"average launch ms (lower is better)" $scens
	else
		echo "plot.sh: no launch-* runs: no fa-launch"
	fi
	pats=$(cut -d' ' -f1 "$out/.fa.txt" | sed -n 's|^seqread/\([^.]*\)\..*|\1|p' | awk '!s[$0]++')
	if [ -n "$pats" ]; then
		# shellcheck disable=SC2086
		fa_clusters fa-seqread seqread/ "ns per touched page" \
			"ft_seqread (sequential/strided readers, no memory pressure) by fault-around configuration" \
			"ns per touched page (lower is better)" $pats
	fi
	rm -f "$out/.fa.txt"
else
	echo "plot.sh: no fault-around runs (launch-*/seqread.CONFIG.REP.out): no fault-around figures"
fi
