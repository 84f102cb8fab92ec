#!/usr/bin/env python3
"""The plan model's thread-a-row (csr_scalar) and raw vector CSR (4 lanes) terms on rows of more
than 8 entries (include/kspmv/impl/plan_model.hpp, ModelConstants: csr_scalar_mid_*,
raw_vector_mid_*), fitted to runs of the 53 and the 25 and checked on the third set.

  python3 fit.py [--search]     (from this folder; numpy; reads the matrices to compute their
                                 row statistics, and the runs named below)

A run's plan notes give each candidate's predicted time; B and G are as the Plan computes them:
CSR's bytes at the bandwidth the Plan measured (plan_bandwidth), and the gathers' charge G
(gather_line_bytes a line a window gathers, the plain call's analysis), what raw balanced CSR's
prediction holds beyond latency and its bytes at 0.99 (0.91 on rows of 64 or more). Each kernel's call is modelled as
  latency + serial x longest row + sum of coefficients x terms,
with terms in seconds: B (CSR's bytes at copy bandwidth), G, B x (average - 8) / 8,
B x min(row-length variation, 3), B x ln(fill) (fill: blocked ELLPACK's slots in slices of 32 rows
/ nnz), fitted by least squares on the relative error over every run of the matrices whose rows
fall in the class. --search tries B with up to three of ten terms for the thread a row (the search
that chose the terms: it read the third set's runs too) and prints them by the pairs they rank
wrongly over all three sets.
"""
import gzip
import itertools
import json
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.dirname(HERE)
REPO = os.path.dirname(os.path.dirname(RESULTS)) if os.path.isdir(os.path.join(os.path.dirname(os.path.dirname(RESULTS)), "perf_tests")) else "/work/main"
SETS = {  # runs of 716bda7's kernels and model (main at d461b08 has the same)
    "53": ["h200_balanced_sum_phase/main_again/q_1.json.gz", "h200_balanced_sum_phase/main_again/q_4.json.gz",
           "h200_coded_conversion/p_1.json.gz", "h200_coded_conversion/repeat/p_2.json.gz"],
    "25": ["h200_balanced_sum_phase/main_again/Q_2.json.gz", "h200_balanced_sum_phase/main_again/Q_3.json.gz",
           "h200_coded_conversion/P_2.json.gz", "h200_coded_conversion/repeat/P_1.json.gz"],
    "third": ["h200_plan_scalar_variation/before/qc_1.json.gz", "h200_plan_scalar_variation/before/qc_2.json.gz"],
}
MATRIX_DIRS = [os.path.join(REPO, d) for d in ("perf_tests/matrices", "perf_tests/matrices_unseen",
                                              "perf_tests/matrices_third", "unit_tests/data", "../shared/matrices")]


