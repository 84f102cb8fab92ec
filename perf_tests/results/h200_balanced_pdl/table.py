#!/usr/bin/env python3
"""Sets the plain call's rows of two spmv_bench runs (JSON) beside each other: time per call,
% of that run's copy bandwidth by the CSR byte model, the ratio new/old, and each against
KokkosKernels' default of its own run.

  table.py OLD.json NEW.json
"""
import json
import math
import sys


def load(path):
    with open(path) as f:
        d = json.load(f)
    return d, {(r["matrix"], r["kernel"]): r for r in d["results"] if r["status"] == "ok"}


def main(old_path, new_path):
    do, old = load(old_path)
    dn, new = load(new_path)
    print(f"copy bandwidth: old {do['copy_bandwidth_gbs']:.0f} GB/s, new {dn['copy_bandwidth_gbs']:.0f} GB/s\n")
    print("| matrix | old [us] | new [us] | new / old | old % copy | new % copy | new vs kk:default |")
    print("|---|---|---|---|---|---|---|")
    rows = []
    for (m, k), o in old.items():
        if k != "kspmv:automatic" or (m, k) not in new:
            continue
        n = new[(m, k)]
        rows.append((o["frac_copy_bw"], m, o, n, new[(m, "kk:default")]["seconds"] / n["seconds"]))
    for _, m, o, n, kk in sorted(rows):
        print(f"| {m} | {o['seconds'] * 1e6:.1f} | {n['seconds'] * 1e6:.1f} | {n['seconds'] / o['seconds']:.3f} | "
              f"{100 * o['frac_copy_bw']:.1f} | {100 * n['frac_copy_bw']:.1f} | {kk:.2f}x |")
    geo = lambda v: math.exp(sum(math.log(x) for x in v) / len(v))
    ratios = [r[3]["seconds"] / r[2]["seconds"] for r in rows]
    print(f"\n{len(rows)} matrices: new / old geometric mean {geo(ratios):.3f} (range {min(ratios):.3f}-{max(ratios):.3f}); "
          f"at or above 90% of copy bandwidth: old {sum(r[2]['frac_copy_bw'] >= 0.9 for r in rows)}, "
          f"new {sum(r[3]['frac_copy_bw'] >= 0.9 for r in rows)}; against kk:default (geometric mean): "
          f"old {geo([old[(r[1], 'kk:default')]['seconds'] / r[2]['seconds'] for r in rows]):.3f}x, "
          f"new {geo([r[4] for r in rows]):.3f}x, lowest new {min(r[4] for r in rows):.2f}x")


if __name__ == "__main__":
    main(*sys.argv[1:3])
