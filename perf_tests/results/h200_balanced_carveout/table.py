#!/usr/bin/env python3
# Call 2 by matrix: KokkosKernels default over each raw balanced form (its time / the form's), the baseline the
# better of 256 and 512 threads at the driver's split (best of the two d rounds), "new" the best of every form.
# python3 table.py
import json,gzip,collections,sys
def load(f):
  d=json.load(gzip.open(f)); t=collections.defaultdict(dict)
  for x in d['results']:
    if x['seconds']: t[x['matrix']][x['kernel']]=x['seconds']
  return t
import os
D=os.path.join(os.path.dirname(os.path.abspath(__file__)),'call2')
runs={n:load(os.path.join(D,f)) for n,f in [('d1','cd_1.json.gz'),('c43','c43_2.json.gz'),('c57','c57_3.json.gz'),('d4','cd_4.json.gz')]}
import math
g=collections.defaultdict(list)
for m in sorted(runs['d1']):
  kk=min(runs[r][m]['kk:default'] for r in ('d1','d4'))
  base=min(min(runs[r][m]['kspmv:raw_csr_balanced'],runs[r][m]['kspmv:raw_csr_balanced_512']) for r in ('d1','d4'))
  b256=min(runs[r][m]['kspmv:raw_csr_balanced'] for r in ('d1','d4'))
  c57=runs['c57'][m]['kspmv:raw_csr_balanced']; c43_5=runs['c43'][m]['kspmv:raw_csr_balanced_512']; c43_2=runs['c43'][m]['kspmv:raw_csr_balanced']
  b512=min(runs[r][m]['kspmv:raw_csr_balanced_512'] for r in ('d1','d4'))
  new=min(base,c57,c43_5,c43_2)
  print('%-28s kk/base %.3f kk/new %.3f  256:%.3f 256c57:%.3f 256c43:%.3f 512:%.3f 512c43:%.3f'%(m[:28],kk/base,kk/new,kk/b256,kk/c57,kk/c43_2,kk/b512,kk/c43_5))
  g['base'].append(kk/base); g['new'].append(kk/new)
for k,v in g.items(): print(k, math.exp(sum(map(math.log,v))/len(v)))
