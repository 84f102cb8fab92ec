#!/usr/bin/env python3
"""Sets the several-vectors rows of spmv_bench runs beside each other: for every matrix and every
k and layout ("mv<k><L|R>:"), the plain call (kspmv:automatic) of each run, the forced balanced
kernel (kspmv:raw_balanced) of the runs that have it, KokkosKernels' default and the rank-1 plain
call of the first run, and the first run's plain call over each other run's.

  compare_runs.py NAME=RESULTS [NAME=RESULTS ...]

RESULTS: spmv_bench's JSON, or its printed table (bench.log) where the JSON did not come back.
Times in microseconds per call. Run in one call on one machine for the ratios to mean anything.
"""
import json
import re
import sys


def load(path):
    """{(matrix, candidate): seconds}."""
    if path.endswith(".json"):
        with open(path) as f:
            return {(r["matrix"], r["kernel"]): r["seconds"] for r in json.load(f)["results"] if r["status"] == "ok"}
    times = {}
    row = re.compile(r"^(\S+(?: x\d+)?)\s+((?:mv\d+[LR]:)?(?:kspmv|kk):\S+)\s+([\d.]+)\s")
    with open(path) as f:
        for line in f:
            m = row.match(line)
            if m:
                times[(m.group(1), m.group(2))] = float(m.group(3)) * 1e-6
    return times


def main():
    runs = [(arg.split("=", 1)[0], load(arg.split("=", 1)[1])) for arg in sys.argv[1:]]
    if not runs:
        sys.exit(__doc__)
    first_name, first = runs[0]
    matrices = []
    for matrix, _ in first:
        if matrix not in matrices:
            matrices.append(matrix)
    with_balanced = [(n, t) for n, t in runs if any(k.endswith(":kspmv:raw_balanced") for _, k in t)]
    print("| matrix | k, layout | " + " | ".join(f"{n} plain call" for n, _ in runs) + " | " +
          " | ".join(f"{n} balanced" for n, _ in with_balanced) + f" | KK default ({first_name}) | rank-1 ({first_name}) | " +
          " | ".join(f"{first_name} / {n}" for n, _ in runs[1:]) + " |")
    print("|---" * (4 + len(runs) + len(with_balanced) + len(runs) - 1) + "|")
    us = lambda t, key: t.get(key, float("nan")) * 1e6
    for matrix in matrices:
        rank1 = us(first, (matrix, "kspmv:automatic"))
        for k in (4, 8, 16):
            for layout in "LR":
                p = f"mv{k}{layout}:"
                if (matrix, p + "kspmv:automatic") not in first:
                    continue
                plain = [us(t, (matrix, p + "kspmv:automatic")) for _, t in runs]
                balanced = [us(t, (matrix, p + "kspmv:raw_balanced")) for _, t in with_balanced]
                kk = us(first, (matrix, p + "kk:default"))
                ratios = [plain[0] / x for x in plain[1:]]
                print(f"| {matrix} | {k}, {layout} | " + " | ".join(f"{x:.0f}" for x in plain) + " | " +
                      " | ".join(f"{x:.0f}" for x in balanced) + f" | {kk:.0f} | {rank1:.0f} | " +
                      " | ".join(f"{r:.2f}" for r in ratios) + " |")


if __name__ == "__main__":
    main()
