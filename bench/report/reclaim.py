#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""reclaim.py [--beside DIR2] DIR - turn the raw files of bench/reclaim.sh
(DIR/raw/ or DIR/raw.tar.xz) into DIR/results.md, and print it; with a
session of the same benchmark on another kernel beside it (--beside, or
the "beside" line reclaim.sh wrote from BENCH_BESIDE), the arms of the two
side by side.  Python 3 standard library, tar and the foliotune CLI (its
analyze command).

Raw files (written by reclaim-guest.sh):
  RUN.CONFIG.REP.rec   `foliotune record` file: wall time, exit status,
                       command, knobs, counter deltas
  RUN.CONFIG.REP.out   the benchmark's own output (reclaim_seconds,
                       "# orders: ORDER:FOLIOS ..." from -R), and
                       lru_gen_before/lru_gen_after: lru_gen/enabled
                       read around the run
  RUN.trace-CONFIG.REP.bt  bpftrace maps of the trace phase:
                       @ref_{calls,ns,max_ns}[ORDER] (folio_referenced_one),
                       @unmap_{calls,ns,max_ns}[ORDER] (try_to_unmap_one)
  RUN.look-stock.REP.bt   the same and @look_*[YOUNG] (lru_gen_look_around)
  host-meta.txt, guest-meta.txt  "key value" lines
  note.txt (optional, written by hand): shown at the top of results.md
RUN: WORKLOAD-MB-LRU (file2m-1024-classic); CONFIG: a configuration of the
two knobs (bench/reclaim-arms.sh), whose arms the report takes
from each run's record: 0 the kernel's own code, 1 foliotune's batching, 2
one PTE at a time; stock (0 0) is the anchor.  REP "warmup" runs are
ignored.

