#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""stats_ref.py UNIT_TEST: check the statistics of "foliotune ab"
(userspace/util/statistics.c, run through "UNIT_TEST stats") against reference
implementations on known samples:

- median and quartiles: numpy.percentile (linear interpolation);
- the exact Wilcoxon signed-rank p-value: scipy.stats.wilcoxon
  (mode="exact") for samples without ties or zeros; with ties or zeros,
  scipy has no exact mode, so the reference is the definition itself:
  every one of the 2^n sign assignments of the mid-ranks, zeros dropped
  (scipy's zero_method="wilcox");
- Hodges-Lehmann: the median of the Walsh averages, and its interval from
  the signed-rank null distribution, enumerated here over all 2^n signs.

Prints TAP lines ("ok - ..." / "not ok - ...").
"""
import itertools
import math
import random
import subprocess
import sys

import numpy as np
from scipy import stats

unit = sys.argv[1]

rng = random.Random(20261202)
samples = [
    # tie-free, both signs, all one sign, small and large n
    [0.1, -0.2, 0.35, 0.4, -0.05, 0.6],
    [-0.11, -0.23, -0.05, -0.31, -0.2, -0.17, -0.09, -0.26],
    [1.5, 2.25, 0.75, 3.0],
    [0.5, -0.25, 0.125],
    [rng.gauss(0.02, 0.05) for _ in range(10)],
    [rng.gauss(-0.1, 0.05) for _ in range(12)],
    [rng.gauss(0, 1) for _ in range(14)],
    # ties and zeros (exact by enumeration)
    [1, -1, 2, 2, -3, 0, 4, 0],
    [5, 5, 5, 5, 5, 5],
    [0, 0, 3, -3, 1, 2],
    [1024, 980, 1100, 0, 1010, 995, 1024, 1031],
]


def signrank_null(ranks):
    """P(W+ = w) over all sign assignments, as a dict."""
    dist = {}
    for signs in itertools.product((0, 1), repeat=len(ranks)):
        w = sum(r for r, s in zip(ranks, signs) if s)
        dist[w] = dist.get(w, 0) + 1
    total = 2 ** len(ranks)
    return {w: c / total for w, c in dist.items()}


def ref(d):
    out = {}
    a = np.array(d, dtype=float)
    out["median"] = float(np.percentile(a, 50))
    out["q1"] = float(np.percentile(a, 25))
    out["q3"] = float(np.percentile(a, 75))
    out["min"] = float(a.min())
    out["max"] = float(a.max())
    nz = [x for x in d if x != 0]
    absr = stats.rankdata([abs(x) for x in nz])  # mid-ranks
    wplus = float(sum(r for r, x in zip(absr, nz) if x > 0))
    out["w_plus"] = wplus
    ties = len(set(abs(x) for x in nz)) < len(nz)
    if nz and not ties and len(nz) == len(d):
        res = stats.wilcoxon(d, mode="exact")
        out["p"] = float(res.pvalue)
        out["p_source"] = "scipy"
    elif nz:
        null = signrank_null(list(absr))
        lo = sum(p for w, p in null.items() if w <= wplus + 1e-9)
        hi = sum(p for w, p in null.items() if w >= wplus - 1e-9)
        out["p"] = min(1.0, 2 * min(lo, hi))
        out["p_source"] = "enumeration"
    else:
        out["p"] = 1.0
        out["p_source"] = "all zero"
    if nz:
        null = signrank_null(list(absr))
        out["p_min"] = min(1.0, 2 * min(null[min(null)], null[max(null)]))
    else:
        out["p_min"] = 1.0
    out["n"] = len(nz)
    out["nzero"] = len(d) - len(nz)
    out["ties"] = int(ties)
    n = len(d)
    walsh = sorted((d[i] + d[j]) / 2 for i in range(n) for j in range(i, n))
    out["hl"] = float(np.median(walsh))
    null = signrank_null(list(range(1, n + 1)))
    cum, k = 0.0, 0
    while cum + null.get(k, 0) <= 0.025:
        cum += null.get(k, 0)
        k += 1
    if k < 1:
        k, cum = 1, null[0]
    out["lo"] = walsh[k - 1]
    out["hi"] = walsh[len(walsh) - k]
    out["level"] = 1 - 2 * cum
    return out


def close(x, y):
    return math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12)


inp = "".join(" ".join(repr(float(x)) for x in s) + "\n" for s in samples)
got = subprocess.run([unit, "stats"], input=inp, capture_output=True,
                     text=True, check=True).stdout.splitlines()
fails = 0
keys = ["median", "q1", "q3", "min", "max", "w_plus", "p", "p_min", "n",
        "nzero", "ties", "hl", "lo", "hi", "level"]
for i, (s, line) in enumerate(zip(samples, got)):
    g = dict(zip(keys, (float(v) for v in line.split())))
    r = ref(s)
    bad = [k for k in keys if k in r and not close(g[k], r[k])]
    name = "stats sample %d (n=%d, p from %s)" % (i + 1, len(s), r["p_source"])
    if bad:
        fails += 1
        print("not ok - %s # differs: %s" % (name, ", ".join(
            "%s %r want %r" % (k, g[k], r[k]) for k in bad)))
    else:
        print("ok - %s" % name)
if len(got) != len(samples):
    fails += 1
    print("not ok - stats: %d answers for %d samples" % (len(got), len(samples)))
sys.exit(1 if fails else 0)
