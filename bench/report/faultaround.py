#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""faultaround.py DIR - turn the raw files of bench/faultaround.sh
(DIR/raw/ or DIR/raw.tar.xz) into DIR/results.md, and print it.  Python 3
standard library, tar and the foliotune CLI (its analyze command).

Raw files (written by faultaround-guest.sh):
  SCEN.CONFIG.REP.rec   `foliotune record` file: knobs, wall time, exit
                        status, command, foliotune + /proc/vmstat deltas
  SCEN.CONFIG.REP.out   the program's output: ft_applaunch "round" and
                        "summary" lines, ft_seqread "read" lines, ft_spawn
                        "spawns" and "failed" lines
  SCEN.auto.REP.auto    fault_around_bytes sampled every second (auto runs)
  host-meta.txt, guest-meta.txt   "key value" lines
REP "warmup" runs are ignored.

Figures per scenario and configuration are over the reps: min / median /
max of each run's value; "vs stock" = median(config) / median(stock).
The counter tables (the 2016 thread's table) show the median delta over
the reps of each counter.  A difference is only called one when
foliotune analyze shows it on the runs paired by rep (each rep runs every
configuration once); otherwise the tables say why not, and with fewer
than 6 reps that no difference can be shown at p < 0.05 at all
(bench/README.md, "Statistics").
"""
import math
import re
import sys

import session as S
from session import fmt_awk, num

SCENS = "launch-zram launch-noswap launch-zram-classic launch-noswap-classic seqread spawn".split()
CONFS = "stock fa4k mkold1 mkold2 auto auto200 autoage".split()
CG = ("cg_pgscan cg_pgsteal cg_workingset_refault_file cg_workingset_refault_anon cg_pgrefill cg_pgactivate "
      "cg_pgdeactivate").split()
NUMERIC = re.compile(r"^-?[0-9.]+([eE][-+]?[0-9]+)?$")
# Vinayak Menon's table: /proc/vmstat and foliotune counters, in his order
ROWS = ("vm:workingset_refault_file vm:workingset_refault_anon vm:workingset_activate_file vm:workingset_activate_anon "
        "vm:pgpgin vm:pgpgout ft:pgpgoutclean vm:pswpin vm:pswpout vm:pgactivate vm:pgdeactivate "
        "ft:pageref_activate ft:pageref_activate_vm_exec ft:pageref_keep vm:pgmajfault vm:pgfault vm:pgrefill").split()
MORE = ("vm:slabs_scanned vm:pageoutrun ft:fa_events ft:fa_pages_mapped ft:fa_pages_mapped_old ft:fa_unmap_old_ptes "
        "ft:fa_unmap_young_ptes ft:fa_read_faults ft:fa_read_faults_near ft:fa_auto_changes").split()
STATICS = ["stock", "fa4k", "mkold1", "mkold2"]
TUNERS = ["auto", "auto200", "autoage"]


def kv(line, key):
    """The value of key=VALUE in a "word key=value ..." line, "" if none."""
    for a in line.split(" "):
        if a.startswith(key + "="):
            return a[len(key) + 1:]
    return ""


def ms(x):
    return "-" if x is None else "%.1f" % x


def count(x):
    """A count (a median, maybe half-way) as the tables print it; mawk's
    %d stops at 2^31 - 1."""
    if x is None:
        return "-"
    return "%d" % max(-2147483647, min(2147483647, int(x))) if x == int(x) else "%.1f" % x


def ratio(x, b):
    if x is None or b is None or b == 0:
        return "-"
    return "%.2f (%+.0f%%)" % (x / b, (x / b - 1) * 100)


def pctchg(x, b):
    if x is None or b is None:
        return ""
    if b == 0:
        return "" if x == 0 else " (n/a)"
    return " (%+.0f%%)" % ((x / b - 1) * 100)


def kb(b):
    x = num(b)
    if x >= 1048576 and x % 1048576 == 0:
        return fmt_awk(x / 1048576) + "M"
    if x >= 1024 and x % 1024 == 0:
        return fmt_awk(x / 1024) + "K"
    return b


def build(sess, st):
    val = {}                  # (S, C, T, KEY) -> value: text as read, or a number
    vmkey, moved = {}, set()
    cmd, sets, setseen = {}, {}, set()
    islaunch, isseq, isspawn = {}, {}, {}
    pats, lconfig = [], {}
    nround = 0
    autoseq, autolast, autosecs = {}, {}, {}
    for r, lines in sess.records():
        k = (r.s, r.c, r.t)
        for f in lines:
            if f[0] == "counter":
                key = ("ft:" if f[1] == "foliotune" else "vm:") + f[2]
                val[k + (key,)] = f[3]
                if f[1] == "vmstat":
                    vmkey[f[2]] = 1
                if num(f[3]) != 0:
                    moved.add((r.s, key))
            elif f[0] == "wall_seconds":
                val[k + ("wall",)] = f[1]
            elif f[0] == "exit_code":
                val[k + ("exit",)] = f[1]
            elif f[0] == "exit_signal":
                val[k + ("exit",)] = "signal " + f[1]
            elif f[0] == "module":
                val[k + ("module",)] = f[1]
            elif f[0] == "command" and (r.s, r.c) not in cmd:
                cmd[(r.s, r.c)] = f[1]
            elif f[0] == "set" and (r.s, r.c, f[1]) not in setseen:
                setseen.add((r.s, r.c, f[1]))
                sets[(r.s, r.c)] = sets.get((r.s, r.c), "") + f" -s {f[1]}={f[2]}"
    for r, path in sess.files("out"):
        k = (r.s, r.c, r.t)
        for line in S.read_lines(path):
            w = S.words(line)
            if not w:
                continue
            if w[0] == "round":
                rd = kv(line, "round")
                for name, field in (("avg", "avg_ms"), ("max", "max_ms"), ("majflt", "majflt"), ("minflt", "minflt")):
                    val[k + (f"r{rd}:{name}",)] = kv(line, field)
                for c in CG:
                    x = kv(line, c)
                    if x != "":
                        val[k + (f"r{rd}:{c}",)] = x
                nround = max(nround, num(rd))
                islaunch[r.s] = 1
            elif w[0] == "summary":
                for name, field in (("avg", "avg_ms"), ("max", "max_ms"), ("majflt", "majflt"), ("minflt", "minflt")):
                    val[k + (name,)] = kv(line, field)
                for name, field in (("oom", "oom_kill"), ("peak", "peak_kb")):
                    x = kv(line, field)
                    if x != "":
                        val[k + (name,)] = x
                val[k + ("summary",)] = 1
            elif w[0] == "config" and r.s not in lconfig and "apps=" in line:
                lconfig[r.s] = re.sub(r"^config ", "", line)
            elif w[0] == "read":
                pt = kv(line, "pattern")
                if pt not in pats:
                    pats.append(pt)
                # several passes of one pattern: sum
                for name in ("minflt", "majflt", "ms", "touched"):
                    key = k + (f"p:{pt}:{name}",)
                    val[key] = num(val.get(key)) + num(kv(line, name))
                # the metric of a pattern: time per touched page over all its passes
                t = val[k + (f"p:{pt}:touched",)]
                val[k + (f"p:{pt}:nspp",)] = val[k + (f"p:{pt}:ms",)] * 1e6 / t if t else math.inf
                isseq[r.s] = 1
            elif w[0] == "spawns":
                # "spawns N seconds S ns_per_spawn X"
                val[k + ("summary",)] = 1
                val[k + ("spawns",)] = w[1] if len(w) > 1 else ""
                val[k + ("spawn_ns",)] = w[5] if len(w) > 5 else ""
                isspawn[r.s] = 1
            elif w[0] == "failed":
                val[k + ("spawn_failed",)] = w[1] if len(w) > 1 else ""
            elif w[0] == "total":
                val[k + ("summary",)] = 1
                val[k + ("seq_ms",)] = kv(line, "ms")
                val[k + ("seq_minflt",)] = kv(line, "minflt")
            elif w[0] == "error":
                val[k + ("error",)] = line
    for r, path in sess.files("auto"):
        k = (r.s, r.c, r.t)
        # "SECONDS BYTES": windows in the order seen
        for line in S.read_lines(path):
            w = S.words(line)
            if len(w) != 2:
                continue
            x = kb(w[1])
            if autolast.get(k) != x:
                autoseq[k] = autoseq.get(k, "") + (">" if autoseq.get(k, "") else "") + x
                autolast[k] = x
            autosecs[k] = w[0]

    sord = SCENS + [s for s in sess.scens if s not in SCENS]
    cord = CONFS + [c for c in sess.confs if c not in CONFS]
    m = sess.m

    def workloads(s):
        """The workloads of scenario s: (name, metric key) pairs, lower is better."""
        if s in islaunch:
            return [(s, "avg")]
        if s in isspawn:
            return [(s, "spawn_ns")]
        if s not in isseq:
            return []
        return [(f"{s}/{p}", f"p:{p}:nspp") for p in pats]

    # every numeric value for its median and spread, and the runs of every
    # two configurations of a workload paired by rep (each rep runs every
    # configuration once, in an order rotated by one per rep)
    for (s, c, t, key), v in val.items():
        if key in ("exit", "module", "error", "summary") or not NUMERIC.match(fmt_awk(v)):
            continue
        st.sample(f"{s}|{c}|{key}", v)
    for s in sord:
        for _, key in workloads(s):
            for c in cord:
                for b in cord:
                    if c == b:
                        continue
                    for t in sess.tags.get((s, c), []):
                        if (s, c, t, key) in val and (s, b, t, key) in val:
                            st.pair(f"{s}|{c}|{b}|{key}", val[(s, b, t, key)], val[(s, c, t, key)])
    st.run()

    def stats(s, c, key):
        return st.get(f"{s}|{c}|{key}")

    def med(s, c, key):
        return st.med(f"{s}|{c}|{key}")

    def paired(s, c, b, key):
        return st.pv(f"{s}|{c}|{b}|{key}")

    def versus(s, c, b, key):
        """c against b, lower is better: the ratio of the medians, a
        difference only when the paired test shows one."""
        xc, xb = med(s, c, key), med(s, b, key)
        if xc is None or xb is None or xb == 0:
            return "-"
        r = xc / xb
        pv = paired(s, c, b, key)
        if pv["v"] in ("lower", "higher"):
            return "%.2f (%+.0f%%, %s, p %.3g)" % (r, (r - 1) * 100, "faster" if pv["v"] == "lower" else "slower", pv["p"])
        return "%.2f: %s" % (r, "no pairs" if pv["v"] == "" else pv["t"])

    def target(s, c, b, key, tol):
        """Is c's median within tol (1.05: 5%) of b's?  "met"; else "not met"
        when the pairs show c slower than b, else "not shown" (with fewer
        than 6 pairs "not shown (N pairs)": none can be shown)."""
        xc, xb = med(s, c, key), med(s, b, key)
        if xc is None or xb is None:
            return "-"
        if xc <= tol * xb:
            return "met"
        pv = paired(s, c, b, key)
        if pv["v"] == "higher":
            return "not met"
        if pv["v"] == "few":
            return f"not shown ({pv['n']} pairs)"
        return "not shown"

    sdesc = {
        "launch-zram": "app launch, zram swap, MGLRU on (Vinayak Menon's 2016 report: \"with swap\")",
        "launch-noswap": "app launch, no swap, MGLRU on (Vinayak Menon's 2016 report: \"without swap\")",
        "launch-zram-classic": "app launch, zram swap, lru_gen disabled: classic active/inactive LRU, as the 3.18 kernel "
                               "of Vinayak Menon's report",
        "launch-noswap-classic": "app launch, no swap, lru_gen disabled",
        "seqread": f"reads through a cached, mapped {m('seq_mb')} MiB xfs file, no memory pressure",
        "spawn": "process creation in the unixbench pattern: fork+exec of /bin/true and of /bin/sh -c with two external "
                 "commands, one at a time, no memory pressure (the 2016 revert: old pre-mapped PTEs cost x86 an "
                 "accessed-bit update per used page)",
    }
    cdesc = {
        "stock": "fault_around_bytes=64K, mkold 0 (young pre-mapped PTEs: the stock x86 kernel)",
        "fa4k": "fault_around_bytes=4K (fault-around off: what Vinayak Menon's report measured against 64K)",
        "mkold1": "64K, fault_around_mkold=1: pre-mapped PTEs old except the faulting run (arm64's behaviour)",
        "mkold2": "64K, fault_around_mkold=2: only the faulting PTE young (Kirill Shutemov's patch + its follow-up)",
        "auto": f"fault_around_auto=1, fault_around_auto_max_bytes={m('auto_max')}, mkold 0",
        "auto200": "as auto, fault_around_auto_period_ms=200 (the default period is 1000)",
        "autoage": "as auto, fault_around_auto_age=1: the tuner also maps pre-mapped PTEs old (as mkold 2) under file "
                   "reclaim pressure, young otherwise",
    }

    tcg = sess.where()
    TCG = sess.TCG
    out = ["# foliotune: fault-around under memory pressure (the 2016 linux-mm app-launch measurements)", ""]
    if m("accel") == "box":
        out.append(f"**{tcg}** (machine {m('host')}, not an emulator: hardware figures; load average "
                   f"{m('host_loadavg_before')} before, {m('host_loadavg_after')} after). Other work on the machine adds "
                   "noise: trust differences larger than the spread of the reps.")
    else:
        out.append(f"**{tcg}** (guest CPU: {m('guest_cpu_model')}; host: {m('host_cpu')}, {m('host_cpus')} CPUs, load "
                   f"average {m('host_loadavg_before')} before, {m('host_loadavg_after')} after). Absolute times are "
                   "emulator times, not hardware times, and whatever else runs on the host shares its CPUs (the load "
                   "average says how much): only ratios between runs of this boot mean anything, and small ratios are noise.")
    out += ["",
            f"- command: `{m('command')}`",
            f"- commit: `{m('commit')}` ({m('commit_full')})",
            f"- date: {m('date')} (guest: {m('guest_date')})",
            f"- guest: kernel {m('guest_kernel')}, {m('guest_cpus')} vCPUs, MemTotal {int(num(m('guest_mem_kb')) / 1024)} MiB, "
            f"read_ahead_kb {m('read_ahead_kb')}, THP `{m('thp_enabled')}`, lru_gen {m('lru_gen')} (default), zram "
            f"{m('zram_mb')} MiB; module {m('module_build')}",
            f"- parameters: BENCH_REPS={m('reps')}, scenarios: {m('only')}, configurations: {m('configs')}; apps {m('apps')}, "
            f"rounds {m('rounds')}, per-app files {m('app_mb')} MiB, framework {m('fw_mb')} MiB, heap {m('anon_mb')} MiB per "
            f"app, memcg memory.max {m('limit_mb')} MiB" + (f", extra args `{m('launch_args')}`" if m("launch_args") else "")
            + f"; seqread {m('seq_mb')} MiB, patterns {m('seq_patterns')}, {m('seq_passes')} passes",
            f"- run time: guest {m('guest_seconds')} s (setup {m('setup_seconds')} s, timed runs {m('timed_phase_seconds')} s), "
            f"host {m('host_seconds')} s (estimate was {m('estimate_seconds')} s); test box exit status {m('vmrun_exit')}",
            "- method: one boot; for each rep, each scenario, each configuration (order rotated by one per rep) one run of "
            "`foliotune record -l SCEN.CONFIG -s KNOB=VALUE... -o raw/SCEN.CONFIG.REP.rec -- CMD` after syncfs of the xfs "
            "and compaction (ft_applaunch drops its files from the page cache itself); "
            + ("no warm-up run" if m("warmup") == "0" else "one unrecorded stock warm-up run first")
            + ". Knobs each configuration sets:"]
    for c in cord:
        x = next((sets[(s, c)] for s in sord if (s, c) in sets), "")
        if x:
            out.append(f"  - **{c}**: {cdesc.get(c, '')} - `{x[1:]}`")
    la = m("host_loadavg_before").split()
    lb = m("host_loadavg_after").split()
    la1, lb3, hc = (la[0] if la else ""), (lb[2] if len(lb) > 2 else ""), m("host_cpus")
    if num(hc) > 0 and (num(la1) > num(hc) or num(lb3) > num(hc)):
        sess.warn(f"the host was busy (load average {la1} before, {lb3} over the last 15 min after, on {hc} CPUs): launch "
                  "and read times are noisy, trust only differences larger than the spread of the reps; the counter "
                  "deltas do not depend on the host load")
    sess.common_warnings("configurations are compared in pairs of runs of the same rep, and with {n} pairs",
                         'the verdicts below say so instead of "no difference"', "(see raw/console.log)")

    # per-run checks
    noreclaim = set()
    for s in sord:
        for c in cord:
            for t in sess.tags.get((s, c), []):
                k, rid = (s, c, t), f"{s}.{c}.{t}"
                if k + ("exit",) not in val:
                    sess.warn(f"{rid}: no record file (raw/{rid}.rec)")
                elif val[k + ("exit",)] != "0":
                    sess.warn(f"{rid}: exit status {val[k + ('exit',)]}")
                if k + ("error",) in val:
                    sess.warn(f"{rid}: {val[k + ('error',)]}")
                if k + ("summary",) not in val:
                    sess.warn(f"{rid}: no summary line in the output")
                if num(val.get(k + ("spawn_failed",))) > 0:
                    sess.warn(f"{rid}: {val[k + ('spawn_failed',)]} spawned children did not exit 0")
                if num(val.get(k + ("oom",))) > 0:
                    sess.warn(f"{rid}: {val[k + ('oom',)]} OOM kill(s) in the memcg: lower BENCH_ANON_MB or raise BENCH_LIMIT_MB")
                mod = val.get(k + ("module",), "")
                if mod not in ("", "loaded"):
                    sess.warn(f"{rid}: module {mod}")
                if s in islaunch:
                    # the point of the scenario: round 2 must reclaim and refault
                    last = f"r{fmt_awk(nround)}:"
                    scan = num(val.get(k + (last + "cg_pgscan",)))
                    steal = num(val.get(k + (last + "cg_pgsteal",)))
                    rf = num(val.get(k + ("vm:workingset_refault_file",))) + num(val.get(k + ("vm:workingset_refault_anon",)))
                    if nround < 2:
                        sess.warn(f"{rid}: only one round: nothing is launched again")
                    elif scan <= 0 or steal <= 0 or rf <= 0:
                        sess.warn(f"{rid}: NO RECLAIM in round {fmt_awk(nround)} (memcg pgscan {fmt_awk(scan)}, pgsteal "
                                  f"{fmt_awk(steal)}, workingset_refault {fmt_awk(rf)}): the memcg is too large for the "
                                  "apps; lower BENCH_LIMIT_MB")
                        noreclaim.add(s)
    out += sess.warnings_section()

    # launch latency
    nr = fmt_awk(nround)
    for s in sord:
        if s not in islaunch:
            continue
        ba, bm = med(s, "stock", "avg"), med(s, "stock", "max")
        r2 = f"r{nr}"
        b2a, b2m = med(s, "stock", r2 + ":avg"), med(s, "stock", r2 + ":max")
        out += ["", f"## {s}: launch latency {TCG}", "",
                f"{sdesc.get(s, '')}. {m('apps')} apps launched one after another, {nr} rounds (round 1 cold launches, "
                "later rounds resume the apps still alive). Per run: avg and max over all launches; min / median / max of "
                "that over the reps; \"vs stock, paired\": the configuration's avg against stock's of the same rep, by "
                "`foliotune analyze` (exact Wilcoxon signed-rank test, 95% Hodges-Lehmann interval): faster or slower at "
                "p < 0.05, or why no difference is shown. \"run wall s\": the whole ft_applaunch run, including the "
                "untimed use phases (where much of the thrashing happens) and the exits."
                + (" **No reclaim in the last round in some runs: see the warnings.**" if s in noreclaim else ""),
                "",
                f"| config | n | avg launch ms (min / med / max) | avg vs stock | vs stock, paired | max launch ms (min / med / max) | max vs stock | round {nr} avg ms (med) | vs stock | round {nr} max ms (med) | vs stock | run wall s (med) |",
                "|---|---:|---|---:|---|---|---:|---:|---:|---:|---:|---:|"]
        for c in cord:
            if not sess.n(s, c):
                continue
            sa = stats(s, c, "avg")
            n = sa["n"]
            a = f"{ms(sa['min'])} / **{ms(sa['med'])}** / {ms(sa['max'])}"
            am = sa["med"]
            spread = "-"
            if c != "stock" and n > 0 and ba is not None:
                pv = paired(s, c, "stock", "avg")
                spread = ("faster, p %.3g" % pv["p"] if pv["v"] == "lower" else "slower, p %.3g" % pv["p"]
                          if pv["v"] == "higher" else "no pairs" if pv["v"] == "" else pv["t"])
            sx = stats(s, c, "max")
            mx = f"{ms(sx['min'])} / **{ms(sx['med'])}** / {ms(sx['max'])}"
            mm = sx["med"]
            x2a, x2m = med(s, c, r2 + ":avg"), med(s, c, r2 + ":max")
            stock = c == "stock"
            out.append(f"| {c} | {n} | {a} | {'1' if stock else ratio(am, ba)} | {spread} | {mx} | "
                       f"{'1' if stock else ratio(mm, bm)} | {ms(x2a)} | {'1' if stock else ratio(x2a, b2a)} | {ms(x2m)} | "
                       f"{'1' if stock else ratio(x2m, b2m)} | {num(med(s, c, 'wall')):.1f} |")
        # per round, memcg view
        out += ["", "Per round (median over the reps; cg_* = deltas of the run's memcg memory.stat over the round; faults = "
                "the apps' own getrusage):", "",
                "| config | round | avg ms | max ms | majflt | minflt | cg pgscan | cg pgsteal | cg refault file | cg refault anon | cg pgrefill | cg pgactivate | cg pgdeactivate |",
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for c in cord:
            if not sess.n(s, c):
                continue
            for rd in range(1, int(nround) + 1):
                p = f"r{rd}:"
                out.append(f"| {c} | {rd} | {ms(med(s, c, p + 'avg'))} | {ms(med(s, c, p + 'max'))} | "
                           + " | ".join(count(med(s, c, p + k)) for k in ["majflt", "minflt"] + CG) + " |")

    # Vinayak Menon's table: /proc/vmstat + foliotune counters side by side,
    # then every pgscan_*, pgsteal_*, allocstall_* /proc/vmstat has, sorted
    rows = ROWS + ["vm:" + k for k in sorted(k for k in vmkey if re.match(r"^(pgscan|pgsteal|allocstall)_", k))] + MORE
    for s in sord:
        if not sess.n(s, "stock") and not sess.n(s, cord[0]):
            continue
        cols = [c for c in cord if sess.n(s, c)]
        out += ["", f"## {s}: /proc/vmstat and foliotune counters, as in the 2016 thread {TCG}", "",
                "Median over the reps of each counter's delta over the whole run (both rounds); (%) = vs stock. "
                "`foliotune:` rows are the module's counters (pgpgoutclean and pageref_* are the four debug counters of "
                "Vinayak Menon's report, counted by kprobes on the stock kernel). "
                + ("The pressure here is the memcg limit: 6.12 counts memcg limit reclaim in pgscan_anon/file and "
                   "pgsteal_anon/file but not in pgscan_/pgsteal_kswapd/direct, pgrefill or allocstall_* (mm/vmscan.c: "
                   "only if !cgroup_reclaim()), so those rows of his table stay 0 or absent; the memcg's own "
                   "pgscan/pgsteal/pgrefill are in the per-round table above. " if s in islaunch else "")
                + "pgscan_*/pgsteal_*/allocstall_* rows that never moved in this scenario are left out.",
                "",
                "| counter |" + "".join(f" {c} |" for c in cols),
                "|---|" + "---:|" * len(cols)]
        for key in rows:
            if re.match(r"^vm:(pgscan|pgsteal|allocstall)_", key) and (s, key) not in moved:
                continue
            nm = re.sub(r"^ft:", "foliotune: ", re.sub(r"^vm:", "", key))
            base0 = med(s, "stock", key)
            line, anyv = f"| {nm} |", False
            for c in cols:
                x = med(s, c, key)
                anyv = anyv or x is not None
                line += f" {count(x)}{'' if c == 'stock' else pctchg(x, base0)} |"
            if anyv:
                out.append(line)

    # seqread
    for s in sord:
        if s not in isseq:
            continue
        out += ["", f"## {s}: fault-around's own case, no memory pressure {TCG}", "",
                f"{sdesc.get(s, '')}: the file is read into the page cache with read(2) first, then per pattern passes of "
                "mmap + touch + munmap "
                + (f"for {m('seq_seconds')} s (at least {m('seq_passes')} passes), so that a tuner with a period of a "
                   "second acts and its steady state counts" if num(m("seq_seconds")) > 0 else f"{m('seq_passes')} times")
                + ". Per run, minor faults (getrusage), touched pages and time of the touch loops summed over the passes "
                "of a pattern; the metric is ns per touched page over the whole pattern run (the first periods of the auto "
                "modes, at the window they started from, included): min / median / max over the reps.",
                "",
                "| pattern | config | n | touched pages (med) | minflt (med) | minflt per touched page | ns per page (min / med / max) | ns per page vs stock |",
                "|---|---|---:|---:|---:|---:|---|---:|---:|"]
        for pt in pats:
            bns = med(s, "stock", f"p:{pt}:nspp")
            for c in cord:
                if not sess.n(s, c):
                    continue
                mf, tc = med(s, c, f"p:{pt}:minflt"), med(s, c, f"p:{pt}:touched")
                sn = stats(s, c, f"p:{pt}:nspp")
                nsv = "%.0f / **%.0f** / %.0f" % (num(sn["min"]), num(sn["med"]), num(sn["max"]))
                out.append(f"| {pt} | {c} | {sn['n']} | {count(tc)} | {count(mf)} | "
                           + ("%.3f" % (num(mf) / tc) if tc is not None and tc > 0 else "-")
                           + f" | {nsv} | {'1' if c == 'stock' else ratio(sn['med'], bns)} |")

    # spawn
    for s in sord:
        if s not in isspawn:
            continue
        out += ["", f"## {s}: the cost side, process creation {TCG}", "",
                f"{sdesc.get(s, '')}. {m('spawn_seconds')} s per run; the metric is wall ns per completed "
                "fork+exec+exit+wait: min / median / max over the reps. **TCG does not model what the hardware pays to "
                "set an accessed bit in a PTE** (on x86 a microcoded page walk per first touch of an old PTE): the "
                "emulator sets it in software at about the cost of any other store, so this table can show the cost of "
                "the extra faults and of the tuner, not the cost that made the 2016 patch regress. Run it on a real "
                "machine (`make bench-box` there) for that.",
                "",
                "| config | n | spawns (med) | ns per spawn (min / med / max) | vs stock | pgfault (med) | fa_pages_mapped_old (med) |",
                "|---|---:|---:|---|---|---:|---:|"]
        for c in cord:
            if not sess.n(s, c):
                continue
            sn = stats(s, c, "spawn_ns")
            nsv = "%.0f / **%.0f** / %.0f" % (num(sn["min"]), num(sn["med"]), num(sn["max"]))
            out.append(f"| {c} | {sn['n']} | {count(med(s, c, 'spawns'))} | {nsv} | "
                       f"{'1' if c == 'stock' else versus(s, c, 'stock', 'spawn_ns')} | {count(med(s, c, 'vm:pgfault'))} | "
                       f"{count(med(s, c, 'ft:fa_pages_mapped_old'))} |")

    # which configuration won, against the spread
    out += ["", "## Which configuration won " + TCG, "",
            "Per workload (lower is better): the configuration with the lowest median, against stock and against the "
            "runner-up. A difference is called one only when `foliotune analyze` shows it on the runs paired by rep "
            "(exact Wilcoxon signed-rank test, p < 0.05, and a 95% Hodges-Lehmann interval clear of 1): \"faster\" or "
            "\"slower\" with its p; otherwise its words say why not, and with fewer than 6 pairs no difference can be "
            "shown at p < 0.05 at all.",
            "",
            "| workload | winner | median | vs stock | vs runner-up (runner-up) |",
            "|---|---|---:|---|---|"]
    for s in sord:
        for name, key in workloads(s):
            win, winv, run, runv = "", None, "", None
            for c in cord:
                if not sess.n(s, c):
                    continue
                x = med(s, c, key)
                if x is None:
                    continue
                if winv is None or x < winv:
                    run, runv, win, winv = win, winv, c, x
                elif runv is None or x < runv:
                    run, runv = c, x
            if win == "":
                continue
            out.append(f"| {name} | {win} | {winv:.1f} | {'-' if win == 'stock' else versus(s, win, 'stock', key)} | "
                       + ("-" if run == "" else f"{versus(s, win, run, key)} ({run})") + " |")

    # the targets: near best, a tuner within 5% of the best static setting
    # on each workload; no regression, a tuner at most 2% worse than stock;
    # fewer faults, the mkold direction of Kirill Shutemov's patch (fewer
    # major faults and swap-ins than stock under pressure)
    out += ["", "## Targets " + TCG, "",
            "Workload metric: launch = median over the reps of the average launch time; seqread = median ns per touched "
            "page of the pattern; spawn = median ns per spawn. best static = the lowest of "
            f"{len(STATICS)} static (size, age) configurations (stock fa4k mkold1 mkold2). Targets: **near best**, a tuner "
            "within 5% of it; **no regression**, a tuner never more than 2% worse than stock (both on medians). A miss is "
            "\"not met\" only when the runs paired by rep show the tuner slower (`foliotune analyze`: exact Wilcoxon "
            "signed-rank test, p < 0.05, 95% Hodges-Lehmann interval clear of 1); otherwise \"not shown\": no difference "
            "these reps can show (\"N pairs\": with fewer than 6 pairs none can be shown at p < 0.05). **Fewer faults**: "
            "mkold1/mkold2 with fewer pgmajfault and pswpin than stock under pressure (medians of the run deltas).",
            "",
            "| workload | best static | best | auto | auto / best | near best | no regression | auto200 | auto200 / best | near best | no regression | autoage | autoage / best | near best | no regression |",
            "|---|---|---:|---:|---:|---|---|---:|---:|---|---|---:|---:|---|---|"]
    tally, lsum, ln, lper = {}, {}, {}, {}
    for s in sord:
        for name, key in workloads(s):
            best, bestc = None, ""
            for c in STATICS:
                if not sess.n(s, c):
                    continue
                x = med(s, c, key)
                if x is not None and (best is None or x < best):
                    best, bestc = x, c
            if best is None:
                continue
            line = f"| {name} | {bestc} | {best:.1f}"
            bstock = med(s, "stock", key) if sess.n(s, "stock") else None
            for ac in TUNERS:
                x = med(s, ac, key) if sess.n(s, ac) else None
                if x is None:
                    line += " | - | - | - | -"
                    continue
                vnear = target(s, ac, bestc, key, 1.05)
                vnoreg = "-" if bstock is None else target(s, ac, "stock", key, 1.02)
                for what, v in (("near", vnear), ("noreg", vnoreg)):
                    v = re.sub(r" \(.*", "", v)
                    tally[(ac, what, v)] = tally.get((ac, what, v), 0) + 1
                line += f" | {x:.1f} | {x / best:.2f} | {vnear} | {vnoreg}"
                if s in islaunch and bstock is not None and bstock > 0:
                    lsum[ac] = lsum.get(ac, 0) + math.log(x / bstock)
                    ln[ac] = ln.get(ac, 0) + 1
                    lper[ac] = lper.get(ac, "") + (", " if ac in lper else "") + f"{s} {x / bstock:.2f}"
            out.append(line + " |")
    out.append("")
    for ac in TUNERS:
        if not any(k[0] == ac for k in tally):
            continue

        def ty(what, v, ac=ac):
            return tally.get((ac, what, v), 0)
        line = (f"- **{ac}**: near best met {ty('near', 'met')}, not shown {ty('near', 'not shown')}, not met "
                f"{ty('near', 'not met')}; no regression met {ty('noreg', 'met')}, not shown {ty('noreg', 'not shown')}, "
                f"not met {ty('noreg', 'not met')}")
        if ln.get(ac):
            line += (f"; against stock over the {ln[ac]} pressure (launch) scenarios, geometric mean of the median ratios "
                     f"{math.exp(lsum[ac] / ln[ac]):.2f} ({lper[ac]})")
        out.append(line)
    out += ["", "| scenario | config | pgmajfault vs stock | pswpin vs stock | fewer faults (major faults and swap-ins) |",
            "|---|---|---:|---:|---|"]
    for s in sord:
        if s not in islaunch:
            continue
        bm, bs = med(s, "stock", "vm:pgmajfault"), med(s, "stock", "vm:pswpin")
        for c in STATICS[2:]:
            if not sess.n(s, c):
                continue
            x, w2 = med(s, c, "vm:pgmajfault"), med(s, c, "vm:pswpin")
            v = ("yes" if num(x) < num(bm) and (w2 == 0 if num(bs) == 0 else num(w2) < num(bs))
                 else "no (reversed)" if num(x) > num(bm) or num(w2) > num(bs) else "no change")
            out.append(f"| {s} | {c} | {count(x)} vs {count(bm)}{pctchg(x, bm)} | {count(w2)} vs {count(bs)}{pctchg(w2, bs)} | {v} |")

    # auto mode: the windows it chose
    hdr = False
    for s in sord:
        for ac in TUNERS:
            for t in sess.tags.get((s, ac), []):
                k = (s, ac, t)
                if k not in autoseq:
                    continue
                if not hdr:
                    out += ["", "## fault_around_auto: the windows it chose", "",
                            "fault_around_bytes sampled once a second during each auto run (consecutive repeats collapsed; "
                            "auto200 changes up to 5 times between samples: fa_auto_changes counts them all).",
                            "",
                            "| scenario | config | rep | samples (s) | fault_around_bytes over time | fa_auto_changes |",
                            "|---|---|---:|---:|---|---:|"]
                    hdr = True
                ch = val.get(k + ("ft:fa_auto_changes",))
                out.append(f"| {s} | {ac} | {t} | {autosecs[k]} | {autoseq[k]} | {count(None if ch is None else num(ch))} |")

    out += ["", "## Exact commands", "", f"Host: `{m('command')}` at commit `{m('commit')}`. In the guest, per run:", ""]
    for s in sord:
        for c in cord:
            if (s, c) in cmd:
                out.append(f"- {s}.{c}: `userspace/foliotune record -l {s}.{c}{sets.get((s, c), '')} -o raw/{s}.{c}.REP.rec -- {cmd[(s, c)]}`")
    for s in sord:
        if s in lconfig:
            out += ["", f"ft_applaunch reported: `{lconfig[s]}` (wset_file_pages: file pages the apps touch, summed over the apps)"]
            break
    return out


if __name__ == "__main__":
    sys.exit(S.main(build))