Verdicts: speedup = median(stock) / median(CONFIG) of reclaim_seconds;
per-rep = min..max of CONFIG/stock within each rep (the runs of one rep
are neighbours in time); paired test = foliotune analyze on those pairs
(exact Wilcoxon signed-rank, 95% Hodges-Lehmann; bench/README.md,
"Statistics"): faster or slower at p < 0.05, else no difference shown.
Premise: every run's counters show the arm of each walk its knobs chose.
"""
import os
import re
import sys

import session as S
from session import fmt, num

# the configurations of the sessions before the configurations were recorded
OLD_CONFIGS = ["stock", "unmap", "refs", "both"]
ARM = {0: "the kernel's own code", 1: "foliotune's batching", 2: "one PTE at a time"}
# the rows of the side-by-side table: walk, arm, (unmap_batch, referenced_batch)
SIDE = [("both walks", 0, (0, 0)), ("both walks", 2, (2, 2)), ("both walks", 1, (1, 1)),
        ("try_to_unmap_one", 2, (2, 0)), ("try_to_unmap_one", 1, (1, 0)),
        ("folio_referenced_one", 2, (0, 2)), ("folio_referenced_one", 1, (0, 1))]
NUMBER = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}


def lru_of(s):
    return s.split("-")[-1]


def wl_of(s):
    return re.sub(r"-[a-z]+$", "", s)


def big(x):
    if x is None:
        return "-"
    return "%.0f" % x if x >= 100 or x == int(x) else "%.1f" % x


def cnt(r, name):
    return num(r.ft(name))


class Reclaim:
    """One session of the reclaim benchmark: its runs read, its order, the
    arms of its configurations, and (after stats()) their statistics."""

    def __init__(self, sess):
        self.sess = sess
        self.lrugen_walk = False
        self.wcmd, self.omix = {}, {}
        self.bt, self.btord, self.hastrace = {}, set(), set()
        self.arms = {}
        for r, _ in sess.records():
            if r.has_module() and r.ft("referenced_lru_gen_batches") != "":
                self.lrugen_walk = True
            if "command" in r.rec and wl_of(r.s) not in self.wcmd:
                self.wcmd[wl_of(r.s)] = r.rec["command"]
            c = re.sub(r"^(trace|look)-", "", r.c)
            u, rf = r.knobs.get("unmap_batch"), r.knobs.get("referenced_batch")
            if c not in self.arms and u is not None and rf is not None:
                self.arms[c] = (int(num(u)), int(num(rf)))
        for r, path in sess.files("out"):
            for line in S.read_lines(path):
                w = S.words(line)
                if w and w[0] in ("lru_gen_before", "lru_gen_after"):
                    lru = lru_of(r.s)
                    v = w[1] if len(w) > 1 else ""
                    r.val["seenlru"] = True
                    if (lru == "classic" and v != "0x0000") or (lru == "mglru" and v in ("0x0000", "")):
                        r.val["lru_bad"] = f"lru_gen/enabled {v} {w[0][8:]} the run"
                elif w and w[0] == "record_exit" and (w[1] if len(w) > 1 else "") != "0":
                    r.val["notok"] = "foliotune record exit " + (w[1] if len(w) > 1 else "")
                else:
                    k = S.out_line(r, w, line)
                    if k is not None and k not in self.omix.setdefault(wl_of(r.s), []):
                        self.omix[wl_of(r.s)].append(k)
        for r, path in sess.files("bt"):
            # @ref_calls[9]: 13; @look_calls[1]: 40 (lru_gen_look_around, keyed by its result)
            md = re.sub(r"^trace-", "", r.c)
            for line in S.read_lines(path):
                m = S.bt_line(S.words(line))
                if not m or not re.match(r"^(ref|unmap|look)_(calls|ns|max_ns)$", m[0]):
                    continue
                f, name = m[0].split("_", 1)
                key = (r.s, f, md, m[1], name)
                if name == "max_ns":
                    if num(m[2]) > self.bt.get(key, 0):
                        self.bt[key] = num(m[2])
                else:
                    self.bt[key] = self.bt.get(key, 0) + num(m[2])
                self.btord.add((r.s, f, m[1]))
                self.hastrace.add(r.s)
        m = sess.m
        # run order: the workloads and LRU modes as the guest ran them
        wls = (m("workloads") + " " + m("trace_workloads")).split()
        self.workloads = list(dict.fromkeys(w.replace(":", "-", 1) for w in wls))
        lst = [f"{w}-{lru}" for w in self.workloads for lru in m("lru_modes").split()]
        self.order = lst + [s for s in sess.scens if s not in lst]
        self.configs = m("configs").split() or OLD_CONFIGS
        self.configs += [c for c in sess.confs if c not in self.configs and not re.match("(trace|look)-", c)]
        # a module whose knobs pick one of three arms counts each arm's calls
        self.newmod = any(r.ft("unmap_calls_kernel") != "" for r in sess.runs.values())
        # Linux 7's own code batches both walks; 6.12's goes one PTE at a time
        self.k7 = num(m("guest_kernel")) >= 7
        self.st = None

    def metric(self, s, c, t):
        r = self.sess.run(s, c, t)
        return r.val.get("metric") if r is not None else None

    def stats(self, st):
        """Every configuration's runs, and the pairs CONFIG/stock by rep,
        through foliotune analyze."""
        for s in self.order:
            for c in self.configs:
                for r in self.sess.of(s, c):
                    if "metric" in r.val:
                        st.sample(f"{s}|{c}", r.val["metric"])
            for c in self.configs[1:]:
                for t in self.sess.tags.get((s, c), []):
                    a1, a2 = self.metric(s, "stock", t), self.metric(s, c, t)
                    if a1 is None or a2 is None or num(a1) == 0:
                        continue
                    st.sample(f"ratio|{s}|{c}", num(a2) / num(a1))
                    st.pair(f"{s}|stock|{c}", a1, a2)
        st.run()
        self.st = st

    def versus(self, s, c):
        """c against stock in run s: speedup, per-rep range, paired test."""
        st = self.st
        smed, sm = st.med(f"{s}|stock"), st.get(f"{s}|{c}")
        sp = pr = pt = "-"
        if c != "stock" and smed is not None and sm["n"] and sm["med"] > 0:
            sp = "%.2fx" % (smed / sm["med"])
            pt = S.paired_words(st.pv(f"{s}|stock|{c}"), c, "lower")
            rs = st.get(f"ratio|{s}|{c}")
            if rs["n"]:
                pr = f"{fmt(rs['min'])}..{fmt(rs['max'])} ({rs['n']})"
        return sp, pr, pt

    def config_of(self, arms):
        """The configuration with these arms, else None."""
        return next((c for c in self.configs if self.arms.get(c) == arms), None)

    def ns_per_call(self, s, f, c, o):
        n = self.bt.get((s, f, c, str(o), "calls"), 0)
        return self.bt.get((s, f, c, str(o), "ns"), 0) / n if n else None

    # ---- premise: the counters show the arm each knob chose ----

    def premise_old(self, r):
        """A module whose knobs were on or off (before the three arms):
        "" when run r shows the path its configuration and LRU mode must
        take, else what is missing."""
        lru, miss = lru_of(r.s), []
        u, rf = (a == 1 for a in self.arms.get(re.sub(r"^trace-", "", r.c), (0, 0)))
        # with the knob at 0 the reason counted is "off" in either LRU mode
        # (module/referenced.c: the first match of mlock, hugetlb, small,
        # off, lru_gen, partial)
        if not rf and cnt(r, "referenced_nobatch_off") == 0:
            miss.append("referenced_nobatch_off 0")
        if rf and lru == "classic" and cnt(r, "referenced_batches") == 0:
            miss.append("referenced_batches 0")
        # a module with the batched MGLRU walk counts its runs in
        # referenced_lru_gen_batches; an older one kept MGLRU per PTE
        if rf and lru == "mglru" and r.ft("referenced_lru_gen_batches") != "":
            if cnt(r, "referenced_lru_gen_batches") == 0:
                miss.append("referenced_lru_gen_batches 0")
        elif rf and lru == "mglru":
            if cnt(r, "referenced_nobatch_lru_gen") == 0:
                miss.append("referenced_nobatch_lru_gen 0")
            if cnt(r, "referenced_batches") != 0:
                miss.append(f"referenced_batches {r.ft('referenced_batches')} under MGLRU")
        if u and cnt(r, "unmap_batches") == 0:
            miss.append("unmap_batches 0")
        if not u and cnt(r, "unmap_nobatch_off") == 0:
            miss.append("unmap_nobatch_off 0")
        if not u and cnt(r, "unmap_batches") != 0:
            miss.append(f"unmap_batches {r.ft('unmap_batches')} with unmap_batch=0")
        if not rf and cnt(r, "referenced_batches") != 0:
            miss.append("referenced_batches with referenced_batch=0")
        return miss

    def premise_walk(self, r, walk, arm):
        """What run r's counters lack to show ARM of WALK ("unmap" or
        "referenced"), as a list: its calls counted for that arm (and no
        other), its batches counted by the arm that made them (the
        kernel's on Linux 7; none on 6.12, whose own code goes one PTE at
        a time), and PTEs done singly for the knob in the per-PTE arms."""
        miss = []

        def need(name, want):
            x = cnt(r, name)
            if want and x == 0:
                miss.append(f"{name} 0")
            elif not want and x != 0:
                miss.append(f"{name} {r.ft(name)} with {walk}_batch={arm}")
        need(f"{walk}_calls_kernel", arm == 0)
        need(f"{walk}_calls_pte", arm == 2)
        need(f"{walk}_batches", arm == 1)
        need(f"{walk}_kernel_batches", arm == 0 and self.k7)
        if arm == 2 or (arm == 0 and not self.k7):
            need(f"{walk}_nobatch_off", True)
        if walk == "referenced" and lru_of(r.s) == "mglru":
            # MGLRU's runs call the look-around: at their young PTEs
            # (foliotune's), or once per run (the kernel's, Linux 7)
            if arm == 1:
                need("referenced_lru_gen_batches", True)
            elif arm == 0 and self.k7:
                need("referenced_kernel_lru_gen_batches", True)
        return miss

    def premise(self, r):
        """(all, unmap, referenced): "" where run r shows its arms, else
        what is missing."""
        if not r.has_module():
            return ("no foliotune counters",) * 3
        if not self.newmod:
            miss = self.premise_old(r)
            if "lru_bad" in r.val:
                miss.append(r.val["lru_bad"])
            return ("; ".join(miss),) * 3
        u, rf = self.arms.get(re.sub(r"^trace-", "", r.c), (None, None))
        mu = self.premise_walk(r, "unmap", u)
        mr = self.premise_walk(r, "referenced", rf)
        bad = [r.val["lru_bad"]] if "lru_bad" in r.val else []
        return "; ".join(mu + mr + bad), "; ".join(mu + bad), "; ".join(mr + bad)


def load_beside(path):
    """The session beside this one, read and its statistics run; None
    and why when it cannot be."""
    p = path if os.path.isabs(path) else os.path.join(S.TOP, path)
    try:
        sess = S.Session(p)
    except S.ReportError as e:
        return None, str(e)
    rc = Reclaim(sess)
    rc.stats(S.Stats(S.foliotune()))
    rc.label = path
    return rc, ""


def build(sess, st, beside=None):
    rc = Reclaim(sess)
    rc.stats(st)
    m = sess.m
    configs, order = rc.configs, rc.order
    conf_text = ", ".join(f"{c} ({'unmap_batch=%d referenced_batch=%d' if i == 0 else '%d %d'})"
                          % rc.arms.get(c, (0, 0)) for i, c in enumerate(configs) if c in rc.arms)
    out = sess.head("unmap_batch x referenced_batch, classic LRU and MGLRU", sess.note())
    out.append(f"- guest: kernel {m('guest_kernel')}, {m('guest_cpus')} vCPUs, MemTotal {int(num(m('guest_mem_kb')) / 1024)} MiB, "
               f"read_ahead_kb {m('read_ahead_kb')}, THP enabled `{m('thp_enabled')}`, lru_gen at boot {m('lru_gen')} "
               f"(restored at the end: {m('lru_gen_restored') or 'not recorded'}), swap {m('swap')}")
    out.append(f"- parameters: BENCH_REPS={m('reps')}, workloads (NAME:MB) {m('workloads')}, LRU modes {m('lru_modes')}, "
               f"trace phase: {m('trace_reps')} rep(s) of {m('trace_workloads') or 'nothing'}, warm-up {m('warmup')}")
    out.append(f"- host load average before/after: {m('host_loadavg_before')} / {m('host_loadavg_after')}; guest run time "
               f"{m('guest_seconds')} s (timed {m('timed_phase_seconds')} s, bpftrace {m('trace_phase_seconds')} s; "
               f"estimated {m('estimate_seconds')} s in all); test box exit status {m('vmrun_exit')}")
    out.append(f"- method: one boot; configurations {conf_text}, every run with reclaim_probes=0; per rep, per LRU mode "
               "(lru_gen/enabled written and read back; the first mode alternates by rep) and workload, the "
               f"{NUMBER.get(len(configs), len(configs))} configurations, odd reps in the order {' '.join(configs)}, even "
               "reps reversed; caches dropped and memory compacted before every run; every run wrapped in `foliotune "
               "record -l RUN.CONFIG -s unmap_batch=U -s referenced_batch=R -s reclaim_probes=0 -o raw/RUN.CONFIG.REP.rec "
               "-- CMD` (counter deltas in raw/)")
    if rc.newmod:
        out.append("- arms (the knobs' values): 0 the kernel's own code ("
                   + ("Linux 7: upstream's batching of both walks" if rc.k7 else "6.12: one PTE at a time")
                   + "), 1 foliotune's batching, 2 one PTE at a time (docs/batching.md, \"The arms\")")
    sess.common_warnings("with {n} pairs", "the paired tests below say so",
                         "(see raw/console.log; 252 = the console gate; BENCH_KERNEL_ARGS=watchdog_thresh=60 on a loaded host)")
    if m("trace_warning"):
        sess.warn(m("trace_warning"))
    if m("trace_error"):
        sess.warn("trace phase: " + m("trace_error"))
    if m("lru_gen_restored") == "" and m("guest_seconds") != "":
        sess.warn("the guest did not record restoring lru_gen/enabled")
    beside = beside if beside is not None else m("beside")
    other, why = load_beside(beside) if beside else (None, "")
    if beside and other is None:
        sess.warn(f"the session beside this one, {beside}, cannot be read: {why}")

    # per-run sanity and premise checks -> warnings, ok[] per s.c and walk
    ok = {}
    for s in order:
        for c in configs + ["trace-" + c for c in configs]:
            nbad, why = [0, 0, 0], ["", "", ""]

            def check(r):
                if "seenlru" not in r.val:
                    r.val["lru_bad"] = "lru_gen/enabled not recorded"
                for i, p in enumerate(rc.premise(r)):
                    if p:
                        nbad[i] += 1
                        why[i] = why[i] or p
            S.run_checks(sess, sess.of(s, c), "no reclaim_seconds in the output", check)
            n = sess.n(s, c)
            if not n:
                continue
            for i in range(3):
                ok[(s, c, i)] = f"**FAIL** {nbad[i]} of {n} runs: {why[i]}" if nbad[i] else "ok"
            if nbad[0]:
                sess.warn(f"premise: {s}.{c}: {nbad[0]} of {n} runs do not show their path: {why[0]}")
        S.outliers(sess, st, s, configs, lambda r, sm: (
            f"{r.id}: reclaim s {r.val['metric']} against a median of {fmt(sm['med'])} over {sm['n']} runs: "
            "an outlier (host stall?)"))
    out += sess.warnings_section()

    TCG = sess.TCG
    out += ["", "## Reclaim time per configuration " + TCG, "",
            "reclaim s = the memory.reclaim write of 80% of the file (ft_reclaim_bench's reclaim_seconds); median and "
            "min..max over the reps. speedup = median(stock) / median(config); per-rep = min..max of config/stock time "
            "within each rep (the runs of a rep are neighbours in time); paired test = `foliotune analyze` on those pairs "
            "(exact Wilcoxon signed-rank test, 95% Hodges-Lehmann interval): faster or slower at p < 0.05, else no "
            "difference these runs can show (with fewer than 6 pairs none can be). premise: every run of the row took its "
            "configuration's path in its LRU mode (" + ("the tables \"Paths taken\" below" if rc.newmod else "next table")
            + ")."]
    lastw = None
    for s in order:
        if not sess.n(s, "stock") and not sess.n(s, "both"):
            continue
        if wl_of(s) != lastw:
            out += ["", "### " + wl_of(s), "",
                    "| LRU | config | n | median reclaim s | min..max | speedup vs stock | per-rep config/stock | paired test | premise |",
                    "|---|---|---:|---:|---|---:|---|---|---|"]
            lastw = wl_of(s)
        for c in configs:
            sm = st.get(f"{s}|{c}")
            if not sm["n"]:
                continue
            sp, pr, pt = rc.versus(s, c)
            out.append(f"| {lru_of(s)} | {c} | {sm['n']} | {fmt(sm['med'])} | {fmt(sm['min'])}..{fmt(sm['max'])} | {sp} | "
                       f"{pr} | {pt} | {ok.get((s, c, 0), '-')} |")

    if any(a[0] == 2 or a[1] == 2 for a in rc.arms.values()) or other is not None:
        out += side_by_side(rc, other, TCG)
    out += paths_taken(rc, ok, TCG)
    out += traces(rc, TCG)

    out += ["", "## Workloads and exact commands", "",
            "Each run: `userspace/foliotune record -l RUN.CONFIG -s unmap_batch=U -s referenced_batch=R -s "
            "reclaim_probes=0 -o raw/RUN.CONFIG.REP.rec -- COMMAND`; the trace runs the same (labels RUN.trace-CONFIG) "
            "under one `bpftrace -B none raw/reclaim-time.bt > raw/trace-all.bt` session, each run announced by a marker "
            "syscall (raw/trace-phases.txt).",
            "",
            "- **file2m-MB**: memcg memory.reclaim of 80% of a clean xfs file of MB MiB, MADV_HUGEPAGE (2 MiB folios), "
            "2 MiB-aligned but PTE-mapped (PR_SET_THP_DISABLE forbids the PMD mapping): every folio is one run of 512 PTEs.",
            "- **filera-MB**: the same with default readahead folios (mixed orders), no MADV_HUGEPAGE: Baolin Wang's workload.",
            ""]
    out += [f"- {w}: `{rc.wcmd[w]}`" for w in rc.workloads if w in rc.wcmd]
    if other is not None:
        other.sess.close()
    return out


def side_by_side(rc, other, TCG):
    """The arms of each walk against the kernel's own code, this session's
    and, beside it, another kernel's."""
    kern = rc.sess.m("guest_kernel")
    cols = [(rc, kern)] + ([(other, other.sess.m("guest_kernel"))] if other is not None else [])
    out = ["", "## The arms of each walk, side by side " + TCG, "",
           "Per walk, its arms against the kernel's own code in both walks (stock), the other walk's arm the kernel's "
           "own: reclaim s (median), vs stock = median(stock) / median(config) and the paired test of the same boot, as "
           "above; us per 2 MiB folio = time inside try_to_unmap_one and folio_referenced_one per order-9 call in that "
           "configuration's trace runs (next sections; probes included). "
           + ("Beside it the same benchmark on " + cols[1][1] + " (" + other.label + "): two boots on two kernels, so "
              "compare the ratios, not the seconds across them. " if other is not None else "")
           + "On 6.12 the kernel's own code is one PTE at a time: a configuration with one PTE at a time that a 6.12 "
           "session did not run is stock (= stock)."]
    for w in rc.workloads:
        for lru in rc.sess.m("lru_modes").split():
            s = f"{w}-{lru}"
            if not rc.sess.n(s, "stock"):
                continue
            head = "| walk | arm | config |"
            sep = "|---|---|---|"
            for _, k in cols:
                head += f" {k}: reclaim s | vs stock | paired test | us per 2 MiB folio, unmap / ref |"
                sep += "---:|---:|---|---:|"
            out += ["", f"### {w}, {'classic LRU' if lru == 'classic' else 'MGLRU'}", "", head, sep]
            for walk, arm, arms in SIDE:
                line = None
                for x, _ in cols:
                    c = x.config_of(arms)
                    if line is None:
                        line = f"| {walk} | {ARM[arm]} | {c or '-'} |"
                    sm = x.st.get(f"{s}|{c}") if c else {"n": 0}
                    if not sm["n"] and not x.k7 and 2 in arms and x.st.get(f"{s}|stock")["n"]:
                        line += " = stock | - | - | - |"
                    elif not sm["n"]:
                        line += " - | - | - | - |"
                    else:
                        sp, _, pt = x.versus(s, c)
                        us = [x.ns_per_call(s, f, c, 9) for f in ("unmap", "ref")]
                        line += (f" {fmt(sm['med'])} | {sp} | {pt} | "
                                 + " / ".join("-" if v is None else "%.1f" % (v / 1000) for v in us) + " |")
                out.append(line)
    return out


