#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""unmap.py DIR - turn the raw files of bench/unmap.sh (DIR/raw/ or
DIR/raw.tar.xz) into DIR/results.md, and print it.  Python 3 standard
library, tar and the foliotune CLI (its analyze command).

Raw files (written by unmap-guest.sh):
  BENCH.CONFIG.REP.rec   `foliotune record` file: wall time, exit status,
                         command, knobs, counter deltas
  BENCH.CONFIG.REP.out   the benchmark's own output (loops_per_sec or
                         reclaim_seconds, "# orders: ORDER:FOLIOS ..." from -R)
  BENCH.trace-MODE.REP.bt  bpftrace maps: @calls/@ns/@max_ns by folio order
  host-meta.txt, guest-meta.txt  "key value" lines
  note.txt (optional, written by hand): shown at the top of results.md
CONFIG: stock (unmap_batch=0), batched (unmap_batch=1), modstock (module
loaded, unmap_batch=0, overhead phase), nomod (module unloaded); REP
"warmup" runs are ignored.

Verdict rules (printed in the file too):
  ratio = median(batched) / median(stock) of the benchmark's metric;
  "per-rep" = min..max of batched/stock within each ABBA pair (same rep);
  "paired test" = foliotune analyze on the ABBA pairs (exact Wilcoxon
  signed-rank, 95% Hodges-Lehmann; bench/README.md, "Statistics");
  order-0: "met" unless that test shows batched slower ("not shown" with
  fewer than 6 pairs), overhead: modstock/nomod within 1% (towards slower).
