#!/usr/bin/env python3
"""Sets the y of each multi-rank distributed_bench run against the one-rank run of the same matrix.

    python3 perf_tests/compare_y.py DUMP_DIR

DUMP_DIR holds distributed_bench --dump-y files, <matrix>.np<P>.r<rank>.<path>.f64 (raw doubles, a
rank's rows of y; rows split contiguously, so rank order is row order). For every matrix, path
(default: kspmv::spmv's; ordered: keep_row_order with csr_scalar) and P > 1 with a P = 1 file,
prints max |y_P - y_1| / max |y_1| (normwise: a Poisson row's sum cancels to rounding, so
entry by entry the ratio says nothing there), the count of entries that differ in any bit, and
whether y_P equals y_1 bit for bit. Weak-scaling matrices differ between rank counts (their
grids grow with P) and are skipped. Exits 1 if a result has a different length or a NaN.
"""
import collections
import glob
import os
import re
import sys

import numpy as np


def main():
    folder = sys.argv[1]
    runs = collections.defaultdict(dict)  # (matrix, path) -> {P: [files in rank order]}
    for path in glob.glob(os.path.join(folder, "*.f64")):
        m = re.match(r"(.*)\.np(\d+)\.r(\d+)\.(default|ordered)\.f64$", os.path.basename(path))
        if not m or m.group(1).startswith("weak_"):
            continue
        runs[(m.group(1), m.group(4))].setdefault(int(m.group(2)), []).append((int(m.group(3)), path))
    print("| matrix | path | ranks | entries | max abs difference to 1 rank / max abs y | entries not bitwise equal | bitwise equal |")
    print("|---|---|---|---|---|---|---|")
    bad = False
    for (matrix, which), by_ranks in sorted(runs.items()):
        if 1 not in by_ranks:
            continue
        load = lambda files: np.concatenate([np.fromfile(p, dtype=np.float64) for _, p in sorted(files)])
        one = load(by_ranks[1])
        for p in sorted(by_ranks):
            if p == 1:
                continue
            y = load(by_ranks[p])
            if y.shape != one.shape or np.isnan(y).any() or np.isnan(one).any():
                print(f"| {matrix} | {which} | {p} | {y.size} vs {one.size} | NaN or length mismatch | - | no |")
                bad = True
                continue
            scale = float(np.abs(one).max()) if one.size else 0.0
            rel = float(np.abs(y - one).max()) / scale if scale > 0 else float(np.abs(y - one).max()) if y.size else 0.0
            differ = int(np.count_nonzero(y.view(np.uint64) != one.view(np.uint64)))
            print(f"| {matrix} | {which} | {p} | {y.size} | {rel:.2e} | {differ} | {'yes' if differ == 0 else 'no'} |")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