def paths_taken(rc, ok, TCG):
    """The counters per run and configuration, and the premise each shows."""
    sess, order, configs = rc.sess, rc.order, rc.configs

    def cmean(s, c, name):
        runs = sess.of(s, c)
        return sum(cnt(r, name) for r in runs) / len(runs) if runs else None

    def table(title, text, cols, names, which):
        t = ["", title + " " + TCG, "", text, "",
             "| run | config | " + " | ".join(cols) + " | premise |", "|---|---|" + "---:|" * len(cols) + "---|"]
        for s in order:
            for c in configs:
                if sess.n(s, c):
                    t.append(f"| {s} | {c} | " + " | ".join(big(cmean(s, c, k)) for k in names)
                             + f" | {ok.get((s, c, which), '')} |")
        return t

    if not rc.newmod:
        out = table("## Paths taken: counters per run (mean over the timed runs)",
                    "What each configuration must show (premise, checked per run; a miss is a warning above and FAIL in "
                    "the tables): stock and unmap test large-folio PTEs one by one for the knob (referenced_nobatch_off > "
                    "0) in either LRU mode; refs and both "
                    + ("batch reference checks under the classic LRU (referenced_batches > 0) and under MGLRU, whose runs "
                       "call the look-around at their young PTEs (referenced_lru_gen_batches > 0); " if rc.lrugen_walk else
                       "batch reference checks under the classic LRU (referenced_batches > 0) and not under MGLRU, which "
                       "keeps the per-PTE look-around (referenced_nobatch_lru_gen > 0, referenced_batches 0); ")
                    + "unmap and both batch the unmap (unmap_batches > 0), stock and refs do not (unmap_nobatch_off > 0); "
                    "lru_gen/enabled read 0x0000 (classic) or not (MGLRU) before and after every run. ref o9 / unmap o9: "
                    "referenced_batch_order9 / unmap_batch_order9 (runs of 512 PTEs).",
                    ["ref calls", "ref batches", "ref batched PTEs", "ref o9", "ref nobatch_off", "ref nobatch_lru_gen",
                     "unmap batches", "unmap o9", "unmap nobatch_off"],
                    ["referenced_calls", "referenced_batches", "referenced_batched_ptes", "referenced_batch_order9",
                     "referenced_nobatch_off", "referenced_nobatch_lru_gen", "unmap_batches", "unmap_batch_order9",
                     "unmap_nobatch_off"], 0)
    else:
        arms = ("the kernel's own code (0) counts its calls in *_calls_kernel and, "
                + ("on Linux 7, its runs in *_kernel_batches (under MGLRU the reference walk's in "
                   "referenced_kernel_lru_gen_batches); " if rc.k7 else "on 6.12, its PTEs one by one in *_nobatch_off; ")
                + "foliotune's batching (1) its runs in *_batches (under MGLRU the reference walk's in "
                "referenced_lru_gen_batches), one PTE at a time (2) its calls in *_calls_pte and its PTEs in *_nobatch_off; "
                "and no arm moves another's counters")
        text = ("What each run must show for the arm its knob chose (premise, checked per run; a miss is a warning above "
                "and FAIL in the tables): " + arms + "; lru_gen/enabled read 0x0000 (classic) or not (MGLRU) before and "
                "after every run. o9: runs of 512 PTEs (*_batch_order9).")
        out = table("## Paths taken in try_to_unmap_one: counters per run (mean over the timed runs)", text,
                    ["calls", "calls kernel", "calls pte", "batches", "o9", "kernel batches", "kernel o9", "nobatch_off"],
                    ["unmap_calls", "unmap_calls_kernel", "unmap_calls_pte", "unmap_batches", "unmap_batch_order9",
                     "unmap_kernel_batches", "unmap_kernel_batch_order9", "unmap_nobatch_off"], 1)
        out += table("## Paths taken in folio_referenced_one: counters per run (mean over the timed runs)",
                     "The same for the reference walk; lru_gen batches: runs under MGLRU (foliotune's / the kernel's).",
                     ["calls", "calls kernel", "calls pte", "batches", "o9", "kernel batches", "kernel o9", "nobatch_off",
                      "lru_gen batches", "kernel lru_gen batches"],
                     ["referenced_calls", "referenced_calls_kernel", "referenced_calls_pte", "referenced_batches",
                      "referenced_batch_order9", "referenced_kernel_batches", "referenced_kernel_batch_order9",
                      "referenced_nobatch_off", "referenced_lru_gen_batches", "referenced_kernel_lru_gen_batches"], 2)
    out += ["", "Folio orders mapped before reclaim (-R: ORDER:FOLIOS, distinct mixes over the runs separated by /):", ""]
    out += [f"- {w}: {' / '.join(rc.omix[w])}" for w in rc.workloads if w in rc.omix]
    return out


