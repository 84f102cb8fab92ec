# python3 compare.py DIR BASE [KERNEL]: geometric mean of each round's best time over BASE's, per kernel;
# with KERNEL, the times per matrix (us). Rounds are the JSONs' name prefixes (m1, t4, c4, ...).
import json,sys,glob,gzip,math,collections
d=sys.argv[1]
runs=collections.defaultdict(lambda: collections.defaultdict(list))
for f in sorted(glob.glob(d+'/*.json.gz')):
    tag=f.split('/')[-1].split('_')[0]
    j=json.load(gzip.open(f)); rs=j['results'] if isinstance(j,dict) else j
    for r in rs:
        if r['status']!='ok': continue
        runs[tag][(r['matrix'],r['kernel'])].append(r['seconds'])
tags=sorted(runs)
base=tags[0] if len(sys.argv)<3 else sys.argv[2]
kernels=['kspmv:raw_csr_balanced','kspmv:raw_csr_balanced_512','kspmv:csr16','kspmv:automatic','kspmv:plan','kk:default']
mats=sorted(set(m for (m,k) in runs[base]))
for k in kernels:
    print('==',k)
    for t in tags:
        logs=[];
        for m in mats:
            a=runs[base].get((m,k)); b=runs[t].get((m,k))
            if a and b: logs.append(math.log(min(b)/min(a)))
        print(' ',t,'geomean time vs',base,'%.3f'%math.exp(sum(logs)/len(logs)), 'n',len(logs))
if len(sys.argv)>3:
    k=sys.argv[3]
    print('per matrix',k)
    for m in mats:
        print('  %-28s'%m[:28], ' '.join('%s %.1f'%(t,1e6*min(runs[t][(m,k)])) for t in tags if (m,k) in runs[t]))
