import gzip, json, sys, math, collections
# usage: cmp.py base.json[+base2.json] new.json[+new2.json]  (per kernel geometric mean new/base, and per matrix)
def load(spec):
    t = collections.defaultdict(list)
    for f in spec.split('+'):
        for r in json.load(gzip.open(f, 'rt') if f.endswith('.gz') else open(f))['results']:
            if r['status'] == 'ok': t[(r['matrix'], r['kernel'])].append(r['seconds'])
    return {k: min(v) if False else sorted(v)[len(v)//2] for k, v in t.items()}
b = load(sys.argv[1]); n = load(sys.argv[2])
kernels = sorted({k for _, k in b})
show = sys.argv[3].split(',') if len(sys.argv) > 3 else ['kspmv:raw_csr_balanced', 'kspmv:csr16', 'kspmv:plan', 'kspmv:automatic']
for kern in kernels:
    rs = [n[(m, k)] / b[(m, k)] for (m, k) in b if k == kern and (m, k) in n]
    if rs: print(f"{kern:40s} n={len(rs):3d} geo={math.exp(sum(map(math.log, rs))/len(rs)):.3f} min={min(rs):.3f} max={max(rs):.3f}")
mats = sorted({m for m, _ in b})
print('matrix', *show)
for m in mats:
    print(f"{m:38s}", ' '.join(f"{n.get((m,k),float('nan'))/b[(m,k)]:.3f}" if (m,k) in b else '  -  ' for k in show))
