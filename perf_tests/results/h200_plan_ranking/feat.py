#!/usr/bin/env python3
# Row-length features of the replicated matrices: rows, nnz, longest, slots of slices of 32 rows
# (each padded to its longest row), for k block-diagonal copies.  feat.py K:FILE... > feat.json
import gzip,json,sys,math
def rowlens(path):
    f=gzip.open(path,'rt') if path.endswith('.gz') else open(path)
    h=f.readline().split(); sym=h[4].lower()
    line=f.readline()
    while line.startswith('%'): line=f.readline()
    m,n,e=map(int,line.split()[:3])
    L=[0]*m
    for _ in range(e):
        t=f.readline().split(); i=int(t[0])-1; j=int(t[1])-1
        L[i]+=1
        if sym!='general' and i!=j: L[j]+=1
    return m,n,L
def slots(L,copies,h=32):
    s=0; seq=L*copies
    for a in range(0,len(seq),h):
        s+=h*max(seq[a:a+h])
    return s
out={}
for spec in sys.argv[1:]:
    k,p=spec.split(':',1); k=int(k)
    m,n,L=rowlens(p)
    P=32//math.gcd(m,32)
    q,r=divmod(k,P)
    s=q*slots(L,P)+(slots(L,r) if r else 0)
    nnz=sum(L)
    name=p.split('/')[-1].replace('.gz','')
    out[name]=dict(k=k,rows=m*k,cols=n*k,nnz=nnz*k,longest=max(L),slots32=s,fill32=s/(nnz*k),
                   sA=sum(x for x in L if x<=8)/nnz,sB=sum(x for x in L if 8<x<64)/nnz,sC=sum(x for x in L if x>=64)/nnz,cv=(sum(x*x for x in L)/m-(nnz/m)**2)**0.5/(nnz/m) if nnz else 0)
    print(name,k,'%.3f'%(s/(nnz*k)),file=sys.stderr)
json.dump(out,sys.stdout,indent=0)
