#!/usr/bin/env python3
"""Mode T of two spmv_bench runs made in one call ("new" and "old"), matrix by matrix: the plain
call of each, the new run's forced lanes (T:kspmv:csr_vector) and staged split entries
(T:kspmv:csr_balanced), the old run's split entries (searched for each entry), KokkosKernels'
default of each run, and the new plain call's first call (its setup: analysis, partition and the
timing of the candidates) in units of its per-call time.

  compare.py NEW.json[,NEW2.json] OLD.json[,OLD2.json]

"took" is the kernel the new plain call's time is closest to: lanes, staged, or "searched" where
it is more than 3% faster than both forced kernels (the searched entries cannot be forced).
"""
import json
import math
import sys


def load(paths):
    out = {}
    for p in paths.split(","):
        for r in json.load(open(p))["results"]:
            if r["status"] == "ok":
                out[(r["matrix"], r["kernel"])] = (r["seconds"] * 1e6, r.get("setup_over_spmv"))
    return out


new, old = load(sys.argv[1]), load(sys.argv[2])
mats = sorted({m for (m, k) in new if k == "T:kspmv:automatic"})
t = lambda run, m, k: run.get((m, k), (float("nan"), None))[0]
print("| matrix | new plain | old plain | lanes (new) | staged (new) | searched (old) | took | KK (new run) | KK (old run) | new vs KK | old vs KK | new first call / call |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
logs_new, logs_old, below_new, below_old = [], [], [], []
for m in mats:
    pn, po = t(new, m, "T:kspmv:automatic"), t(old, m, "T:kspmv:automatic")
    ln, sn, so = t(new, m, "T:kspmv:csr_vector"), t(new, m, "T:kspmv:csr_balanced"), t(old, m, "T:kspmv:csr_balanced")
    kn, ko = t(new, m, "T:kk:default"), t(old, m, "T:kk:default")
    took = "lanes" if abs(pn - ln) < abs(pn - sn) else "staged"
    if pn < 0.97 * min(ln, sn):
        took = "searched"
    setup = new.get((m, "T:kspmv:automatic"), (0, None))[1]
    print(f"| {m} | {pn:.0f} | {po:.0f} | {ln:.0f} | {sn:.0f} | {so:.0f} | {took} | {kn:.0f} | {ko:.0f} | "
          f"{kn / pn:.2f}x | {ko / po:.2f}x | {setup:.1f} |" if setup is not None else "| - |")
    logs_new.append(math.log(kn / pn))
    logs_old.append(math.log(ko / po))
    if kn / pn < 1.0:
        below_new.append(f"{m} {kn / pn:.3f}x")
    if ko / po < 1.0:
        below_old.append(f"{m} {ko / po:.3f}x")
gm = lambda v: math.exp(sum(v) / len(v))
print()
print(f"{len(mats)} matrices: plain call vs KokkosKernels' default, geometric mean {gm(logs_new):.3f}x new, "
      f"{gm(logs_old):.3f}x old; below 1.0x: new {len(below_new)} {below_new}; old {len(below_old)} {below_old}")
