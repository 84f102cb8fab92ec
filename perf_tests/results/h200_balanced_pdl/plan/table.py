#!/usr/bin/env python3
"""The Plan, Csr16Matrix, raw balanced CSR and the plain call against KokkosKernels' default over
the matrices of one or more spmv_bench JSON files (one call's halves), the matrices where the
plan took more than 1.05x the time of the fastest other kspmv kernel, and the plan's choice on a
few.

  table.py csr_a.json csr_b.json
"""
import json,math,sys
res={}
for f in sys.argv[1:]:
  d=json.load(open(f)); print(f, d['copy_bandwidth_gbs'])
  for x in d['results']:
    if x['status']=='ok': res.setdefault(x['matrix'],{})[x['kernel']]=x
g=lambda v: math.exp(sum(map(math.log,v))/len(v))
for cand in ['kspmv:automatic','kspmv:plan','kspmv:csr16','kspmv:raw_csr_balanced']:
  r=[v['kk:default']['seconds']/v[cand]['seconds'] for v in res.values() if cand in v]
  print(cand, len(r), 'geo vs kk %.3f'%g(r), 'min %.3f'%min(r), 'n<1.05', sum(x<1.05 for x in r))
bad=[]
for m,v in res.items():
  best=min((x['seconds'],k) for k,x in v.items() if k.startswith('kspmv:') and k!='kspmv:plan')
  p=v['kspmv:plan']['seconds']
  if p>1.05*best[0]: bad.append((m,round(p/best[0],3),best[1],v['kspmv:plan'].get('note','')[:40]))
print('plan >5% over best:',len(bad)); [print(b) for b in bad]
for m in ['fit2d.mtx x388','wood1p.mtx x713','lp_d6cube.mtx x1327','bcsstk33.mtx x85','tomography.mtx x1741','bcsstk16.mtx x173']:
  v=res[m]; print(m, v['kspmv:plan']['note'][:45], 'plan/best %.3f'%(v['kspmv:plan']['seconds']/min(x['seconds'] for k,x in v.items() if k.startswith('kspmv:') and k!='kspmv:plan')))
