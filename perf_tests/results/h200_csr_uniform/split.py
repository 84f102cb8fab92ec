#!/usr/bin/env python3
"""The Plan against KokkosKernels' default (setup amortised over 100 uses, as summarize.py),
over all matrices, those whose values are all one (UniformCsrMatrix accepts them: kspmv:csr_uniform
ran) and the others; per call, UniformCsrMatrix against raw balanced CSR.
Usage: python3 split.py RUN.json[.gz] [OLD.json[.gz]]"""
import gzip, json, math, sys

def load(path):
    op = gzip.open if path.endswith('.gz') else open
    d = json.load(op(path, 'rt'))
    by = {}
    for v in d.values():
        if isinstance(v, list):
            for r in v:
                by.setdefault(r['matrix'], {})[r['kernel']] = r
    return by

def geo(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float('nan')

def plan_vs_kk(k, uses=100):
    p, kk = k['kspmv:plan'], k['kk:default']
    return kk['seconds'] / (p['seconds'] + p['setup_seconds'] / uses)

def uniform(k):
    u = k.get('kspmv:csr_uniform')
    return u is not None and u['status'] == 'ok'

runs = [load(p) for p in sys.argv[1:]]
new = runs[0]
groups = {'all': list(new), 'one value': [m for m in new if uniform(new[m])],
          'values differ': [m for m in new if not uniform(new[m])]}
for name, ms in groups.items():
    line = f"{name:14s} {len(ms):3d} matrices: Plan vs KK default (amortised over 100 uses)"
    for run, path in zip(runs, sys.argv[1:]):
        xs = [plan_vs_kk(run[m]) for m in ms if m in run]
        line += f"  {path.split('/')[-1]}: {geo(xs):.3f}x (lowest {min(xs):.2f}x)"
    print(line)
ratios = [new[m]['kspmv:csr_uniform']['seconds'] / new[m]['kspmv:raw_csr_balanced']['seconds'] for m in groups['one value']]
print(f"UniformCsrMatrix per call / raw balanced CSR's: geometric mean {geo(ratios):.3f}, {min(ratios):.3f}-{max(ratios):.3f}")
print()
print("| matrix | raw balanced CSR [us] | UniformCsrMatrix [us] | ratio | % copy bw (CSR bytes) | % copy bw (its own bytes) | its setup [us] | Plan chose | Plan vs KK default |")
print("|---|---|---|---|---|---|---|---|---|")
for m in groups['one value']:
    k = new[m]; u = k['kspmv:csr_uniform']; b = k['kspmv:raw_csr_balanced']
    chose = k['kspmv:plan']['note'].split(';')[0].replace('chose ', '')
    # Its own bytes: int column indices and offsets, no values; x and y in double (the runs' types).
    csr_bytes = u['nnz'] * 12 + (u['rows'] + 1) * 4 + u['cols'] * 8 + u['rows'] * 8
    own_bytes = u['nnz'] * 4 + (u['rows'] + 1) * 4 + u['cols'] * 8 + u['rows'] * 8
    print(f"| {m} | {b['seconds']*1e6:.1f} | {u['seconds']*1e6:.1f} | {u['seconds']/b['seconds']:.3f} | {u['frac_copy_bw']*100:.0f}% | {u['frac_copy_bw']*own_bytes/csr_bytes*100:.0f}% | {u['setup_seconds']*1e6:.0f} | {chose} | {plan_vs_kk(k):.2f}x |")
