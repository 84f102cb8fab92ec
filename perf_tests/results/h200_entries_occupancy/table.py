# Per vector at 8 vectors over a rank-1 call, new (n_*) beside old (o_*): python3 table.py FOLDER
import json,gzip,glob,collections,sys
d0=sys.argv[1]
t=collections.defaultdict(dict)
for f in sorted(glob.glob(d0+'/*_*_*.json.gz')):
    b=f.split('/')[-1].split('_')[0]
    d=json.load(gzip.open(f))
    for r in d['results']:
        if r['status']!='ok': continue
        t[r['matrix']].setdefault(b,{})[r['kernel']]=r['seconds']*1e6
print('| matrix | layout | old [us] | new [us] | new/old | KK default [us] | new vs KK | per vector at 8 / rank-1 (new) | (old) |')
print('|---|---|---|---|---|---|---|---|---|')
over=[]
for m in t:
    n=t[m]['n']; o=t[m]['o']
    r1n=n['kspmv:automatic']; r1o=o['kspmv:automatic']
    for L in 'LR':
        k='mv8%s:kspmv:automatic'%L; kk='mv8%s:kk:default'%L
        pvn=n[k]/8/r1n; pvo=o[k]/8/r1o
        if pvn>0.5: over.append((m,L,round(pvn,3)))
        print('| %s | %s | %.0f | %.0f | %.3f | %.0f | %.2fx | %.3f | %.3f |'%(m,L,o[k],n[k],n[k]/o[k],n[kk],n[kk]/n[k],pvn,pvo))
print('per vector above 0.5 (new):',over)
