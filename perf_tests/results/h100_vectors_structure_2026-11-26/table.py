#!/usr/bin/env python3
"""call1_forced/: at 8 vectors, the plain call (4d88642's rules) beside the kernels forced, with each
matrix's structure (the analysis' lines an entry from the plain call's note; row lengths from
row_stats.json), as a markdown table.

  python3 table.py   # from this folder
"""
import collections
import json
import math
import re

stats = json.load(open("row_stats.json"))
rows = []
for f in ("call1_forced/real8.json", "call1_forced/unseen8_1.json", "call1_forced/unseen8_2.json"):
    rows += json.load(open(f))["results"]
times, note = collections.defaultdict(dict), {}
for r in rows:
    if r["status"] == "ok":
        times[r["matrix"]][r["kernel"]] = r["seconds"] * 1e6
        if r["kernel"] == "mv8L:kspmv:automatic":
            note[r["matrix"]] = r["note"]
print("| matrix | lines an entry | average row | variation | L plain | L lanes (best: width) | L balanced | "
      "L copy + row lanes | L copy + chunks | R plain | R row lanes | R chunks |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
table = []
for m, t in times.items():
    s = stats[m.split()[0]]
    q = float(re.search(r"lines/entry ([0-9.]+)", note[m]).group(1))
    lanes = {k.split("raw_lanes")[1]: v for k, v in t.items() if k.startswith("mv8L:kspmv:raw_lanes")}
    best = min(lanes.items(), key=lambda kv: kv[1]) if lanes else None
    g = lambda k: "%.0f" % t[k] if k in t else ""
    table.append((q, "| %s | %.3f | %.1f | %.2f | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        m, q, s["average"], s["variation"], g("mv8L:kspmv:automatic"),
        "%.0f (%s)" % (best[1], best[0]) if best else "", g("mv8L:kspmv:raw_balanced"),
        g("mv8L:kspmv:raw_row_lanes"), g("mv8L:kspmv:raw_chunks"), g("mv8R:kspmv:automatic"),
        g("mv8R:kspmv:raw_row_lanes"), g("mv8R:kspmv:raw_chunks"))))
for _, line in sorted(table):
    print(line)
