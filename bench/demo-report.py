#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# demo-report.py - the lines of `make demo` (bench/demo-guest.sh) for one
# foliotune ab file: each arm's settings and metric, and the verdict line.
# Every figure comes from `foliotune -j compare AB_FILE` (the report of ab,
# userspace/util/ab_report.c) and `foliotune -j analyze` (the counters' medians):
# this program only lays them out.
#
#   demo-report.py FOLIOTUNE PART NAME_A NAME_B AB_FILE [COUNTER | ARM:COUNTER]...
#
# COUNTER: a module counter to show, the median of its per-run deltas in
# each arm; ARM:COUNTER (A: or B:) also a premise: its median in that arm
# must be above 0 (the arm took that path), else the report fails.
# It prints, for arm A then arm B (for an A/A, arm A only):
#
#     NAME   SETTINGS   METRIC median (min..max)   COUNTER median, ...
#
# then one line
#
#     verdict PART: NAME_B vs NAME_A: METRIC B/A 0.37 (96.9% CI 0.30..0.45),
#         6 pairs, p 0.0312: NAME_B faster
#
# (one line; for an A/A "NAME_A vs NAME_A (A/A, the noise floor)" and the
# verdict as ab gives it).  The metric is the ab file's -m metric, else the
# wall time.  Exit status 1, with the reason on standard error, when
# foliotune fails, the file holds no complete pair or a premise fails.
import json
import subprocess
import sys


def foliotune(ft, args, stdin=None):
    p = subprocess.run([ft, "-j"] + args, input=stdin, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("demo-report.py: foliotune %s failed (exit %d): %s"
                 % (" ".join(args), p.returncode, (p.stderr or p.stdout).strip()))
    return json.loads(p.stdout)


def counters_by_arm(path, names):
    """'ARM:NAME VALUE' lines, one per recorded run and counter."""
    lines, run = [], {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if line.startswith("# foliotune record v"):
                run = {}
            elif len(w) == 4 and w[0] == "counter" and w[1] == "foliotune" and w[2] in names:
                run[w[2]] = w[3]
            elif len(w) == 4 and w[0] == "ab_run":
                lines += ["%s:%s %s" % (w[3], n, run.get(n, "0")) for n in names]
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) < 6:
        sys.exit("usage: demo-report.py FOLIOTUNE PART NAME_A NAME_B AB_FILE COUNTER...")
    ft, part, name_a, name_b, path = sys.argv[1:6]
    names, needs = [], []
    for a in sys.argv[6:]:
        arm, _, n = a.rpartition(":")
        if arm:
            needs.append((arm, n))
        if n not in names:
            names.append(n)
    rep = foliotune(ft, ["compare", path])
    if rep["pairs"] < 1:
        sys.exit("demo-report.py: %s holds no complete pair" % path)
    res = [r for r in rep["results"] if r["kind"] in ("metric", "metric_time")]
    res = res[0] if res else [r for r in rep["results"] if r["kind"] == "wall"][0]
    med = {}
    if names:
        for r in foliotune(ft, ["analyze", "-"], counters_by_arm(path, names))["results"]:
            med[r["name"]] = r["median"]
    arms = [("A", name_a)] if rep["aa"] else [("A", name_a), ("B", name_b)]
    for arm, name in arms:
        s = res[arm]
        paths = ", ".join("%s %.10g" % (n, med.get("%s:%s" % (arm, n), 0)) for n in names)
        print("    %-9s %-40s %s %.4g (%.4g..%.4g)%s" % (
            name, rep["arms"][arm].replace(" reclaim_probes=0", ""), res["name"],
            s["median"], s["min"], s["max"], "   " + paths if paths else ""))
    verdict = res["verdict"]
    if not rep["aa"]:
        for w in ("faster", "slower", "higher", "lower"):
            verdict = verdict.replace("B " + w, name_b + " " + w)
    vs = "%s vs %s (A/A, the noise floor)" % (name_a, name_a) if rep["aa"] else \
        "%s vs %s" % (name_b, name_a)
    print("verdict %s: %s: %s %s %.3g (%.1f%% CI %.3g..%.3g), %d pairs, p %.3g: %s" % (
        part, vs, res["name"], res["estimate_of"], res["estimate"], 100 * res["ci_level"],
        res["ci_low"], res["ci_high"], rep["pairs"], res["wilcoxon"]["p"], verdict))
    bad = ["%s:%s" % (dict(arms).get(a, a), n) for a, n in needs if med.get("%s:%s" % (a, n), 0) <= 0]
    if bad:
        sys.exit("demo-report.py: %s: these counters did not move, so the arms did not take "
                 "their paths: %s" % (path, ", ".join(bad)))


if __name__ == "__main__":
    main()
