#!/usr/bin/env python3
"""The plain call with several vectors in two spmv_bench runs (JSON) on the same matrices: for each
"mv<k><L|R>" the geometric mean of new/old time, the cases faster or slower by more than 3%, the new
run against KokkosKernels' default (its own run), and per vector at most 0.5 of the rank-1 plain
call (each run's own rank-1 time; the old figure over the new run's rank-1 call).

  python3 compare.py NEW.json OLD.json
"""
import json,sys,collections,math
def load(p):
    d={}
    for r in json.load(open(p))['results']:
        if r['status']=='ok': d[(r['matrix'],r['kernel'])]=r['seconds']*1e6
    return d
new=load(sys.argv[1]); old=load(sys.argv[2])
groups=collections.defaultdict(list)
for (m,k),t in new.items():
    if not k.endswith('kspmv:automatic') or not k.startswith('mv'): continue
    pre=k.split(':')[0]
    o=old.get((m,k)); kk=new.get((m,pre+':kk:default')); r1=new.get((m,'kspmv:automatic'))
    kv=int(pre[2:-1])
    groups[pre].append((m,t,o,kk,r1,kv))
for pre in sorted(groups, key=lambda s:(int(s[2:-1]),s[-1])):
    g=groups[pre]
    ratios=[t/o for m,t,o,kk,r1,kv in g if o]
    if not ratios: ratios=[float('nan')]
    gm=math.exp(sum(map(math.log,ratios))/len(ratios)) if ratios[0]==ratios[0] else float('nan')
    kks=[kk/t for m,t,o,kk,r1,kv in g if kk]
    gkk=math.exp(sum(map(math.log,kks))/len(kks))
    pv=[t/kv/r1 for m,t,o,kk,r1,kv in g if r1]
    pvo=[o/kv/r1 for m,t,o,kk,r1,kv in g if r1 and o]
    faster=sorted([(t/o,m) for m,t,o,kk,r1,kv in g if o and t/o<0.97])
    slower=sorted([(t/o,m) for m,t,o,kk,r1,kv in g if o and t/o>1.03])
    print(f"{pre}: n={len(g)} new/old geo {gm:.3f}; faster>3% {len(faster)}, slower>3% {len(slower)}; vs KK geo {gkk:.2f}x min {min(kks):.2f}x; per-vector<=0.5 new {sum(p<=0.5 for p in pv)} old {sum(p<=0.5 for p in pvo)} of {len(pv)}")
    print("   slower:", ', '.join(f"{m.split()[0][:14]} {r:.2f}" for r,m in slower[::-1][:12]))
    print("   faster:", ', '.join(f"{m.split()[0][:14]} {r:.2f}" for r,m in faster[:14]))
