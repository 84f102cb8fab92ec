#!/usr/bin/env python3
# The plain call (kspmv:automatic) a matrix, the least time of each variant's rounds, as a ratio to the first
# variant's; a variant is the start of a file's name before '_'.  python3 cmp.py DIR V0,V1,... RUN.json.gz...
import json,gzip,sys,math,collections
d=sys.argv[1]; variants=sys.argv[2].split(','); files=sys.argv[3:]
T=collections.defaultdict(lambda: collections.defaultdict(list)); F={}; KK=collections.defaultdict(list)
import glob,os
for f in files:
    v=os.path.basename(f).split('_')[0]
    for r in json.load(gzip.open(f))['results']:
        if r['kernel']=='kspmv:automatic' and r.get('seconds'):
            T[r['matrix']][v].append(r['seconds']); F.setdefault(r['matrix'],{})[v]=r.get('frac_copy_bw')
        if r['kernel']=='kk:default' and r.get('seconds'): KK[r['matrix']].append(r['seconds'])
base=variants[0]; logs={v:[] for v in variants}
print('matrix'.ljust(36),' '.join(v.rjust(8) for v in variants))
for m in sorted(T, key=lambda m: min(T[m][base]) and F[m].get(base,0)):
    t={v:min(T[m][v]) for v in variants if T[m][v]}
    if base not in t: continue
    for v in t: logs[v].append(math.log(t[v]/t[base]))
    print(m[:36].ljust(36), ' '.join(('%.3f'%(t[v]/t[base])).rjust(8) if v in t else '       -' for v in variants), ' frac %.3f'%(F[m].get(base) or 0))
print('geo'.ljust(36),' '.join(('%.4f'%math.exp(sum(logs[v])/len(logs[v]))).rjust(8) if logs[v] else '' for v in variants))
