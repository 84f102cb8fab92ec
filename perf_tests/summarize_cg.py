#!/usr/bin/env python3
"""Table of a cg_bench run: python3 perf_tests/summarize_cg.py cg.json > summary.md

Per matrix: iterations (host CG, KokkosKernels' CG, kspmv::cg), the path CgPath::automatic took,
times to solution and per iteration, the speedup over KokkosKernels' CG with setups apart and
added, each forced path's speedup; then ranges and geometric means for the cache-resident
matrices (A and CG's six vectors below the H200's 60 MB L2) and the large ones."""
import json
import math
import sys

L2_MB = 60
data = json.load(open(sys.argv[1]))
rows, order, host = {}, [], {}
for r in data["results"]:
    m = r["matrix"]
    if r["solver"] == "host:cg":
        host[m] = r["iterations"]
        continue
    if m not in rows:
        rows[m] = {}
        order.append(m)
    rows[m][r["solver"]] = r
print("| matrix | rows | nnz | system MB | iterations: host / KK / kspmv | path (automatic) | KK CG solve (us) "
      "| kspmv solve (us) | speedup | with setups | per iteration KK / kspmv (us) | separate | fused_grid "
      "| fused_team | setup KK / kspmv plan (us) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
groups = {"cache-resident": ([], []), "large": ([], [])}
for m in order:
    R = rows[m]
    kk, a, sep = R["kk:cg"], R["kspmv:cg"], R["kspmv:cg_separate"]

    def forced(name):
        return "%.2fx" % (kk["solve_us"] / R[name]["solve_us"]) if name in R else "-"

    print("| %s | %d | %d | %.1f | %s / %d / %d%s | %s | %.0f | %.0f | **%.2fx** | %.2fx | %.1f / %.1f | %s | %s | %s "
          "| %.0f / %.0f |" % (m, a["rows"], a["nnz"], a["system_mb"], host.get(m, "-"), kk["iterations"],
                               a["iterations"], "" if kk["converged"] else " (max)", a["path"], kk["solve_us"],
                               a["solve_us"], a["speedup_vs_first"], a["speedup_with_setup_vs_first"],
                               kk["per_iteration_us"], a["per_iteration_us"], forced("kspmv:cg_separate"),
                               forced("kspmv:cg_fused_grid"), forced("kspmv:cg_fused_team"), kk["setup_us"],
                               sep["setup_us"]))
    group = groups["cache-resident" if a["system_mb"] < L2_MB else "large"]
    group[0].append(a["speedup_vs_first"])
    group[1].append(a["speedup_with_setup_vs_first"])


def geomean(v):
    return math.exp(sum(map(math.log, v)) / len(v))


print()
print("Speedup: KokkosKernels' CG time to solution over kspmv::cg's (CgPath::automatic), setups apart; "
      "\"with setups\" adds KokkosKernels' SpMV handle and kspmv's Plan (separate path; the fused paths have "
      "none) to one solve. The first matrix's KokkosKernels setup includes the CUDA libraries' initialisation.")
print()
for name, (speedups, with_setups) in groups.items():
    if speedups:
        print("%s: %d matrices, %.2f-%.2fx, geometric mean %.2fx; with setups %.2f-%.2fx." %
              (name, len(speedups), min(speedups), max(speedups), geomean(speedups), min(with_setups),
               max(with_setups)))
