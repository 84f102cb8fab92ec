#!/usr/bin/env python3
"""CodedCsrMatrix (kspmv:csr_coded) against raw balanced CSR per call on every matrix it accepts
(at most 256 distinct values), its setup, UniformCsrMatrix's time where that accepts the matrix,
and an estimate of the Plan amortised over `uses` with CodedCsrMatrix taken where it would be the
faster a use. Usage: python3 coded.py RUN.json[.gz] [uses]"""
import gzip, json, math, sys

path = sys.argv[1]
uses = float(sys.argv[2]) if len(sys.argv) > 2 else 100.0
d = json.load((gzip.open if path.endswith('.gz') else open)(path, 'rt'))
by = {}
for v in d.values():
    if isinstance(v, list):
        for r in v:
            by.setdefault(r['matrix'], {})[r['kernel']] = r
geo = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
ok = lambda r: r is not None and r['status'] == 'ok'
print("| matrix | raw balanced CSR [us] | CodedCsrMatrix [us] | ratio | its setup [us] | UniformCsrMatrix [us] | % copy bw (CSR bytes) |")
print("|---|---|---|---|---|---|---|")
valued = []
for m, k in by.items():
    c, u, b = k.get('kspmv:csr_coded'), k.get('kspmv:csr_uniform'), k['kspmv:raw_csr_balanced']
    if not ok(c):
        continue
    ratio = c['seconds'] / b['seconds']
    if not ok(u):
        valued.append((m, ratio, c))
    print(f"| {m} | {b['seconds']*1e6:.1f} | {c['seconds']*1e6:.1f} | {ratio:.3f} | {c['setup_seconds']*1e6:.0f} | "
          f"{u['seconds']*1e6:.1f} |" if ok(u) else
          f"| {m} | {b['seconds']*1e6:.1f} | {c['seconds']*1e6:.1f} | {ratio:.3f} | {c['setup_seconds']*1e6:.0f} | - |", end='')
    print(f" {c['frac_copy_bw']*100:.0f}% |")
print()
print(f"accepted: {sum(1 for k in by.values() if ok(k.get('kspmv:csr_coded')))} of {len(by)}; of many values (UniformCsrMatrix "
      f"refuses): {len(valued)}, CodedCsrMatrix per call {geo([r for _, r, _ in valued]):.3f}x raw balanced CSR's "
      f"({min(r for _, r, _ in valued):.3f}-{max(r for _, r, _ in valued):.3f})")
# The Plan amortised, and with CodedCsrMatrix where its time a use (setup / uses + call) is lower.
plan = {m: k['kspmv:plan']['seconds'] + k['kspmv:plan']['setup_seconds'] / uses for m, k in by.items()}
best = dict(plan)
for m, _, c in valued:
    best[m] = min(best[m], c['seconds'] + c['setup_seconds'] / uses)
kk = {m: k['kk:default']['seconds'] for m, k in by.items()}
for name, t in (('the Plan', plan), ('the Plan or CodedCsrMatrix', best)):
    all_ = geo([kk[m] / t[m] for m in by])
    val = geo([kk[m] / t[m] for m in by if not ok(by[m].get('kspmv:csr_uniform'))])
    print(f"{name}, amortised over {uses:.0f} uses: {all_:.3f}x KokkosKernels' default over {len(by)}, "
          f"{val:.3f}x over the {sum(1 for m in by if not ok(by[m].get('kspmv:csr_uniform')))} of many values")
