#!/usr/bin/env python3
"""CodedCsrMatrix's time a call against raw balanced CSR's (the same run's bench rows), grouped
by how many 128-byte lines its table spans (distinct values x 8 bytes in double), the medians
the plan model takes (plan_model.hpp: coded_one_line, coded_more_lines); and its setup.
Distinct values are counted in the Matrix Market files (pattern files: 1), looked up by name in
perf_tests/matrices and ../shared/matrices.
  python3 ratio.py RUN.json.gz...          (from the repository root's perf_tests/results/h200_plan_csr_coded)"""
import gzip, json, os, sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
DIRS = [os.path.join(ROOT, "perf_tests", "matrices"), os.path.join(ROOT, "..", "shared", "matrices")]

def distinct_values(name):
    for d in DIRS:
        for path in (os.path.join(d, name + ".gz"), os.path.join(d, name)):
            if os.path.exists(path):
                with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
                    header = f.readline().split()
                    if header[3] == "pattern":
                        return 1
                    line = f.readline()
                    while line.startswith("%"):
                        line = f.readline()
                    return len({float(t.split()[2]) for t in f if len(t.split()) > 2})
    return None

def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]

groups = {"one line": [], "more lines": []}
cache = {}
for path in sys.argv[1:]:
    rows = {}
    for r in json.load(gzip.open(path))["results"]:
        if r["status"] == "ok":
            rows.setdefault(r["matrix"], {})[r["kernel"]] = r
    for m, k in rows.items():
        if "kspmv:csr_coded" not in k:
            continue
        name = m.split(" x")[0]
        if name not in cache:
            cache[name] = distinct_values(name)
        values = cache[name]
        ratio = k["kspmv:csr_coded"]["seconds"] / k["kspmv:raw_csr_balanced"]["seconds"]
        groups["one line" if values * 8 <= 128 else "more lines"].append(
            (ratio, m, values, k["kspmv:csr_coded"]["setup_seconds"]))
for g, v in groups.items():
    if not v:
        continue
    print(f"table of {g}: {len(v)} runs, CodedCsrMatrix a call / raw balanced CSR's: median {median([x[0] for x in v]):.3f} "
          f"({min(v)[0]:.3f}-{max(v)[0]:.3f}); setup {min(x[3] for x in v)*1e6:.0f}-{max(x[3] for x in v)*1e6:.0f} us")
    for ratio, m, values, setup in sorted(set((round(x[0], 3), x[1], x[2], round(x[3] * 1e6)) for x in v)):
        print(f"    {m:40s} {values:4d} values  {ratio:.3f}  setup {setup} us")
