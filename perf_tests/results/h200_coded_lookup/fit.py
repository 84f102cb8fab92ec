#!/usr/bin/env python3
"""The plan model's CodedCsrMatrix call (include/kspmv/impl/plan_model.hpp, ModelConstants:
coded_entries, coded_vectors, coded_gathers, coded_table_lines), fitted to the runs of the 53
and the 25 that CodedCsrMatrix accepts and checked on those of the third set.

  python3 fit.py       (from any folder; numpy; reads the runs named below and the matrices)

Each run's Plan notes give raw balanced CSR's predicted time; B, G and the Plan's bandwidth are
as ../h200_plan_scalar_variation/fit.py derives them. The target of each run is that prediction
times the ratio measured (CodedCsrMatrix's time over raw balanced CSR's in the same run), so the
fit is of the ranking of the two. Terms, in seconds at the Plan's bandwidth: the codes', columns'
and offsets' bytes (nnz x 5 + (rows + 1) x 4), x's and y's bytes, G, and nnz x ln(the 128-byte
lines of the table) bytes (the matrix's distinct values, read from its file); latency 5 us.
Least squares on the relative error.
"""
import gzip
import json
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "h200_plan_scalar_variation"))
import fit as base  # noqa: E402

RUNS = sum(base.SETS.values(), []) + [
    "h200_plan_scalar_variation/change/call3/pa_1.json.gz", "h200_plan_scalar_variation/change/call3/qa_2.json.gz",
    "h200_plan_scalar_variation/change/call3/pc_3.json.gz", "h200_plan_scalar_variation/change/call4/pb_1.json.gz",
    "h200_plan_scalar_variation/change/call4/qb_2.json.gz", "h200_plan_scalar_variation/change/call4/pc_3.json.gz",
    "h200_plan_scalar_variation/change/call4/qc_4.json.gz", "h200_plan_scalar_variation/change/call4/pb_5.json.gz",
    "h200_coded_sample/call1/pa_1.json.gz", "h200_coded_sample/call1/pc_2.json.gz",
    "h200_coded_sample/call2/pb_1.json.gz", "h200_coded_sample/call2/pb_2.json.gz"]
THIRD = set(f[:-3] for f in os.listdir(os.path.join(base.REPO, "perf_tests/matrices_third")) if f.endswith(".mtx.gz"))
TERMS = ("entries", "vectors", "gathers", "table_lines")


def distinct_values(name, cache={}):
    """Distinct values (bit patterns) of the matrix as the reader stores it (pattern: one)."""
    if name not in cache:
        for d in base.MATRIX_DIRS:
            for path in (os.path.join(d, name), os.path.join(d, name + ".gz")):
                if os.path.exists(path):
                    opener = gzip.open if path.endswith(".gz") else open
                    with opener(path, "rt") as f:
                        header = f.readline().lower().split()
                        line = f.readline()
                        while line.startswith("%") or not line.strip():
                            line = f.readline()
                        if header[3] == "pattern":
                            cache[name] = 1
                            break
                        v = np.loadtxt(f, usecols=(2,), ndmin=1)
                    if header[4] == "skew-symmetric":
                        v = np.concatenate([v, -v])
                    cache[name] = len(np.unique(v.view(np.uint64)))
                    break
            if name in cache:
                break
    return cache[name]


def load():
    runs = []
    for f in RUNS:
        d = json.load(gzip.open(os.path.join(base.RESULTS, f)))
        by = {}
        for r in d["results"]:
            if r.get("vectors", 1) == 1 and r.get("status") == "ok":
                by.setdefault(r["matrix"], {})[r["kernel"]] = r
        bw = base.plan_bandwidth(by)
        for m, ks in by.items():
            p = ks.get("kspmv:plan")
            if not p or "predicted" not in p["note"] or "kspmv:csr_coded" not in ks:
                continue
            pred = base.predictions(p)
            nnz, rows, cols = p["nnz"], p["rows"], p["cols"]
            B = base.csr_bytes(p) / bw
            G = pred["raw_csr_balanced"] - 5e-6 - B / (0.91 if nnz >= 64 * rows else 0.99)
            values = distinct_values(m.split(" ")[0])
            lines = max(1, math.ceil(values * 8 / 128))
            runs.append(dict(matrix=m, name=m.split(" ")[0], third=m.split(" ")[0] in THIRD, values=values,
                             entries=(nnz * 5 + (rows + 1) * 4) / bw, vectors=(rows + cols) * 8 / bw, gathers=G,
                             table_lines=nnz * math.log(lines) / bw,
                             target=pred["raw_csr_balanced"] * ks["kspmv:csr_coded"]["seconds"] /
                             ks["kspmv:raw_csr_balanced"]["seconds"],
                             ratio=ks["kspmv:csr_coded"]["seconds"] / ks["kspmv:raw_csr_balanced"]["seconds"],
                             whole_wave=nnz >= 64 * rows))
    return runs


def before(r):  # the shares this replaces: 0.88 rows of two waves or more, 0.93 one line, 0.98 more
    return 0.88 if r["whole_wave"] else (0.93 if r["values"] * 8 <= 128 else 0.98)


def main():
    runs = load()
    train = [r for r in runs if not r["third"]]
    A = np.array([[r[t] for t in TERMS] for r in train])
    y = np.array([r["target"] - 5e-6 for r in train])
    w = 1 / np.array([r["target"] for r in train])
    coef = np.linalg.lstsq(A * w[:, None], y * w, rcond=None)[0]
    print("coefficients:", ", ".join(f"{t} {c:.3f}" for t, c in zip(TERMS, coef)))
    rounded = np.round(coef, 2)
    for label, group in (("53 and 25 (fit)", train), ("third set (not fitted)", [r for r in runs if r["third"]])):
        new = np.array([(5e-6 + sum(c * r[t] for t, c in zip(TERMS, rounded))) / r["target"] - 1 for r in group])
        old = np.array([before(r) / r["ratio"] - 1 for r in group])
        print(f"{label}: {len(group)} runs of {len(set(r['name'] for r in group))} matrices; relative error of the "
              f"ratio to raw balanced CSR, root mean square {np.sqrt(np.mean(new ** 2)):.3f} (max {np.abs(new).max():.3f}), "
              f"the shares before {np.sqrt(np.mean(old ** 2)):.3f} (max {np.abs(old).max():.3f})")
        if "third" in label:
            for name in sorted(set(r["name"] for r in group)):
                e = [(5e-6 + sum(c * r[t] for t, c in zip(TERMS, rounded))) / r["target"] - 1 for r in group if r["name"] == name]
                ratio = np.mean([r["ratio"] for r in group if r["name"] == name])
                print(f"  {name:36s} measured {ratio:.3f}x raw balanced CSR, error {np.mean(e):+.3f}")


if __name__ == "__main__":
    main()
