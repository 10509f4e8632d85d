#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""plot.py RESULTS_DIR - the figures of a benchmark session, from its raw
files only, so it also works on old results directories.

Looks for raw/ directories (or their raw.tar.xz, bench/pack.sh) in
RESULTS_DIR itself and one level below
(bench/results/<date>-<commit>/{unmap,faultaround}/raw from `make bench`,
whose reclaim/raw it leaves out, or an older <date>-<commit>/raw or
<date>-<commit>-faultaround/raw), and writes RESULTS_DIR/plots/NAME.{png,svg}
plus the NAME.dat it plotted:

  unmap-time      reclaim seconds per benchmark (ordered by folio size),
                  stock vs batched: median bar, min..max whisker over reps
  unmap-speedup   stock/batched (loops/s: batched/stock) per benchmark,
                  median and min..max of the per-rep ratios (1 = same)
  unmap-batches   batch-size histogram: PTE runs unmapped per batched run
                  by run size (unmap_batch_order<k>: 2^k..2^(k+1)-1 PTEs)
  fa-launch       average app-launch latency per fault-around
                  configuration and scenario: median, min..max over reps
  fa-seqread      ft_seqread ns per touched page, by pattern and
                  configuration (no pressure)

A figure whose input is absent is skipped with a line saying so.  Every
figure is labelled as QEMU TCG (software emulation) unless the metadata
says the guest ran under KVM, or on the machine itself (make bench-box:
then with its CPU model).  A run 4x off the median of its benchmark and
configuration (a stalled run, which unmap.py names) is left out of the
figures.  Medians and spreads come from foliotune analyze (session.py).
Needs gnuplot (Debian: gnuplot-nox).
"""
import glob
import locale
import os
import re
import shutil
import subprocess
import sys

import session as S
from session import fmt_awk

PROG = "plot.py"
# the unmap benchmarks by folio size, then anything else
UNMAP_ORDER = "order0 shmem16k lazyfree shmem64k shmem128k seed filera file2m file2m-shift shmem2m-pte shmem2m".split()
FSIZE = {"order0": "4K", "shmem16k": "16K", "lazyfree": "64K", "shmem64k": "64K", "shmem128k": "128K",
         "seed": "16K-128K readahead", "filera": "16K-128K readahead", "file2m": "2M", "file2m-shift": "2M, shifted",
         "shmem2m-pte": "2M PTE-mapped", "shmem2m": "2M PMD-mapped"}
FA_ORDER = "stock fa4k mkold1 mkold2 auto auto200".split()
FA_SCENS = "launch-zram launch-noswap launch-zram-classic launch-noswap-classic".split()


def say(msg):
    print(f"{PROG}: {msg}")


def ordered(first, rest):
    """first, then the others of rest, each once."""
    return list(dict.fromkeys(list(first) + list(rest)))


class Figures:
    def __init__(self, out, label):
        self.out, self.label = out, label

    def plot(self, name, title, ylabel, logy, cmd):
        """NAME.png and NAME.svg from a gnuplot plot command."""
        for term, ext in (("pngcairo size 1000,560 noenhanced font ',10'", "png"),
                          ("svg size 1000,560 noenhanced font ',11'", "svg")):
            script = "\n".join([
                f"set terminal {term}",
                f"set output '{self.out}/{name}.{ext}'",
                f'set title "{title}\\n{self.label}"',
                f'set ylabel "{ylabel}"',
                "set grid ytics", "set key top left", "set style data histograms",
                "set style histogram errorbars gap 2 lw 1", "set style fill solid 0.8 border -1",
                "set boxwidth 0.9", "set bmargin 7", "set xtics rotate by -30 left nomirror", "set yrange [0:*]",
                "set logscale y; set yrange [*:*]" if logy else "",
                cmd, ""])
            r = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True, check=False)
            if r.returncode != 0:
                print(f"{PROG}: gnuplot failed for {name}: {' '.join(r.stderr.splitlines()[-2:])}", file=sys.stderr)
                return False
        say(f"{self.out}/{name}.png, {self.out}/{name}.svg")
        return True

    def dat(self, name, lines):
        with open(os.path.join(self.out, name + ".dat"), "w", encoding="utf-8") as f:
            f.write("".join(line + "\n" for line in lines))
        return os.path.join(self.out, name + ".dat")


def main(argv):
    if len(argv) != 2:
        print(f"usage: {PROG} RESULTS_DIR", file=sys.stderr)
        return 1
    d = argv[1]
    if not os.path.isdir(d):
        print(f"{PROG}: {d}: no such directory", file=sys.stderr)
        return 1
    if not shutil.which("gnuplot"):
        print(f"{PROG}: gnuplot missing (apt-get install gnuplot-nox)", file=sys.stderr)
        return 2
    out = os.path.join(d, "plots")
    os.makedirs(out, exist_ok=True)
    locale.setlocale(locale.LC_COLLATE, "")

    # the raw directories: DIR/raw and DIR/*/raw (or raw.tar.xz); the
    # reclaim benchmark's (host-meta.txt "benchmark reclaim") has no figures
    sessions, nreclaim = [], 0
    for sub in [d] + sorted(glob.glob(os.path.join(glob.escape(d), "*", "")), key=locale.strxfrm):
        sub = sub.rstrip("/")
        if not (os.path.isdir(os.path.join(sub, "raw")) or os.path.isfile(os.path.join(sub, "raw.tar.xz"))):
            continue
        try:
            sess = S.Session(sub)
        except S.ReportError as e:
            print(f"{PROG}: {e}", file=sys.stderr)
            continue
        if sess.m("benchmark") == "reclaim":
            nreclaim += 1
            sess.close()
            continue
        sessions.append(sess)
    try:
        if not sessions and nreclaim:
            say(f"only the reclaim benchmark's raw files under {d}: it has no figures")
            return 0
        if not sessions:
            print(f"{PROG}: no raw/ or raw.tar.xz under {d}", file=sys.stderr)
            return 1
        return figures(d, out, sessions)
    except S.ReportError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    finally:
        for sess in sessions:
            sess.close()


def figures(d, out, sessions):
    label = "QEMU TCG guest (software emulation)"
    if any(s.m("accel") == "kvm" for s in sessions):
        label = "KVM guest"
    elif any(s.m("accel") == "box" for s in sessions):
        # make bench-box: the machine itself
        label = next((s.m("guest_cpu_model") for s in sessions if s.m("guest_cpu_model")), "")
    if "smoke" in os.path.basename(os.path.realpath(d)):
        label += " - SMOKE RUN, not a result"
    fig = Figures(out, label)

    # the runs: unmap BENCH.stock|batched.REP, fault-around launch-* and
    # seqread SCEN.CONFIG.REP (spawn has no figure)
    unmap_runs, fa_runs = [], []
    for sess in sessions:
        for r, path in sess.files("out"):
            if not re.fullmatch("[0-9]+", r.t):
                continue
            if r.s.startswith("launch-") or r.s == "seqread":
                fa_runs.append((r, path))
            elif r.c in ("stock", "batched") and r.s != "spawn":
                unmap_runs.append((r, path))
    st = S.Stats(S.foliotune())

    # unmap: the metric of every run, less a run 4x off the median of its
    # benchmark and configuration (a stalled run; unmap.py names it)
    metrics = []
    for r, path in unmap_runs:
        for line in S.read_lines(path):
            w = S.words(line)
            if len(w) > 1 and w[0] in ("loops_per_sec", "reclaim_seconds"):
                metrics.append((r, w[0], w[1]))
                st.sample(f"{r.s}.{r.c}", w[1])
    # fault-around: the average launch of a run; ns per touched page of
    # each pattern over its passes
    for r, path in fa_runs:
        ms, tp = {}, {}
        for line in S.read_lines(path):
            w = S.words(line)
            kv = {}
            for a in w:
                kv.setdefault(a.split("=")[0], a.split("=")[1] if "=" in a else "")
            if w and w[0] == "summary" and kv.get("avg_ms", "") != "":
                st.sample(f"fa|{r.s}.{r.c}", kv["avg_ms"])
            elif w and w[0] == "read":
                p = kv.get("pattern", "")
                ms[p] = ms.get(p, 0) + S.num(kv.get("ms"))
                tp[p] = tp.get(p, 0) + S.num(kv.get("touched"))
        for p in ms:
            if tp[p] > 0:
                st.sample(f"fa|{r.s}/{p}.{r.c}", fmt_awk(ms[p] * 1e6 / tp[p]))
    st.run()

    def row(name):
        """n min median max of a sample as foliotune analyze printed them."""
        x = st.samples[name]
        return f"{x['n']} {x['text'][6]} {x['text'][3]} {x['text'][7]}"

    kept, pos = [], {}
    for r, key, x in metrics:
        g = f"{r.s}.{r.c}"
        pos[g] = pos.get(g, 0) + 1
        if pos[g] in st.samples[g]["out"]:
            print(f"{PROG}: left out {r.id} {key} {x} ({x} against a median of {st.samples[g]['text'][3]})",
                  file=sys.stderr)
        else:
            kept.append((r, key, x))
    fa_names = [n[3:] for n in st.samples if n.startswith("fa|")]
    fa_rows = {n: row("fa|" + n) for n in fa_names}

    st2 = S.Stats(st.ft)
    by = {}
    for r, key, x in kept:
        by[(r.s, r.c, r.t)] = (key, x)
        if key == "reclaim_seconds":
            st2.sample(f"time|{r.c}|{r.s}", x)
    # the speedup of each rep's pair: stock/batched time, batched/stock loops/s
    benches = list(dict.fromkeys(r.s for r, _, _ in kept))
    for b in benches:
        for t in dict.fromkeys(r.t for r, _, _ in kept if r.s == b):
            s, bt = by.get((b, "stock", t)), by.get((b, "batched", t))
            if not s or not bt or S.num(s[1]) == 0 or S.num(bt[1]) == 0:
                continue
            v = S.num(bt[1]) / S.num(s[1]) if bt[0] == "loops_per_sec" else S.num(s[1]) / S.num(bt[1])
            st2.sample(f"speedup|{b}", fmt_awk(v))
    st2.run()
    st = st2

    if not unmap_runs:
        say("no unmap benchmark runs (BENCH.stock|batched.REP.out): no unmap figures")
    else:
        lines = []
        for b in ordered(UNMAP_ORDER, benches):
            if f"time|stock|{b}" in st.samples and f"time|batched|{b}" in st.samples:
                lines.append(f'"{b}\\n{FSIZE.get(b, "?")}" {row(f"time|stock|{b}")} {row(f"time|batched|{b}")}')
        if lines:
            f = fig.dat("unmap-time", ["# benchmark(folio size) stock_n stock_min stock_median stock_max batched_n "
                                       "batched_min batched_median batched_max (reclaim seconds)"] + lines)
            fig.plot("unmap-time", "try_to_unmap_one: memcg reclaim time by folio size, stock vs batched (median, min..max)",
                     "reclaim seconds (lower is better)", True,
                     f"plot '{f}' using 4:3:5:xtic(1) title 'stock (unmap_batch=0)', '' using 8:7:9 title 'batched (unmap_batch=1)'")
        else:
            say("no reclaim benchmarks with both stock and batched runs: no unmap-time")
        lines = [f'"{b}\\n{FSIZE.get(b, "?")}" {row(f"speedup|{b}")}'
                 for b in ordered(UNMAP_ORDER, benches) if f"speedup|{b}" in st.samples]
        if lines:
            f = fig.dat("unmap-speedup", ["# benchmark n min median max of the per-rep speedup (stock time / batched "
                                          "time; seed: batched loops/s / stock loops/s)"] + lines)
            fig.plot("unmap-speedup", "batched try_to_unmap_one: speedup over stock by folio size (median, min..max over reps)",
                     "speedup (stock time / batched time; seed: loops/s ratio)", False,
                     f"set style histogram errorbars gap 3 lw 1; plot '{f}' using 4:3:5:xtic(1) title 'speedup' "
                     "lc rgb '#3070b0', 1 with lines dt 2 lc rgb 'black' title 'no change'")

    # unmap: the batch-size histogram, the mean unmap_batch_order<k> per
    # batched run, one column per benchmark
    nrun, sums = {}, {}
    for sess in sessions:
        for r, _ in sess.records():
            if r.c != "batched" or not re.fullmatch("[0-9]+", r.t):
                continue
            nrun[r.s] = nrun.get(r.s, 0) + 1
            for k in range(10):
                sums[(r.s, k)] = sums.get((r.s, k), 0) + S.num(r.ft(f"unmap_batch_order{k}"))
    if nrun:
        lines = ['"PTEs per run"' + "".join(" " + b for b in nrun)]
        for k in range(10):
            lab = ('"1 (large folio)"' if k == 0 else '"512"' if k == 9 else f'"{2 ** k}-{2 ** (k + 1) - 1}"')
            lines.append(lab + "".join(" %.1f" % (sums[(b, k)] / nrun[b]) for b in nrun))
        f = fig.dat("unmap-batches", lines)
        # log scale: zero bars are drawn as missing (gnuplot skips log(0))
        fig.plot("unmap-batches", "batched try_to_unmap_one: PTE runs per batched run, by run size (unmap_batch_order<k>)",
                 "runs per benchmark run (mean over reps, log)", True,
                 "set style histogram clustered gap 2; set key outside right top; set datafile missing '0.0'; "
                 f"set yrange [0.8:*]; plot for [i=2:{len(nrun) + 1}] '{f}' using i:xtic(1) title columnheader(i)")
    else:
        say("no batched .rec files: no unmap-batches")

    # fault-around: launch latency and seqread time per configuration
    if not fa_runs:
        say("no fault-around runs (launch-*/seqread.CONFIG.REP.out): no fault-around figures")
        return 0
    confs = [c for c in ordered(FA_ORDER, (n.split(".")[1] for n in fa_names))
             if any(n.split(".")[1] == c for n in fa_names)]
    scens = [s for s in ordered(FA_SCENS, (n.split(".")[0] for n in fa_names))
             if s.startswith("launch-") and any(n.split(".")[0] == s for n in fa_names)]
    pats = list(dict.fromkeys(n.split(".")[0][len("seqread/"):] for n in fa_names if n.startswith("seqread/")))

    def clusters(name, prefix, what, title, ylabel, groups):
        """One cluster of bars (a bar per configuration) per group, from
        the rows PREFIX GROUP.CONFIG; WHAT names the values."""
        lines = [f"# group, then per configuration ({' '.join(confs)}): median min max of {what}"]
        for g in groups:
            line = f'"{g}"'
            for c in confs:
                x = fa_rows.get(f"{prefix}{g}.{c}")
                line += " %s %s %s" % tuple(x.split()[i] for i in (2, 1, 3)) if x else " - - -"
            lines.append(line)
        f = fig.dat(name, lines)
        cmd = ", ".join(f"'{f}' using {2 + 3 * i}:{3 + 3 * i}:{4 + 3 * i}{':xtic(1)' if i == 0 else ''} title '{c}'"
                        for i, c in enumerate(confs))
        fig.plot(name, title, ylabel, False, f"set datafile missing '-'; plot {cmd}")
    if scens:
        clusters("fa-launch", "", "the per-run average launch ms",
                 "app launch latency by fault-around configuration (median, min..max over reps)",
                 "average launch ms (lower is better)", scens)
    else:
        say("no launch-* runs: no fa-launch")
    if pats:
        clusters("fa-seqread", "seqread/", "ns per touched page",
                 "ft_seqread (sequential/strided readers, no memory pressure) by fault-around configuration",
                 "ns per touched page (lower is better)", pats)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
