#!/usr/bin/env python3
"""Time of the lab binary (l: gathers of x with an L1 evict_last hint) over main's (p), per kernel
of the raw balanced family, from the interleaved rounds of this folder (pa_1 la_2 pd_3 ld_4 la_5
pa_6): geometric means over the matrices of each set, best and worst matrix, and how many matrices
raw balanced CSR ran at 90% of copy bandwidth or more in each round.   python3 table.py [folder]"""
import gzip
import json
import math
import os
import sys

HERE = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
ROUNDS = ["pa_1", "la_2", "pd_3", "ld_4", "la_5", "pa_6"]


def load(name):
    out = {}
    for r in json.load(gzip.open(os.path.join(HERE, name + ".json.gz")))["results"]:
        if r["status"] == "ok" and r.get("vectors", 1) == 1:
            out[(r["matrix"], r["kernel"])] = r
    return out


runs = {n: load(n) for n in ROUNDS}
print("| kernel | set | lab / main (geometric mean) | best | worst |")
print("|---|---|---|---|---|")
for kernel in ("kspmv:raw_csr_balanced", "kspmv:csr16", "kspmv:csr_uniform", "kspmv:csr_coded", "kspmv:automatic", "kspmv:plan"):
    for label, main, lab in (("53", ["pa_1", "pa_6"], ["la_2", "la_5"]), ("17 (fourth)", ["pd_3"], ["ld_4"])):
        ratios = []
        for matrix in sorted(set(m for (m, k) in runs[main[0]] if k == kernel)):
            t_main = [runs[n][(matrix, kernel)]["seconds"] for n in main if (matrix, kernel) in runs[n]]
            t_lab = [runs[n][(matrix, kernel)]["seconds"] for n in lab if (matrix, kernel) in runs[n]]
            if t_main and t_lab:
                ratios.append((sum(t_lab) / len(t_lab) / (sum(t_main) / len(t_main)), matrix))
        if ratios:
            mean = math.exp(sum(math.log(r) for r, _ in ratios) / len(ratios))
            print(f"| {kernel} | {label} ({len(ratios)}) | {mean:.4f} | {min(ratios)[0]:.3f} {min(ratios)[1]} | "
                  f"{max(ratios)[0]:.3f} {max(ratios)[1]} |")
print()
for n in ROUNDS:
    rows = [r for (m, k), r in runs[n].items() if k == "kspmv:raw_csr_balanced"]
    print(f"{n}: raw balanced CSR at 90% of copy bandwidth or more on {sum(r['frac_copy_bw'] >= 0.9 for r in rows)} of {len(rows)}")
