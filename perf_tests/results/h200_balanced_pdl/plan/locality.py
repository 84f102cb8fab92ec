#!/usr/bin/env python3
"""Raw balanced CSR's fraction of copy bandwidth (CSR byte model; the faster of its 256- and
512-thread blocks) and Csr16Matrix's time over it, against the lines of x a window of rows
gathers per entry (raw::RowStatistics, as perf_tests/automatic_choice computed them for
h200_real46/choices_replicated.txt), for the 46 matrices of perf_tests/matrices, from after/.

  locality.py > locality.md
"""
import json
import re

lines = {}
for line in open("../../h200_real46/choices_replicated.txt"):
    m = re.match(r"(\S+ x\d+) \| avg\s+([\d.]+).*lines/entry ([\d.]+)", line)
    if m:
        lines[m.group(1)] = (float(m.group(2)), float(m.group(3)))
res = {}
for f in ("after/csr_a.json", "after/csr_b.json"):
    for x in json.load(open(f))["results"]:
        if x["status"] == "ok":
            res.setdefault(x["matrix"], {})[x["kernel"]] = x
print("| lines of x an entry | raw balanced CSR, % copy bandwidth | Csr16Matrix / raw balanced CSR | entries a row | matrix |")
print("|---|---|---|---|---|")
rows = []
for m, (average, per_entry) in lines.items():
    v = res[m]
    b256 = v["kspmv:raw_csr_balanced"]
    best = min(b256["seconds"], v.get("kspmv:raw_csr_balanced_512", b256)["seconds"])
    rows.append((per_entry, b256["frac_copy_bw"] * b256["seconds"] / best, v["kspmv:csr16"]["seconds"] / best, average, m))
for r in sorted(rows):
    print(f"| {r[0]:.3f} | {100 * r[1]:.1f} | {r[2]:.3f} | {r[3]:.1f} | {r[4]} |")
