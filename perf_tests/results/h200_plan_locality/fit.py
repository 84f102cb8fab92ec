#!/usr/bin/env python3
"""The plan model's constants for raw balanced CSR and Csr16Matrix (include/kspmv/impl/plan_model.hpp),
fitted to spmv_bench JSON of --kernels csr on the 53 replicated real matrices: for the 46 of
perf_tests/matrices (their lines of x an entry: h200_real46/choices_replicated.txt),

  time x copy bandwidth = bytes / e + nnz x lines x g

where rows average fewer than 64 entries (two warps); e by least squares with g, then g fixed
at 11.5 for Csr16Matrix; where rows average 64 or more, no gather term and e per kernel; and
Csr16Matrix's measured conversion against the plan's generic estimate.

  fit.py RUN.json [RUN2.json ...]   (a call's halves may be given together as one run: a+b)
"""
import json
import re
import statistics
import sys

lines = {}
for line in open("../h200_real46/choices_replicated.txt"):
    m = re.match(r"(\S+ x\d+) \| avg\s+([\d.]+).*lines/entry ([\d.]+)", line)
    if m:
        lines[m.group(1)] = (float(m.group(2)), float(m.group(3)))

def load(spec):
    res, bw = {}, []
    for f in spec.split("+"):
        d = json.load(open(f))
        bw.append(d["copy_bandwidth_gbs"] * 1e9)
        for x in d["results"]:
            if x["status"] == "ok":
                res.setdefault(x["matrix"], {})[x["kernel"]] = x
    return res, sum(bw) / len(bw)

def bytes_of(r, kernel):
    n, rows, cols = r["nnz"], r["rows"], r["cols"]
    vectors = 8 * (rows + cols)
    if kernel == "kspmv:csr16":
        return n * 10 + (rows + 1) * 4 + (n / 2048) * 12 + vectors
    return n * 12 + (rows + 1) * 4 + vectors

for spec in sys.argv[1:]:
    res, bw = load(spec)
    print(spec, "copy bandwidth %.0f GB/s" % (bw * 1e-9))
    for kernel in ("kspmv:raw_csr_balanced", "kspmv:csr16"):
        ys, zs, long_rates = [], [], []
        for m, (average, per_entry) in lines.items():
            v = res[m]
            r = v[kernel]
            t = r["seconds"]
            if kernel == "kspmv:raw_csr_balanced":  # the faster block size, as the plan runs it
                t = min(t, v["kspmv:raw_csr_balanced_512"]["seconds"])
            b = bytes_of(r, kernel)
            if average >= 64:
                long_rates.append(b / (t * bw))
                continue
            ys.append(t * bw / b)
            zs.append(r["nnz"] * per_entry / b)
        n = len(ys)
        mz, my = sum(zs) / n, sum(ys) / n
        g = sum((z - mz) * (y - my) for z, y in zip(zs, ys)) / sum((z - mz) ** 2 for z in zs)
        a = my - g * mz
        err = [(a + g * z) / y for z, y in zip(zs, ys)]
        rms = (sum((e - 1) ** 2 for e in err) / n) ** 0.5
        fixed = statistics.mean(y - 11.5 * z for y, z in zip(ys, zs))
        print("  %s: e %.3f, g %.1f bytes a line (rms %.3f, predicted/measured %.3f-%.3f); with g = 11.5: e %.3f;"
              " rows of 64+ entries: e %.3f (%.3f-%.3f)" % (kernel, 1 / a, g, rms, min(err), max(err), 1 / fixed,
                                                           statistics.mean(long_rates), min(long_rates), max(long_rates)))
    ratios = []
    for m, v in res.items():
        r = v.get("kspmv:csr16")
        if r is None:
            continue
        csr = r["nnz"] * 12 + (r["rows"] + 1) * 4 + 8 * (r["rows"] + r["cols"])
        generic = 50e-6 + 2 * (3 * csr + bytes_of(r, "kspmv:csr16")) / bw
        ratios.append(r["setup_seconds"] / generic)
    print("  Csr16Matrix's conversion / the generic estimate: median %.2f (%.2f-%.2f) over %d" %
          (statistics.median(ratios), min(ratios), max(ratios), len(ratios)))
