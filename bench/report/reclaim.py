#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""reclaim.py DIR - turn the raw files of bench/reclaim.sh (DIR/raw/ or
DIR/raw.tar.xz) into DIR/results.md, and print it.  Python 3 standard
library, tar and the foliotune CLI (its analyze command).

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
  host-meta.txt, guest-meta.txt  "key value" lines
  note.txt (optional, written by hand): shown at the top of results.md
RUN: WORKLOAD-MB-LRU (file2m-1024-classic); CONFIG: stock (unmap_batch=0
referenced_batch=0), unmap (1 0), refs (0 1), both (1 1); REP "warmup"
runs are ignored.

Verdicts: speedup = median(stock) / median(CONFIG) of reclaim_seconds;
per-rep = min..max of CONFIG/stock within each rep (the runs of one rep
are neighbours in time); paired test = foliotune analyze on those pairs
(exact Wilcoxon signed-rank, 95% Hodges-Lehmann; bench/README.md,
"Statistics"): faster or slower at p < 0.05, else no difference shown.
"""
import re
import sys

import session as S
from session import fmt, num

CONFIGS = ["stock", "unmap", "refs", "both"]


def lru_of(s):
    return s.split("-")[-1]


def wl_of(s):
    return re.sub(r"-[a-z]+$", "", s)


def knob(c, k):
    """unmap_batch (k "u") or referenced_batch ("r") of configuration c."""
    c = re.sub(r"^trace-", "", c)
    if k == "u":
        return 1 if c in ("unmap", "both") else 0
    return 1 if c in ("refs", "both") else 0


def big(x):
    if x is None:
        return "-"
    return "%.0f" % x if x >= 100 or x == int(x) else "%.1f" % x


def build(sess, st):
    hasmod, lrugen_walk = set(), False
    wcmd, omix = {}, {}
    bt, btord, hastrace = {}, set(), set()
    for r, _ in sess.records():
        if r.has_module() and r.ft("referenced_lru_gen_batches") != "":
            lrugen_walk = True
        if "command" in r.rec and wl_of(r.s) not in wcmd:
            wcmd[wl_of(r.s)] = r.rec["command"]
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
                if k is not None and k not in omix.setdefault(wl_of(r.s), []):
                    omix[wl_of(r.s)].append(k)
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
                if num(m[2]) > bt.get(key, 0):
                    bt[key] = num(m[2])
            else:
                bt[key] = bt.get(key, 0) + num(m[2])
            btord.add((r.s, f, m[1]))
            hastrace.add(r.s)
    note = sess.note()
    m = sess.m

    # run order: the workloads and LRU modes as the guest ran them
    wls = (m("workloads") + " " + m("trace_workloads")).split()
    lrus = m("lru_modes").split()
    workloads = list(dict.fromkeys(w.replace(":", "-", 1) for w in wls))
    lst = [f"{w}-{lru}" for w in workloads for lru in lrus]
    order = lst + [s for s in sess.scens if s not in lst]

    def metric(s, c, t):
        r = sess.run(s, c, t)
        return r.val.get("metric") if r is not None else None

    # statistics: every configuration's runs, and the pairs CONFIG/stock by rep
    for s in order:
        for c in CONFIGS:
            for r in sess.of(s, c):
                if "metric" in r.val:
                    st.sample(f"{s}|{c}", r.val["metric"])
        for c in CONFIGS[1:]:
            for t in sess.tags.get((s, c), []):
                a1, a2 = metric(s, "stock", t), metric(s, c, t)
                if a1 is None or a2 is None or num(a1) == 0:
                    continue
                st.sample(f"ratio|{s}|{c}", num(a2) / num(a1))
                st.pair(f"{s}|stock|{c}", a1, a2)
    st.run()

    out = sess.head("unmap_batch x referenced_batch, classic LRU and MGLRU", note)
    out.append(f"- guest: kernel {m('guest_kernel')}, {m('guest_cpus')} vCPUs, MemTotal {int(num(m('guest_mem_kb')) / 1024)} MiB, "
               f"read_ahead_kb {m('read_ahead_kb')}, THP enabled `{m('thp_enabled')}`, lru_gen at boot {m('lru_gen')} "
               f"(restored at the end: {m('lru_gen_restored') or 'not recorded'}), swap {m('swap')}")
    out.append(f"- parameters: BENCH_REPS={m('reps')}, workloads (NAME:MB) {m('workloads')}, LRU modes {m('lru_modes')}, "
               f"trace phase: {m('trace_reps')} rep(s) of {m('trace_workloads') or 'nothing'}, warm-up {m('warmup')}")
    out.append(f"- host load average before/after: {m('host_loadavg_before')} / {m('host_loadavg_after')}; guest run time "
               f"{m('guest_seconds')} s (timed {m('timed_phase_seconds')} s, bpftrace {m('trace_phase_seconds')} s; "
               f"estimated {m('estimate_seconds')} s in all); test box exit status {m('vmrun_exit')}")
    out.append("- method: one boot; configurations stock (unmap_batch=0 referenced_batch=0), unmap (1 0), refs (0 1), "
               "both (1 1), every run with reclaim_probes=0; per rep, per LRU mode (lru_gen/enabled written and read back; "
               "the first mode alternates by rep) and workload, the four configurations, odd reps in the order stock unmap "
               "refs both, even reps reversed; caches dropped and memory compacted before every run; every run wrapped in "
               "`foliotune record -l RUN.CONFIG -s unmap_batch=U -s referenced_batch=R -s reclaim_probes=0 -o "
               "raw/RUN.CONFIG.REP.rec -- CMD` (counter deltas in raw/)")
    sess.common_warnings("with {n} pairs", "the paired tests below say so",
                         "(see raw/console.log; 252 = the console gate; BENCH_KERNEL_ARGS=watchdog_thresh=60 on a loaded host)")
    if m("trace_warning"):
        sess.warn(m("trace_warning"))
    if m("trace_error"):
        sess.warn("trace phase: " + m("trace_error"))
    if m("lru_gen_restored") == "" and m("guest_seconds") != "":
        sess.warn("the guest did not record restoring lru_gen/enabled")

    def cnt(r, name):
        return num(r.ft(name))

    def premise(r):
        """"" when run r shows the path its configuration and LRU mode
        must take, else what is missing."""
        lru, c, miss = lru_of(r.s), r.c, []
        if not r.has_module():
            return "no foliotune counters"
        # with the knob at 0 the reason counted is "off" in either LRU mode
        # (module/referenced.c: the first match of mlock, hugetlb, small,
        # off, lru_gen, partial)
        if not knob(c, "r") and cnt(r, "referenced_nobatch_off") == 0:
            miss.append("referenced_nobatch_off 0")
        if knob(c, "r") and lru == "classic" and cnt(r, "referenced_batches") == 0:
            miss.append("referenced_batches 0")
        # a module with the batched MGLRU walk counts its runs in
        # referenced_lru_gen_batches; an older one kept MGLRU per PTE
        if knob(c, "r") and lru == "mglru" and r.ft("referenced_lru_gen_batches") != "":
            if cnt(r, "referenced_lru_gen_batches") == 0:
                miss.append("referenced_lru_gen_batches 0")
        elif knob(c, "r") and lru == "mglru":
            if cnt(r, "referenced_nobatch_lru_gen") == 0:
                miss.append("referenced_nobatch_lru_gen 0")
            if cnt(r, "referenced_batches") != 0:
                miss.append(f"referenced_batches {r.ft('referenced_batches')} under MGLRU")
        if knob(c, "u") and cnt(r, "unmap_batches") == 0:
            miss.append("unmap_batches 0")
        if not knob(c, "u") and cnt(r, "unmap_nobatch_off") == 0:
            miss.append("unmap_nobatch_off 0")
        if not knob(c, "u") and cnt(r, "unmap_batches") != 0:
            miss.append(f"unmap_batches {r.ft('unmap_batches')} with unmap_batch=0")
        if not knob(c, "r") and cnt(r, "referenced_batches") != 0:
            miss.append("referenced_batches with referenced_batch=0")
        if "lru_bad" in r.val:
            miss.append(r.val["lru_bad"])
        return "; ".join(miss)

    # per-run sanity and premise checks -> warnings, ok[] per s.c
    ok = {}
    for s in order:
        for c in CONFIGS + ["trace-" + c for c in CONFIGS]:
            nbad, why = 0, ""

            def check(r):
                nonlocal nbad, why
                if "seenlru" not in r.val:
                    r.val["lru_bad"] = "lru_gen/enabled not recorded"
                p = premise(r)
                if p:
                    nbad += 1
                    why = why or p
            S.run_checks(sess, sess.of(s, c), "no reclaim_seconds in the output", check)
            n = sess.n(s, c)
            if not n:
                continue
            ok[(s, c)] = f"**FAIL** {nbad} of {n} runs: {why}" if nbad else "ok"
            if nbad:
                sess.warn(f"premise: {s}.{c}: {nbad} of {n} runs do not show their path: {why}")
        S.outliers(sess, st, s, CONFIGS, lambda r, sm: (
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
            "configuration's path in its LRU mode (next table)."]
    lastw = None
    for s in order:
        if not sess.n(s, "stock") and not sess.n(s, "both"):
            continue
        if wl_of(s) != lastw:
            out += ["", "### " + wl_of(s), "",
                    "| LRU | config | n | median reclaim s | min..max | speedup vs stock | per-rep config/stock | paired test | premise |",
                    "|---|---|---:|---:|---|---:|---|---|---|"]
            lastw = wl_of(s)
        smed = st.med(f"{s}|stock")
        for c in CONFIGS:
            sm = st.get(f"{s}|{c}")
            if not sm["n"]:
                continue
            sp = pr = pt = "-"
            if c != "stock" and smed is not None and sm["med"] > 0:
                sp = "%.2fx" % (smed / sm["med"])
                pt = S.paired_words(st.pv(f"{s}|stock|{c}"), c, "lower")
                rs = st.get(f"ratio|{s}|{c}")
                if rs["n"]:
                    pr = f"{fmt(rs['min'])}..{fmt(rs['max'])} ({rs['n']})"
            out.append(f"| {lru_of(s)} | {c} | {sm['n']} | {fmt(sm['med'])} | {fmt(sm['min'])}..{fmt(sm['max'])} | {sp} | "
                       f"{pr} | {pt} | {ok.get((s, c), '-')} |")

    out += ["", "## Paths taken: counters per run (mean over the timed runs) " + TCG, "",
            "What each configuration must show (premise, checked per run; a miss is a warning above and FAIL in the "
            "tables): stock and unmap test large-folio PTEs one by one for the knob (referenced_nobatch_off > 0) in either "
            "LRU mode; refs and both "
            + ("batch reference checks under the classic LRU (referenced_batches > 0) and under MGLRU, whose runs call the "
               "look-around at their young PTEs (referenced_lru_gen_batches > 0); " if lrugen_walk else
               "batch reference checks under the classic LRU (referenced_batches > 0) and not under MGLRU, which keeps the "
               "per-PTE look-around (referenced_nobatch_lru_gen > 0, referenced_batches 0); ")
            + "unmap and both batch the unmap (unmap_batches > 0), stock and refs do not (unmap_nobatch_off > 0); "
            "lru_gen/enabled read 0x0000 (classic) or not (MGLRU) before and after every run. ref o9 / unmap o9: "
            "referenced_batch_order9 / unmap_batch_order9 (runs of 512 PTEs).",
            "",
            "| run | config | ref calls | ref batches | ref batched PTEs | ref o9 | ref nobatch_off | ref nobatch_lru_gen | unmap batches | unmap o9 | unmap nobatch_off | premise |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]

    def cmean(s, c, name):
        runs = sess.of(s, c)
        return sum(cnt(r, name) for r in runs) / len(runs) if runs else None

    for s in order:
        for c in CONFIGS:
            if not sess.n(s, c):
                continue
            cols = ["referenced_calls", "referenced_batches", "referenced_batched_ptes", "referenced_batch_order9",
                    "referenced_nobatch_off", "referenced_nobatch_lru_gen", "unmap_batches", "unmap_batch_order9",
                    "unmap_nobatch_off"]
            out.append(f"| {s} | {c} | " + " | ".join(big(cmean(s, c, k)) for k in cols) + f" | {ok.get((s, c), '')} |")
    out += ["", "Folio orders mapped before reclaim (-R: ORDER:FOLIOS, distinct mixes over the runs separated by /):", ""]
    out += [f"- {w}: {' / '.join(omix[w])}" for w in workloads if w in omix]

    # bpftrace: ns per call
    hdr = False
    o9 = {}
    for s in order:
        if s not in hastrace:
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
                    "| run | function | folio order | calls (stock) | stock ns/call | unmap ns/call | refs ns/call | both ns/call | knob/off | both/stock |",
                    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
            hdr = True
        for f in ("ref", "unmap"):
            for o in map(str, range(16)):
                if (s, f, o) not in btord:
                    continue
                line = f"| {s} | {f} | {o} | {S.fmt_awk(bt.get((s, f, 'stock', o, 'calls'), 0))}"
                v = {}
                for c in CONFIGS:
                    n = bt.get((s, f, c, o, "calls"), 0)
                    v[c] = bt.get((s, f, c, o, "ns"), 0) / n if n else None
                    line += " | " + ("%.0f" % v[c] if n else "-")
                on = "refs" if f == "ref" else "unmap"
                line += " | " + ("%.3f" % (v[on] / v["stock"]) if v["stock"] is not None and v[on] is not None and v["stock"] > 0 else "-")
                line += " | " + ("%.3f" % (v["both"] / v["stock"]) if v["stock"] is not None and v["both"] is not None and v["stock"] > 0 else "-")
                out.append(line + " |")
                if o == "9" and v["stock"] is not None and v[on] is not None and v["stock"] > 0:
                    o9[(s, f)] = v[on] / v["stock"]
    if not hdr and m("trace_error"):
        out += ["", "No bpftrace data: " + m("trace_error")]

    # bpftrace: share of the reclaim time
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
            if s not in hastrace:
                continue
            for c in CONFIGS:
                tb = sum(num(r.val.get("metric")) for r in sess.of(s, "trace-" + c))
                rn = sum(bt.get((s, "ref", c, str(o), "ns"), 0) for o in range(16))
                un = sum(bt.get((s, "unmap", c, str(o), "ns"), 0) for o in range(16))
                if tb == 0 and rn == 0 and un == 0:
                    continue
                out.append(f"| {s} | {c} | {fmt(tb)} | {fmt(rn / 1e9)} s | "
                           + ("%.1f%%" % (100 * rn / (tb * 1e9)) if tb > 0 else "-") + f" | {fmt(un / 1e9)} s | "
                           + ("%.1f%%" % (100 * un / (tb * 1e9)) if tb > 0 else "-") + " | "
                           + ("%.3f" % o9[(s, "ref")] if (s, "ref") in o9 else "-") + ", "
                           + ("%.3f" % o9[(s, "unmap")] if (s, "unmap") in o9 else "-") + " |")

    # bpftrace: MGLRU's look-around inside the reference walk
    lhdr = False
    for s in order:
        if s not in hastrace:
            continue
        for c in ["look-" + c for c in CONFIGS]:
            # a map without a key prints as nothing, a key with no calls 0
            l1, l0 = bt.get((s, "look", c, "1", "calls"), ""), bt.get((s, "look", c, "0", "calls"), "")
            if num(l1) + num(l0) == 0:
                continue
            if not lhdr:
                out += ["", "## MGLRU: lru_gen_look_around() inside the reference walk " + TCG, "",
                        "The kernel's own `lru_gen_look_around()`, which the replacement calls for every PTE under MGLRU "
                        "(bpftrace kprobe + kretprobe in a session of its own, the look runs: their probes fire once per "
                        "PTE, so their reference times are not those of the table above): calls that found the PTE young "
                        "and looked at up to 64 neighbours (young), calls that found it old and returned at once (old), "
                        "and the share of the reference walk's time inside them. The rest of the walk, per PTE, is what "
                        "a batched MGLRU walk could save.",
                        "",
                        "| run | config | ref calls | look-arounds young | ns/call young | look-arounds old | ns/call old | in look-around | in ref | share of ref |",
                        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
                lhdr = True
            rn = sum(bt.get((s, "ref", c, str(o), "ns"), 0) for o in range(16))
            rc = sum(bt.get((s, "ref", c, str(o), "calls"), 0) for o in range(16))
            ln = bt.get((s, "look", c, "1", "ns"), 0) + bt.get((s, "look", c, "0", "ns"), 0)
            out.append(f"| {s} | {c} | {S.fmt_awk(rc)} | {S.fmt_awk(l1)} | "
                       + ("%.0f" % (bt.get((s, "look", c, "1", "ns"), 0) / l1) if l1 else "-")
                       + f" | {S.fmt_awk(l0)} | "
                       + ("%.0f" % (bt.get((s, "look", c, "0", "ns"), 0) / l0) if l0 else "-")
                       + f" | {fmt(ln / 1e9)} s | {fmt(rn / 1e9)} s | "
                       + ("%.1f%%" % (100 * ln / rn) if rn > 0 else "-") + " |")

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
    out += [f"- {w}: `{wcmd[w]}`" for w in workloads if w in wcmd]
    return out


if __name__ == "__main__":
    sys.exit(S.main(build))
