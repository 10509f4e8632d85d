#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# ab-plot.sh AB_FILE [OUT] - every run of a "foliotune ab" file, by pair and
# arm: the wall time and, when the file has one, the metric, so a drift, an
# outlier or a pair that disagrees shows at a glance.  Writes OUT.png,
# OUT.svg and the OUT.dat it plotted (OUT defaults to AB_FILE without .txt).
# Needs gnuplot (Debian: gnuplot-nox).
set -u

ab=${1:?usage: ab-plot.sh AB_FILE [OUT]}
out=${2:-${ab%.txt}}
[ -r "$ab" ] || { echo "ab-plot.sh: cannot read $ab" >&2; exit 1; }
head -1 "$ab" | grep -q '^# foliotune ab v' || { echo "ab-plot.sh: $ab is not a foliotune ab file" >&2; exit 1; }
command -v gnuplot >/dev/null || { echo "ab-plot.sh: gnuplot missing (apt-get install gnuplot-nox)" >&2; exit 2; }

# One row per complete run: pair arm wall metric ("-" when none); a run a
# signal interrupted is left out, as in the statistics.
awk '
function flush() {
	if (inrec && arm != "" && !intr && exit_code == 0)
		printf "%d %s %s %s\n", pair, arm, wall, metric
	arm = ""; metric = "-"; wall = ""; intr = 0; exit_code = -1
}
/^# foliotune record v/ { flush(); inrec = 1; next }
inrec && $1 == "wall_seconds" { wall = $2 }
inrec && $1 == "exit_code" { exit_code = $2 }
inrec && $1 == "interrupted" { intr = 1 }
inrec && $1 == "ab_run" { pair = $3; arm = $4 }
inrec && $1 == "metric" { metric = $2 }
END { flush() }' "$ab" >"$out.dat"
[ -s "$out.dat" ] || { echo "ab-plot.sh: no complete run in $ab" >&2; exit 1; }

metric=$(sed -n 's/^metric_name //p' "$ab")
arms=$(sed -n 's/^arm \([AB]\) \(.*\)/\1: \2/p' "$ab" | tr '\n' ';' | sed 's/;$//; s/;/; /')
emu=$(sed -n 's/^env emulation //p' "$ab")
case $emu in qemu*) note=" (QEMU: emulated machine)" ;; *) note= ;; esac
panels=1
[ -n "$metric" ] && grep -q ' [AB] [0-9.]* [0-9.eE+-]*$' "$out.dat" && [ "$(awk '$4 == "-"' "$out.dat" | wc -l)" = 0 ] && panels=2

plot() {
	cat <<EOF
set terminal $1
set output '$2'
set multiplot layout $panels,1 title "foliotune ab: $(basename "$ab")$note\\n$arms" noenhanced
set key outside right
set xlabel 'pair'
set xtics 1
set grid ytics
set ylabel 'wall seconds'
plot '$out.dat' using (strcol(2) eq "A" ? \$1 - 0.1 : 1/0):3 with points pt 7 ps 1.2 title 'A', \\
     '' using (strcol(2) eq "B" ? \$1 + 0.1 : 1/0):3 with points pt 9 ps 1.2 title 'B'
EOF
	if [ "$panels" = 2 ]; then
		cat <<EOF
set ylabel '$metric' noenhanced
plot '$out.dat' using (strcol(2) eq "A" ? \$1 - 0.1 : 1/0):4 with points pt 7 ps 1.2 title 'A', \\
     '' using (strcol(2) eq "B" ? \$1 + 0.1 : 1/0):4 with points pt 9 ps 1.2 title 'B'
EOF
	fi
	echo "unset multiplot"
}

h=$((360 * panels))
plot "pngcairo size 900,$h" "$out.png" | gnuplot 2>/dev/null ||
	plot "png size 900,$h" "$out.png" | gnuplot || exit 2
plot "svg size 900,$h" "$out.svg" | gnuplot || exit 2
echo "ab-plot.sh: wrote $out.png, $out.svg ($out.dat: $(wc -l <"$out.dat") runs)"