def read_lengths(name):
    for d in MATRIX_DIRS:
        for path in (os.path.join(d, name), os.path.join(d, name + ".gz")):
            if os.path.exists(path):
                opener = gzip.open if path.endswith(".gz") else open
                with opener(path, "rt") as f:
                    header = f.readline().lower()
                    line = f.readline()
                    while line.startswith("%") or not line.strip():
                        line = f.readline()
                    m, n, _ = (int(t) for t in line.split()[:3])
                    e = np.loadtxt(f, usecols=(0, 1), dtype=np.int64, ndmin=2)
                r, c = e[:, 0] - 1, e[:, 1] - 1
                if "symmetric" in header or "hermitian" in header or "skew" in header:
                    off = r != c
                    r, c = np.concatenate([r, c[off]]), np.concatenate([c, r[off]])
                key = np.unique(r * n + c)
                return np.bincount(key // n, minlength=m)
    raise FileNotFoundError(name)


def features(name, cache={}):
    if name not in cache:
        cnt = read_lengths(name)
        nnz = cnt.sum()
        pad = np.concatenate([cnt, np.zeros((-len(cnt)) % 32, dtype=cnt.dtype)])
        cache[name] = dict(fill=pad.reshape(-1, 32).max(1).sum() * 32 / nnz, variation=cnt.std() / cnt.mean(),
                           longest=int(cnt.max()), s8=cnt[cnt <= 8].sum() / nnz, s16=cnt[cnt <= 16].sum() / nnz,
                           median=float(np.median(cnt)), entry_median=float(np.sort(np.repeat(cnt, cnt))[nnz // 2]))
    return cache[name]


def lanes(average):  # launch.hpp: raw_vector_lanes on a 32-lane warp
    l = 4
    while l * 2 <= 32 and l * 2 * 3 <= average:
        l *= 2
    return l


def predictions(plan_row):
    fields = plan_row["note"].split("predicted setup/SpMV us:")[1].split()
    return {fields[i]: float(fields[i + 1].split("/")[1]) * 1e-6 for i in range(0, len(fields), 2)}


def csr_bytes(p):
    return p["nnz"] * 12 + (p["rows"] + 1) * 4 + (p["rows"] + p["cols"]) * 8


def plan_bandwidth(by):
    """The copy bandwidth the run's Plan measured (impl::device_bandwidth: 256 MB buffers; the
    run's own figure, of 4 GB buffers, is 6-7% higher), from its predictions on rows of 8 entries
    or fewer, where a thread a row and raw balanced CSR differ by CSR's bytes at 1/0.70 - 1/0.99
    and the longest row's serial time (the median over the run's matrices; they agree to 0.01%)."""
    found = []
    for m, ks in by.items():
        p = ks.get("kspmv:plan")
        if not p or "predicted" not in p["note"] or p["nnz"] > 8 * p["rows"]:
            continue
        pred = predictions(p)
        extra = pred["csr_scalar"] - pred["raw_csr_balanced"] - features(m.split(" ")[0])["longest"] * 80e-9
        found.append(csr_bytes(p) * (1 / 0.70 - 1 / 0.99) / extra)
    return sorted(found)[len(found) // 2]


def load(files):
    runs = []
    for f in files:
        d = json.load(gzip.open(os.path.join(RESULTS, f)))
        by = {}
        for r in d["results"]:
            if r.get("vectors", 1) == 1 and r.get("status") == "ok":
                by.setdefault(r["matrix"], {})[r["kernel"]] = r
        bw = plan_bandwidth(by)
        for m, ks in by.items():
            p = ks.get("kspmv:plan")
            if not p or "predicted" not in p["note"]:
                continue
            pred = predictions(p)
            nnz, rows, cols = p["nnz"], p["rows"], p["cols"]
            average = nnz / rows
            B = csr_bytes(p) / bw
            G = pred["raw_csr_balanced"] - 5e-6 - B / (0.91 if average >= 64 else 0.99)
            fe = features(m.split(" ")[0])
            runs.append(dict(fe, matrix=m, average=average, B=B, G=G, lines=G * bw / (nnz * 11.5), cols_rows=cols / rows,
                             scalar=ks["kspmv:csr_scalar"]["seconds"], vector=ks["kspmv:raw_csr_vector"]["seconds"]))
    return runs


def terms(r):
    return {"B": r["B"], "G": r["G"], "B_average": r["B"] * (r["average"] - 8) / 8,
            "B_variation": r["B"] * min(r["variation"], 3), "B_lnfill": r["B"] * math.log(r["fill"]),
            "G_lnfill": r["G"] * math.log(r["fill"]), "B_lines": r["B"] * r["lines"], "B_s8": r["B"] * r["s8"],
            "B_s16": r["B"] * r["s16"], "B_median": r["B"] * (r["median"] - 8) / 8,
            "B_entry_median": r["B"] * min(r["entry_median"], 64) / 16, "B_lncols": r["B"] * math.log(r["cols_rows"])}


scalar_class = lambda r: 8 < r["average"] <= 16
vector_class = lambda r: 8 < r["average"] and lanes(r["average"]) == 4


def before(r):  # the model these terms replace (0.74 / fill^0.25, 0.72; the others unchanged)
    a, f = r["average"], r["fill"]
    rs = 0.70 if a <= 8 else (0.74 / f ** 0.25 if a <= 16 else 0.36)
    rv = 0.89 if lanes(a) > 4 else (0.72 if a > 8 else 0.61)
    G = r["G"] if a < 64 else 0
    return 5e-6 + r["B"] / rs + G + r["longest"] * 80e-9, 5e-6 + r["B"] / rv + G + r["longest"] * 25e-9


def fit(runs, cls, kernel, names, serial):
    X = np.array([[terms(r)[n] for n in names] for r in runs if cls(r)])
    y = np.array([r[kernel] - 5e-6 - r["longest"] * serial for r in runs if cls(r)])
    c, *_ = np.linalg.lstsq(X / y[:, None], np.ones(len(y)), rcond=None)
    return c


def model(sn, sc, vn, vc):
    def predict(r):
        s, v = before(r)
        t = terms(r)
        if scalar_class(r):
            s = 5e-6 + sum(c * t[n] for c, n in zip(sc, sn)) + r["longest"] * 80e-9
        if vector_class(r):
            v = 5e-6 + sum(c * t[n] for c, n in zip(vc, vn)) + r["longest"] * 25e-9
        return s, v
    return predict


def evaluate(runs, predict):
    pairs = right = 0
    es, ev, wrong = [], [], set()
    for r in runs:
        s, v = predict(r)
        if scalar_class(r):
            es.append(math.log(s / r["scalar"]))
        if vector_class(r):
            ev.append(math.log(v / r["vector"]))
        if max(r["scalar"], r["vector"]) > 1.1 * min(r["scalar"], r["vector"]):
            pairs += 1
            if (s < v) == (r["scalar"] < r["vector"]):
                right += 1
            else:
                wrong.add(r["matrix"])
    rms = lambda e: math.sqrt(np.mean(np.square(e))) if e else 0.0
    return pairs, right, rms(es), rms(ev), sorted(wrong)


def report(label, runs, predict):
    pairs, right, es, ev, wrong = evaluate(runs, predict)
    print(f"  {label}: {right} of {pairs} runs' pairs (thread a row, raw vector CSR) more than 10% apart ranked as "
          f"measured; rms error thread a row {es:.3f}, raw vector CSR {ev:.3f}" + (f"; wrong: {', '.join(wrong)}" if wrong else ""))


def main():
    runs = {k: load(v) for k, v in SETS.items()}
    train = runs["53"] + runs["25"]
    sn, vn = ["B", "G", "B_average", "B_variation"], ["B", "G", "B_lnfill"]
    sc, vc = fit(train, scalar_class, "scalar", sn, 80e-9), fit(train, vector_class, "vector", vn, 25e-9)
    print("thread a row, rows of 9-16 entries:", dict(zip(sn, np.round(sc, 3))))
    print("raw vector CSR, 4 lanes, rows of 9 or more:", dict(zip(vn, np.round(vc, 3))))
    sc, vc = np.round(sc, 2), np.round(vc, 2)  # as plan_model.hpp has them
    for label, predictor in (("before", before), ("fitted (rounded)", model(sn, sc, vn, vc))):
        print(label)
        for k in runs:
            report(k, runs[k], predictor)
    print("each set fitted alone, checked on the other:")
    for a, b in (("53", "25"), ("25", "53")):
        p = model(sn, fit(runs[a], scalar_class, "scalar", sn, 80e-9), vn, fit(runs[a], vector_class, "vector", vn, 25e-9))
        report(f"fitted on the {a}, checked on the {b}", runs[b], p)
    if "--search" in sys.argv:
        pool = ["G", "B_lnfill", "B_s8", "B_s16", "B_average", "B_variation", "B_median", "B_entry_median",
                "B_lncols", "B_lines"]
        print("thread-a-row terms (B and up to three of the pool), raw vector CSR's as above:")
        rows = []
        for k in (1, 2, 3):
            for comb in itertools.combinations(pool, k):
                names = ["B"] + list(comb)
                c = fit(train, scalar_class, "scalar", names, 80e-9)
                e1, e2 = evaluate(train, model(names, c, vn, vc)), evaluate(runs["third"], model(names, c, vn, vc))
                rows.append((e1[0] - e1[1] + e2[0] - e2[1], e1[2], names, np.round(c, 2), e1[:2], e2[:2]))
        for row in sorted(rows, key=lambda x: (x[0], x[1]))[:20]:
            print("  wrong", row[0], row[2], row[3], "53+25 (pairs, right)", row[4], "third", row[5])


if __name__ == "__main__":
    main()