def traces(rc, TCG):
    """The bpftrace sections: ns per call, share of the reclaim time,
    MGLRU's look-around."""
    sess, order, configs, bt, m = rc.sess, rc.order, rc.configs, rc.bt, rc.sess.m
    out, hdr, o9 = [], False, {}
    for s in order:
        if s not in rc.hastrace:
            continue
        if not hdr:
            out += ["", "## Time inside the two replacements per call " + TCG, "",
                    "bpftrace, `kprobe:` + `kretprobe:` on `foliotune_folio_referenced_one` (ref) and "
                    "`foliotune_try_to_unmap_one` (unmap), the module's replacements (the livepatched originals never "
                    f"run), in trace runs apart from the timed ones ({m('trace_reps')} per run and configuration), keyed "
                    "by the order of the folio passed in (arg0). One call = one folio in one VMA: order 9 is one 2 MiB "
                    "folio. ns/call per configuration; knob/off = the configuration with only that function's knob on "
                    "over stock (ref: refs/stock, unmap: unmap/stock); both/stock likewise. Includes the probes' own "
                    "cost, the same in every configuration.",
                    "",
                    "| run | function | folio order | calls (stock) | " + " | ".join(f"{c} ns/call" for c in configs)
                    + " | knob/off | both/stock |",
                    "|---|---|---:|---:|" + "---:|" * len(configs) + "---:|---:|"]
            hdr = True
        for f in ("ref", "unmap"):
            for o in range(16):
                if (s, f, str(o)) not in rc.btord:
                    continue
                v = {c: rc.ns_per_call(s, f, c, o) for c in configs}
                on = "refs" if f == "ref" else "unmap"

                def rel(a):
                    return ("%.3f" % (v[a] / v["stock"]) if v.get("stock") is not None and v.get(a) is not None
                            and v["stock"] > 0 else "-")
                out.append(f"| {s} | {f} | {o} | {S.fmt_awk(bt.get((s, f, 'stock', str(o), 'calls'), 0))} | "
                           + " | ".join("-" if v[c] is None else "%.0f" % v[c] for c in configs)
                           + f" | {rel(on)} | {rel('both')} |")
                if o == 9 and rel(on) != "-":
                    o9[(s, f)] = v[on] / v["stock"]
    if not hdr and m("trace_error"):
        out += ["", "No bpftrace data: " + m("trace_error")]

    if hdr:
        out += ["", "## Share of the reclaim time inside each replacement " + TCG, "",
                "share = the time a trace run spent inside the function (all calls, all orders; table above) / that run's "
                "reclaim s (the memory.reclaim write; above 100% only if other tasks, e.g. kswapd, reclaimed too); summed "
                "over the trace reps. order-9 knob/off: the order-9 ns/call ratio of the table above (1.000 = no gain per "
                "2 MiB folio).",
                "",
                "| run | config | reclaim s (trace runs) | in ref | share ref | in unmap | share unmap | order-9 knob/off ref, unmap |",
                "|---|---|---:|---:|---:|---:|---:|---|"]
        for s in order:
            if s not in rc.hastrace:
                continue
            for c in configs:
                tb = sum(num(r.val.get("metric")) for r in sess.of(s, "trace-" + c))
                rn = sum(bt.get((s, "ref", c, str(o), "ns"), 0) for o in range(16))
                un = sum(bt.get((s, "unmap", c, str(o), "ns"), 0) for o in range(16))
                if tb == 0 and rn == 0 and un == 0:
                    continue

                def share(x):
                    return "%.1f%%" % (100 * x / (tb * 1e9)) if tb > 0 else "-"
                out.append(f"| {s} | {c} | {fmt(tb)} | {fmt(rn / 1e9)} s | {share(rn)} | {fmt(un / 1e9)} s | {share(un)} | "
                           + ", ".join("%.3f" % o9[(s, f)] if (s, f) in o9 else "-" for f in ("ref", "unmap")) + " |")

    lhdr = False
    for s in order:
        if s not in rc.hastrace:
            continue
        for c in ["look-" + c for c in configs]:
            # a map without a key prints as nothing, a key with no calls 0
            l1, l0 = bt.get((s, "look", c, "1", "calls"), ""), bt.get((s, "look", c, "0", "calls"), "")
            if num(l1) + num(l0) == 0:
                continue
            if not lhdr:
                out += ["", "## MGLRU: lru_gen_look_around() inside the reference walk " + TCG, "",
                        "The kernel's own `lru_gen_look_around()`, which "
                        + ("the kernel's own reference walk calls once per run of PTEs under MGLRU on Linux 7 "
                           if rc.k7 else "the replacement calls for every PTE under MGLRU ")
                        + "(bpftrace kprobe + kretprobe in a session of its own, the look runs: their probes fire once per "
                        + ("call" if rc.k7 else "PTE")
                        + ", so their reference times are not those of the table above): calls that found the PTE young "
                        "and looked at up to 64 neighbours (young), calls that found it old and returned at once (old), "
                        "and the share of the reference walk's time inside them. The rest of the walk, per PTE, is what "
                        "a batched MGLRU walk could save.",
                        "",
                        "| run | config | ref calls | look-arounds young | ns/call young | look-arounds old | ns/call old | in look-around | in ref | share of ref |",
                        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
                lhdr = True
            rn = sum(bt.get((s, "ref", c, str(o), "ns"), 0) for o in range(16))
            rcalls = sum(bt.get((s, "ref", c, str(o), "calls"), 0) for o in range(16))
            ln = bt.get((s, "look", c, "1", "ns"), 0) + bt.get((s, "look", c, "0", "ns"), 0)
            out.append(f"| {s} | {c} | {S.fmt_awk(rcalls)} | {S.fmt_awk(l1)} | "
                       + ("%.0f" % (bt.get((s, "look", c, "1", "ns"), 0) / l1) if l1 else "-")
                       + f" | {S.fmt_awk(l0)} | "
                       + ("%.0f" % (bt.get((s, "look", c, "0", "ns"), 0) / l0) if l0 else "-")
                       + f" | {fmt(ln / 1e9)} s | {fmt(rn / 1e9)} s | "
                       + ("%.1f%%" % (100 * ln / rn) if rn > 0 else "-") + " |")
    return out


def main(argv):
    beside = None
    if len(argv) > 2 and argv[1] == "--beside":
        beside = argv[2]
        argv = argv[:1] + argv[3:]
    return S.main(lambda sess, st: build(sess, st, beside), argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
