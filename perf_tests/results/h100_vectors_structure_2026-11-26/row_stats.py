#!/usr/bin/env python3
"""Row lengths of Matrix Market files (symmetric ones expanded as spmv_bench reads them): average,
longest, and their variation (standard deviation over the mean), as JSON to stdout.

  row_stats.py FILE.mtx[.gz] ...
"""
import gzip
import json
import math
import os
import sys


def row_lengths(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        header = f.readline().lower().split()
        symmetric = header[-1] in ("symmetric", "hermitian", "skew-symmetric")
        line = f.readline()
        while line.startswith("%"):
            line = f.readline()
        m = int(line.split()[0])
        counts = [0] * m
        for line in f:
            p = line.split()
            if len(p) < 2:
                continue
            i, j = int(p[0]) - 1, int(p[1]) - 1
            counts[i] += 1
            if symmetric and i != j:
                counts[j] += 1
    return counts


out = {}
for path in sys.argv[1:]:
    c = row_lengths(path)
    nnz = sum(c)
    mean = nnz / len(c)
    variance = sum(x * x for x in c) / len(c) - mean * mean
    out[os.path.basename(path).replace(".gz", "")] = {
        "average": mean, "longest": max(c), "variation": math.sqrt(max(variance, 0.0)) / mean if mean > 0 else 0.0}
json.dump(out, sys.stdout, indent=1)
