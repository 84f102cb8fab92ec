#!/usr/bin/env python3
"""One run of the Plan, matrix by matrix (setup amortised over 100 uses, as summarize.py): what it
chose, its time a use, the run's best kspmv kernel (every kspmv candidate but the Plan and the
plain call, setup amortised too), the Plan against it and against KokkosKernels' default, and raw
balanced CSR's and the best kernel's share of the copy bandwidth the run measured (CSR byte model).
Usage: python3 table.py RUN.json[.gz] [RUN2 ...]"""
import math, os, sys

# The helpers of the record before (load a run, geometric mean, setup amortised, best kernel, choice).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'h200_plan_csr16_rows'))
from table import load, geo, amortised, best, chose  # noqa: E402

def copy_share(r):
    return 100 * r.get('frac_copy_bw', float('nan'))

for path in sys.argv[1:]:
    run = load(path)
    ms = [m for m in run if 'kspmv:plan' in run[m]]
    vs_kk = [run[m]['kk:default']['seconds'] / amortised(run[m]['kspmv:plan']) for m in ms]
    vs_best = [amortised(run[m]['kspmv:plan']) / best(run[m])[0] for m in ms]
    auto = [run[m]['kk:default']['seconds'] / run[m]['kspmv:automatic']['seconds'] for m in ms if 'kspmv:automatic' in run[m]]
    print(f"## {path.split('/')[-1]}: {len(ms)} matrices")
    print(f"  Plan {geo(vs_kk):.3f}x KK default (lowest {min(vs_kk):.2f}x), within 5% of the best kspmv kernel on "
          f"{sum(1 for x in vs_best if x <= 1.05)} of {len(ms)} (worst {max(vs_best):.3f}x); plain call {geo(auto):.3f}x KK default (lowest {min(auto):.2f}x)")
    print()
    print("| matrix | entries a row | Plan chose | Plan [us a use] | best kspmv | best [us a use] | Plan/best | Plan vs KK default | raw balanced CSR % copy |")
    print("|---|---|---|---|---|---|---|---|---|")
    for m, x, k in sorted(zip(ms, vs_best, vs_kk), key=lambda t: -t[1]):
        r = run[m]
        b = best(r)
        print(f"| {m} | {r['kspmv:plan']['nnz']/r['kspmv:plan']['rows']:.1f} | {chose(r)} | {amortised(r['kspmv:plan'])*1e6:.1f} | "
              f"{b[1].replace('kspmv:', '')} | {b[0]*1e6:.1f} | {x:.3f} | {k:.2f}x | {copy_share(r['kspmv:raw_csr_balanced']):.1f} |")
    print()
