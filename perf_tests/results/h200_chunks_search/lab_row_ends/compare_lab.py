# python3 compare_lab.py (in this folder): for each matrix and kernel at 8 vectors, the least of
# the two rounds' times of old_ (98ad514), new1_ (the search voting as a wave) and new2_ (new1 and
# row_ends.diff), their ratios, and per vector against old's rank-1 plain call
import re,glob,collections,os
os.chdir(os.path.dirname(os.path.abspath(__file__)))
t=collections.defaultdict(list)
for f in glob.glob('*_*_[12].log'):
    v=f.split('_')[0]
    for l in open(f):
        m=re.match(r'(\S+(?: x\d+)?)\s+(mv8[LR]:\S+|kspmv:automatic|kk:default)\s+([\d.]+)',l)
        if m: t[(m.group(1),m.group(2))].append((v,float(m.group(3))))
rank1={mat:min(x for v,x in vals if v=='old') for (mat,k),vals in t.items() if k=='kspmv:automatic'}
print("| matrix | kernel | old us | new1 us | new2 us | new1/old | new2/old | per vector old | new1 | new2 |")
print("|---|---|---|---|---|---|---|---|---|---|")
for (mat,k) in sorted(t):
    if not k.startswith('mv8') or not any(s in k for s in ('automatic','raw_chunks','staged')): continue
    d={}
    for v,x in t[(mat,k)]: d.setdefault(v,[]).append(x)
    o,a,b=min(d['old']),min(d['new1']),min(d['new2']); r=rank1[mat]
    print("| %s | %s | %.1f | %.1f | %.1f | %.3f | %.3f | %.3f | %.3f | %.3f |"%(mat,k,o,a,b,a/o,b/o,o/8/r,a/8/r,b/8/r))
