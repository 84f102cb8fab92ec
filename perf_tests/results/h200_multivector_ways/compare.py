# python3 compare.py RECORD [BASELINE] (a directory, or a directory and a file prefix, e.g.
# call2/new_ call2/old_): the plain call (kspmv:automatic) at each vector count and
# layout of RECORD's real/unseen/large JSONs: its first call's setup in calls (setup/x), its time
# against BASELINE's (default: h200_multivector_lab_2026-11-26/staged_plain, the code before),
# against the run's best kspmv kernel, KokkosKernels' default against it, and the time per vector
# against the rank-1 plain call of the same run.
import json,gzip,re,sys,os
here=os.path.dirname(os.path.abspath(__file__))
record=sys.argv[1]
baseline=sys.argv[2] if len(sys.argv)>2 else os.path.join(here,'..','h200_multivector_lab_2026-11-26','staged_plain')
def load(fs):
    t={}; one={}
    for f in fs:
        for r in json.load(gzip.open(f))['results']:
            if r['status']!='ok': continue
            m=re.match(r'mv(\d+)([LR]):(.*)',r['kernel'])
            name=r['matrix']
            if not m:
                if r['kernel']=='kspmv:automatic': one[name]=r['seconds']
                continue
            t.setdefault((name,int(m.group(1)),m.group(2)),{})[m.group(3)]=(r['seconds'],r.get('setup_over_spmv'))
    return t,one
def files(p):
    base=p if p.endswith('_') else os.path.join(p,'')
    return [base+'%s.json.gz'%n for n in ('real','unseen','large') if os.path.exists(base+'%s.json.gz'%n)]
new,one=load(files(record))
old,one_old=load(files(baseline))
rows=[]
for key in sorted(new):
    v=new[key]; a=v['kspmv:automatic'][0]; kk=v.get('kk:default',(None,))[0]
    best=min((s[0],n) for n,s in v.items() if n.startswith('kspmv'))
    o=old.get(key,{}).get('kspmv:automatic',(None,))[0]
    pv = a/key[1]/one[key[0]] if key[0] in one else None
    print('%-28s %2d%s auto %8.0f setup/x %5.1f | old %8s ratio %5s | best %8.0f %-24s %5.2f | kk %5.2f | per-vec %s'%(key[0][:28],key[1],key[2],a*1e6,v['kspmv:automatic'][1] or 0,
        '%.0f'%(o*1e6) if o else '-', '%.3f'%(a/o) if o else '-', best[0]*1e6,best[1],a/best[0], kk/a if kk else 0, '%.3f'%pv if pv else '-'))
