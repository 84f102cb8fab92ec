import gzip,sys,json,os
import numpy as np
def read(path):
    f=gzip.open(path,'rt') if path.endswith('.gz') else open(path)
    h=f.readline().split(); sym=h[4].lower()
    line=f.readline()
    while line.startswith('%'): line=f.readline()
    m,n,e=map(int,line.split()[:3])
    a=np.loadtxt(f,usecols=(0,1),dtype=np.int64,max_rows=e,ndmin=2)-1
    i,j=a[:,0],a[:,1]
    if sym!='general':
        off=i!=j; i,j=np.concatenate([i,j[off]]),np.concatenate([j,i[off]])
    o=np.lexsort((j,i)); return m,n,i[o],j[o]
out={}
for p in sys.argv[1:]:
    m,n,i,j=read(p); nnz=len(i)
    # 4 copies block-diagonal to see cross-copy effects little; per copy is enough
    res={}
    for name,sz,div in (("warp_sectors",32,4),("block_lines",2048,16),("block_sectors",2048,4)):
        tot=0;cnt=0
        for a in range(0,nnz,sz):
            tot+=len(np.unique(j[a:a+sz]//div)); cnt+=min(sz,nnz-a)
        res[name]=tot/cnt
    res['avg_row']=nnz/m; res['n']=n
    out[os.path.basename(p).replace('.gz','')]=res
    print(os.path.basename(p),res,file=sys.stderr)
json.dump(out,sys.stdout,indent=0)