"""
import sys

import session as S
from session import fmt, fmt_awk, num

ORDER = "seed filera file2m file2m-shift order0 lazyfree shmem16k shmem64k shmem128k shmem2m shmem2m-pte".split()
DESC = {
    "seed": "Yin Fengwei's MADV_PAGEOUT micro-benchmark (his 2023 batched rmap series): per vCPU one 2 MiB xfs file, "
            "mmap, touch every page, MADV_PAGEOUT, loop; default readahead",
    "filera": "memcg memory.reclaim of a clean xfs file, mmap MAP_SHARED (PTE-mapped), default readahead (mixed orders)",
    "file2m": "memcg memory.reclaim of a clean xfs file, MADV_HUGEPAGE (2 MiB folios), 2 MiB-aligned but PTE-mapped "
              "(PR_SET_THP_DISABLE forbids the PMD mapping)",
    "file2m-shift": "as file2m, mapped at 2 MiB-aligned + 64 KiB (not aligned): each 2 MiB folio straddles two page "
                    "tables (runs of 496 + 16)",
    "order0": "memcg memory.reclaim of a clean xfs file with read_ahead_kb=0: order-0 folios only",
    "lazyfree": "anon 64 KiB mTHP (only hugepages-64kB enabled), filled, MADV_FREE, memcg memory.reclaim",
    "shmem16k": "MAP_SHARED|MAP_ANONYMOUS shmem, only hugepages-16kB/shmem_enabled, filled, memcg memory.reclaim to zram swap",
    "shmem64k": "as shmem16k with 64 KiB folios",
    "shmem128k": "as shmem16k with 128 KiB folios",
    "shmem2m": "as shmem16k with 2 MiB folios; 2 MiB-aligned, so PMD-mapped (reclaim zaps the PMD, no PTE walk)",
    "shmem2m-pte": "as shmem2m, then MADV_DONTNEED, PR_SET_THP_DISABLE and re-touch: the same 2 MiB folios mapped by "
                   "512 PTEs each",
}
# known reasons for a case that cannot reach the PTE path
WHY = {"shmem2m": " (expected: the folios are PMD-mapped and reclaim removes the PMD mapping in "
                  "split_huge_pmd_address() before any PTE walk, in both modes; shmem2m-pte is the PTE-mapped case)"}
# the batch-size counter batched runs must move ("any": any order >= 1, "none": order-0 only)
EXPECT = {"seed": "any", "filera": "any", "file2m": "unmap_batch_order9", "file2m-shift": "unmap_batch_order8",
          "order0": "none", "lazyfree": "unmap_batch_order4", "shmem16k": "unmap_batch_order2",
          "shmem64k": "unmap_batch_order4", "shmem128k": "unmap_batch_order5", "shmem2m": "unmap_batch_order9",
          "shmem2m-pte": "unmap_batch_order9"}
CONFIGS = ["stock", "batched", "modstock", "nomod"]
PAIRS = [("stock", "batched"), ("nomod", "modstock")]


def build(sess, st):
    cmd = {}
    metric = {}
    omix = {}
    bt = {}       # (B, MODE, ORDER, MAP) -> number
    btord = set()
    hastrace = set()
    for r, _ in sess.records():
        if "command" in r.rec and (r.s, r.c) not in cmd:
            cmd[(r.s, r.c)] = r.rec["command"]
    for r, path in sess.files("out"):
        for line in S.read_lines(path):
            w = S.words(line)
            if w and w[0] == "loops_per_sec":
                r.val["metric"] = w[1] if len(w) > 1 else ""
                metric[r.s] = "loops/s"
                continue
            if w and w[0] == "reclaim_seconds":
                metric[r.s] = "reclaim s"
            k = S.out_line(r, w, line)
            if k is not None and k not in omix.setdefault(r.s, []):
                omix[r.s].append(k)
    for r, path in sess.files("bt"):
        md = r.c[len("trace-"):] if r.c.startswith("trace-") else r.c
        for line in S.read_lines(path):
            m = S.bt_line(S.words(line))
            if not m or m[0] not in ("calls", "ns", "max_ns"):
                continue
            name, o, x = m
            key = (r.s, md, o, name)
            if name == "max_ns":
                if num(x) > bt.get(key, 0):
                    bt[key] = num(x)
            else:
                bt[key] = bt.get(key, 0) + num(x)
            btord.add((r.s, o))
            hastrace.add(r.s)
    note = sess.note()

    order = ORDER + [s for s in sess.scens if s not in ORDER]

    def metric_of(r):
        return r.val.get("metric") if r is not None else None

    # the metric of every configuration's runs in rep order, and the pairs
    # stock/batched and nomod/modstock, to foliotune analyze
    for b in order:
        for c in CONFIGS:
            for r in sess.of(b, c):
                if "metric" in r.val:
                    st.sample(f"{b}|{c}", r.val["metric"])
        for c1, c2 in PAIRS:
            for t in sess.tags.get((b, c1), []):
                a1, a2 = metric_of(sess.run(b, c1, t)), metric_of(sess.run(b, c2, t))
                if a1 is None or a2 is None or num(a1) == 0:
                    continue
                st.sample(f"ratio|{b}|{c1}|{c2}", num(a2) / num(a1))
                st.pair(f"{b}|{c1}|{c2}", a1, a2)
    st.run()

    def ratios(b, c1, c2):
        """The per-rep ratios c2/c1 (n, min, max) and the paired verdict."""
        pv = st.pv(f"{b}|{c1}|{c2}")
        rs = st.get(f"ratio|{b}|{c1}|{c2}")
        pr = f"{fmt(rs['min'])}..{fmt(rs['max'])} ({rs['n']})" if rs["n"] else "-"
        return pv, rs, pr

    def paired(pv, hib, who):
        return S.paired_words(pv, who, "higher" if hib else "lower")

    m = sess.m
    out = sess.head("batched vs stock try_to_unmap_one", note)
    out.append(f"- guest: kernel {m('guest_kernel')}, {m('guest_cpus')} vCPUs, MemTotal {int(num(m('guest_mem_kb')) / 1024)} MiB, "
               f"read_ahead_kb {m('read_ahead_kb')}, THP enabled `{m('thp_enabled')}`, lru_gen {m('lru_gen')}, swap {m('swap')}")
    out.append(f"- parameters: BENCH_REPS={m('reps')}, BENCH_SECONDS={m('seconds')} (seed), BENCH_SIZE_MB={m('size_mb')} "
               f"(reclaim benchmarks; memory.reclaim of 80%), benchmarks: {m('only')}; overhead phase: {m('overhead')}")
    out.append(f"- host load average before/after: {m('host_loadavg_before')} / {m('host_loadavg_after')}; guest run time "
               f"{m('guest_seconds')} s (timed {m('timed_phase_seconds')} s, overhead {m('overhead_phase_seconds')} s, "
               f"bpftrace {m('trace_phase_seconds')} s); test box exit status {m('vmrun_exit')}")
    out.append("- method: one boot; per rep and benchmark one stock (unmap_batch=0) and one batched (unmap_batch=1) run, "
               "ABBA order (odd reps stock first); caches dropped and memory compacted before every run; every run wrapped in "
               "`foliotune record -l BENCH.CONFIG -s unmap_batch=X -o raw/BENCH.CONFIG.REP.rec -- CMD` (counter deltas in raw/)")
    sess.common_warnings("with {n} ABBA pairs",
                         'the paired tests below say so instead of "no difference"',
                         "(see raw/console.log; 252 = the console gate; a soft lockup of a starved TCG vCPU on a loaded "
                         "host can be avoided with BENCH_KERNEL_ARGS=watchdog_thresh=60)")

    def csum(b, c, name):
        return sum(num(r.ft(name)) for r in sess.of(b, c))

    def loaded(r):
        if r.c == "nomod" and r.rec.get("module") == "loaded":
            sess.warn(f"{r.id}: the module was loaded")

    # per-run sanity and exercised-path checks -> warnings
    chk = {}
    exercised = {}
    for b in order:
        for c in CONFIGS + ["trace-stock", "trace-batched"]:
            S.run_checks(sess, sess.of(b, c), "no result line in the output", loaded)
        S.outliers(sess, st, b, CONFIGS, lambda r, sm: (
            f"{r.id}: {metric.get(r.s, '')} {r.val['metric']} against a median of {fmt(sm['med'])} over {sm['n']} runs: "
            "an outlier (host stall?); per-rep ranges that include it mean nothing"))
        if sess.n(b, "batched") == 0:
            continue
        bat = csum(b, "batched", "unmap_batches")
        calls = csum(b, "batched", "unmap_calls")
        e = EXPECT.get(b, "")
        okx = True
        if calls == 0:
            okx, chk[b] = False, "NOT EXERCISED: no try_to_unmap_one call"
        elif e == "none":
            if bat:
                okx, chk[b] = False, "large folios batched in an order-0 case"
            elif csum(b, "batched", "unmap_nobatch_small") == 0:
                okx, chk[b] = False, "no order-0 PTE unmapped"
            else:
                chk[b] = "ok: order-0 only (unmap_nobatch_small)"
        elif e == "any":
            if bat == 0:
                okx, chk[b] = False, "NOT EXERCISED: no batch (unmap_batches 0)"
            else:
                chk[b] = "ok: batches of order >= 1"
        elif csum(b, "batched", e) == 0:
            okx, chk[b] = False, f"NOT EXERCISED: {e} did not move"
        else:
            chk[b] = f"ok: {e} moved"
        if csum(b, "stock", "unmap_batches") != 0:
            okx, chk[b] = False, chk[b] + "; stock runs batched!"
        if e != "none" and sess.n(b, "stock") and csum(b, "stock", "unmap_nobatch_off") == 0 and calls > 0:
            okx = False
            chk[b] += "; stock runs did not take the per-PTE large-folio path (unmap_nobatch_off 0)"
        if not okx:
            sess.warn(f"{b}: {chk[b]}{WHY.get(b, '')}")
        exercised[b] = okx
    out += sess.warnings_section()

    TCG = sess.TCG
    out += ["", "## Timed runs " + TCG, "", "| benchmark | metric | config | n | min | median | max |",
            "|---|---|---|---:|---:|---:|---:|"]
    for b in order:
        for c in CONFIGS:
            sm = st.get(f"{b}|{c}")
            if sm["n"]:
                out.append(f"| {b} | {metric.get(b, '')} | {c} | {sm['n']} | {fmt(sm['min'])} | {fmt(sm['med'])} | {fmt(sm['max'])} |")

    out += ["", "## Batched vs stock " + TCG, "",
            "ratio = median(batched) / median(stock); per-rep = min..max of batched/stock within each ABBA pair; "
            "speedup = stock time / batched time (loops/s: batched / stock); paired test = `foliotune analyze` on the ABBA pairs "
            "(exact Wilcoxon signed-rank test, 95% Hodges-Lehmann interval): batched faster or slower at p < 0.05, or why no "
            "difference is shown (with fewer than 6 pairs none can be shown at p < 0.05). The targets are on the ratio; "
            "order-0's \"no slowdown beyond noise\" is the paired test's.",
            "",
            "| benchmark | metric | stock median | batched median | ratio | per-rep | speedup | paired test | target | verdict | path check |",
            "|---|---|---:|---:|---:|---|---:|---|---|---|---|"]
    spd = {}
    for b in order:
        ss, sb = st.get(f"{b}|stock"), st.get(f"{b}|batched")
        if not ss["n"] or not sb["n"] or not ss["med"] or not sb["med"]:
            continue
        r = sb["med"] / ss["med"]
        pv, rs, pr = ratios(b, "stock", "batched")
        hib = metric.get(b) == "loops/s"
        sp = r if hib else 1 / r
        spd[b] = sp
        target, verdict, thr = "-", "-", None
        if b == "seed":
            target, thr = ">= +15% loops/s", 1.15
            verdict = "met" if r >= thr else "not met"
        elif b == "file2m":
            target, thr = "batched time <= 50% of stock", 0.5
            verdict = "met" if r <= thr else "not met"
        elif b == "lazyfree":
            target, thr = ">= 2x", 0.5
            verdict = "met" if r <= thr else "not met"
        elif b == "order0":
            target = "no slowdown beyond noise"
            if pv["v"] in ("few", ""):
                verdict = f"not shown ({rs['n']} pairs)"
            elif (pv["v"] == "higher") != hib and pv["v"] != "none":
                verdict = "not met (batched slower)"
            else:
                verdict = "met (no slowdown shown)"
        if thr is not None and rs["n"] > 1 and rs["min"] < thr < rs["max"]:
            verdict += " (per-rep range straddles it)"
        if thr is not None and ss["n"] < 2:
            verdict += " (1 rep)"
        if b in exercised and not exercised[b] and target != "-":
            verdict += " (path NOT exercised)"
        out.append(f"| {b} | {metric.get(b, '')} | {fmt(ss['med'])} | {fmt(sb['med'])} | {r:.3f} | {pr} | {sp:.2f}x | "
                   f"{paired(pv, hib, 'batched')} | {target} | {verdict} | {chk.get(b, '-')} |")

    hdr = False
    for b in order:
        sn, sm = st.get(f"{b}|nomod"), st.get(f"{b}|modstock")
        if not sn["n"] or not sm["n"] or not sn["med"]:
            continue
        if not hdr:
            kp = m("kprobes_with_module")
            out += ["", "## Module loaded with unmap_batch=0 vs no module " + TCG, "",
                    "nomod: module unloaded (livepatch disabled, rmmod) for the run, reloaded after; modstock: loaded, "
                    "unmap_batch=0. ratio = median(modstock) / median(nomod); target: within 1% (towards slower); paired "
                    "test: `foliotune analyze` on the runs of the same rep, as above. The loaded module costs: the livepatch "
                    "redirection of try_to_unmap_one and set_pte_range, their counters"
                    + ("; kprobes registered while it was loaded (armed unless [DISABLED]; every run here sets "
                       f"reclaim_probes=0): `{kp}`" if any("a" <= ch <= "z" for ch in kp) else "") + ".",
                    "",
                    "| benchmark | metric | nomod median | modstock median | ratio | per-rep | paired test | verdict |",
                    "|---|---|---:|---:|---:|---|---|---|"]
            hdr = True
        r = sm["med"] / sn["med"]
        pv, rs, pr = ratios(b, "nomod", "modstock")
        hib = metric.get(b) == "loops/s"
        ok = r >= 0.99 if hib else r <= 1.01
        verdict = "met" if ok else "not met"
        if rs["n"] > 1 and rs["max"] - rs["min"] > 0.02:
            verdict += " (inconclusive: per-rep spread wider than the 1% target)"
        if sn["n"] < 2:
            verdict += " (1 rep)"
        out.append(f"| {b} | {metric.get(b, '')} | {fmt(sn['med'])} | {fmt(sm['med'])} | {r:.3f} | {pr} | "
                   f"{paired(pv, hib, 'modstock')} | {verdict} |")

    out += ["", "## Folio-order mix " + TCG, "",
            "mapped (-R): ORDER:FOLIOS of the mapping, read from pagemap + kpageflags before reclaim (seed: before the first "
            "pageout; distinct mixes over all runs separated by /). batched: unmap_batch_order<k> deltas per run (k = ilog2 "
            "of the PTE run; order0 = large-folio runs of 1 PTE), mean over the batched runs. stock: PTEs of large folios "
            "unmapped one by one (unmap_nobatch_off) and of order-0 folios (unmap_nobatch_small), per run.",
            "",
            "| benchmark | mapped (-R) | calls/run | batched: runs by order per run | batched PTEs % | stock: nobatch_off / nobatch_small per run | path check |",
            "|---|---|---:|---|---:|---|---|"]
    for b in order:
        nbr, nst = sess.n(b, "batched"), sess.n(b, "stock")
        if not nbr and not nst:
            continue
        mix = []
        for k in range(10):
            s = csum(b, "batched", f"unmap_batch_order{k}") / nbr if nbr else 0
            if s > 0:
                mix.append(f"o{k}:{fmt(s)}")
        bp, sp1 = csum(b, "batched", "unmap_batched_ptes"), csum(b, "batched", "unmap_single_ptes")
        bpp = "%.1f%%" % (100 * bp / (bp + sp1)) if bp + sp1 else "-"
        calls = fmt(csum(b, "batched", "unmap_calls") / nbr) if nbr else "-"
        stk = (f"{fmt(csum(b, 'stock', 'unmap_nobatch_off') / nst)} / {fmt(csum(b, 'stock', 'unmap_nobatch_small') / nst)}"
               if nst else "-")
        out.append(f"| {b} | {' / '.join(omix.get(b, [])) or '-'} | {calls} | {' '.join(mix) or '-'} | {bpp} | {stk} | "
                   f"{chk.get(b, '-')} |")

    hdr = False
    for b in order:
        if b not in hastrace:
            continue
        if not hdr:
            out += ["", "## Time inside try_to_unmap_one per call " + TCG, "",
                    "bpftrace 0.17, `kprobe:` + `kretprobe:foliotune_try_to_unmap_one` (the module replacement; the "
                    f"livepatched original never runs), separate runs from the timed ones ({m('trace_reps')} per benchmark "
                    "and mode), keyed by the order of the folio passed in (arg0). One call = one folio in one VMA (every "
                    "folio here is mapped once), so ns/call is the time per folio; ns/page = ns/call / 2^order. Includes "
                    "the kretprobe overhead, equal in both modes.",
                    "",
                    "| benchmark | folio order | stock calls | stock ns/call | stock ns/page | batched calls | batched ns/call | batched ns/page | batched/stock |",
                    "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
            hdr = True
        for o in range(16):
            if (b, str(o)) not in btord:
                continue
            sc, sn = bt.get((b, "stock", str(o), "calls"), 0), bt.get((b, "stock", str(o), "ns"), 0)
            bc, bn = bt.get((b, "batched", str(o), "calls"), 0), bt.get((b, "batched", str(o), "ns"), 0)
            sv = sn / sc if sc else None
            bv = bn / bc if bc else None
            pg = 2 ** o

            def per(c, v, d):
                return "%.0f" % (v / d) if c else "-"
            out.append(f"| {b} | {o} | {fmt_awk(sc)} | {per(sc, sv, 1)} | {per(sc, sv, pg)} | {fmt_awk(bc)} | "
                       f"{per(bc, bv, 1)} | {per(bc, bv, pg)} | "
                       + ("%.3f" % (bv / sv) if sc and bc and sv > 0 else "-") + " |")
    if not hdr and m("trace_error"):
        out += ["", "No bpftrace data: " + m("trace_error")]

    # what the time inside try_to_unmap_one allows (Amdahl)
    hdr = False
    cpus = m("guest_cpus") or 1
    for b in order:
        if b not in hastrace:
            continue
        sn = sum(bt.get((b, "stock", str(o), "ns"), 0) for o in range(16))
        bn = sum(bt.get((b, "batched", str(o), "ns"), 0) for o in range(16))
        # the time the metric is made of, in the stock trace runs: all vCPUs
        # for the whole run (loops/s), the memory.reclaim write of the one
        # reclaiming thread (reclaim s)
        tb = 0
        for r in sess.of(b, "trace-stock"):
            if metric.get(b) == "loops/s":
                tb += num(r.rec.get("wall_seconds")) * num(cpus)
            else:
                tb += num(r.val.get("metric"))
        if sn == 0 or bn == 0 or tb == 0:
            continue
        if not hdr:
            out += ["", "## What batching can gain here: time inside try_to_unmap_one " + TCG, "",
                    "share = time the stock trace runs spent inside try_to_unmap_one (table above) / the time the metric "
                    f"is made of (loops/s: run wall time x {cpus} vCPUs; reclaim s: the memory.reclaim write; above 100% "
                    "when other tasks, e.g. kswapd, unmapped too). batched/stock = the same time in the batched trace runs "
                    "over that of the stock ones. bound = 1 / (1 - share x (1 - batched/stock)): the speedup if nothing but "
                    "try_to_unmap_one got faster. Both figures include the cost of the bpftrace probes, which inflates the "
                    "share a little.",
                    "",
                    "| benchmark | metric | share in try_to_unmap_one (stock) | batched/stock time in it | bound on the speedup | measured speedup (timed runs) |",
                    "|---|---|---:|---:|---:|---:|"]
            hdr = True
        sh = sn / (tb * 1e9)
        rr = bn / sn
        gain = sh * (1 - rr)
        bound = "%.2fx" % (1 / (1 - gain)) if gain < 1 else "-"
        out.append(f"| {b} | {metric.get(b, '')} | {100 * sh:.1f}% | {rr:.3f} | {bound} | "
                   + ("%.2fx" % spd[b] if b in spd else "-") + " |")

    out += ["", "## Benchmarks and exact commands", "",
            "Each run: `userspace/foliotune record -l BENCH.CONFIG -s unmap_batch=0|1 -o raw/BENCH.CONFIG.REP.rec -- "
            "COMMAND` (nomod: without -s); the trace runs: the same `foliotune record` commands (labels BENCH.trace-MODE) "
            "under one `bpftrace -B none raw/unmap-time.bt > raw/trace-all.bt` session, each run announced by a marker "
            "syscall (raw/trace-phases.txt).",
            ""]
    for b in order:
        c = cmd.get((b, "stock"), cmd.get((b, "nomod"), ""))
        if c == "":
            continue
        out += [f"- **{b}**: {DESC.get(b, '')}.  ", f"  `{c}`"]
    return out


if __name__ == "__main__":
    sys.exit(S.main(build))
