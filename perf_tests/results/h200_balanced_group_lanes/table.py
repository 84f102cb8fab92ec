# Times of the group-bias rounds over the first (g0): python3 table.py FOLDER g0,g-1,g-2
import json,gzip,glob,collections,math,sys
d0=sys.argv[1]; vs=sys.argv[2].split(',')
t=collections.defaultdict(dict); info={}
for f in sorted(glob.glob(d0+'/g*.json.gz')):
    v=f.split('/')[-1].split('_')[0]
    d=json.load(gzip.open(f))
    for r in d['results']:
        if r['status']!='ok': continue
        t[(r['matrix'],r['kernel'])][v]=r['seconds']*1e6
        info[r['matrix']]=r['nnz']/r['rows']
base=vs[0]
for kern in ['kspmv:raw_csr_balanced','kspmv:raw_csr_balanced_512','kspmv:csr16','kspmv:automatic','kspmv:plan','kk:default']:
    out=[]
    for v in vs[1:]:
        g=0;n=0
        for (m,k),x in t.items():
            if k!=kern: continue
            g+=math.log(x[v]/x[base]); n+=1
        out.append('%s %.3f'%(v,math.exp(g/n)))
    print(kern, ' '.join(out))
rows=[]
for (m,k),v in t.items():
    if k=='kspmv:raw_csr_balanced':
        c=t[(m,'kspmv:csr16')]; a=t[(m,'kspmv:automatic')]
        rows.append((info[m],m,v[base])+tuple(v[x]/v[base] for x in vs[1:])+tuple(c[x]/c[base] for x in vs[1:])+tuple(a[x]/a[base] for x in vs[1:]))
for r in sorted(rows): print('%6.1f %-36s %6.1f '%r[:3]+' bal '+' '.join('%.3f'%x for x in r[3:3+len(vs)-1])+' c16 '+' '.join('%.3f'%x for x in r[3+len(vs)-1:3+2*(len(vs)-1)])+' auto '+' '.join('%.3f'%x for x in r[3+2*(len(vs)-1):]))
