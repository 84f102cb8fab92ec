import json,glob,math,sys
# usage: table8.py DIR [old_dir_k4]: the plain call at 8 vectors on the 46 unseen matrices
t={}
for f in sorted(glob.glob(sys.argv[1]+'/vectors8_more_*.json')):
    for r in json.load(open(f))['results']:
        if r['status']=='ok': t.setdefault(r['matrix'],{})[r['kernel']]=r['seconds']*1e6
print("| matrix | layout | plain call [us] | balanced forced | fastest raw lanes | KK default | plain vs KK | per vector / rank-1 |")
print("|---|---|---|---|---|---|---|---|")
sp=[]; pv=[]
for m,v in t.items():
    r1=v['kspmv:automatic']
    for L in 'LR':
        a=v[f'mv8{L}:kspmv:automatic']; b=v.get(f'mv8{L}:kspmv:raw_balanced',float('nan')); k=v[f'mv8{L}:kk:default']
        lanes=[(v[x],x.split('lanes')[1]) for x in v if x.startswith(f'mv8{L}:kspmv:raw_lanes')]
        fl=f"{min(lanes)[1]}: {min(lanes)[0]:.0f}" if lanes else ""
        sp.append((k/a,m,L)); pv.append((a/8/r1,m,L))
        print(f"| {m} | {L} | {a:.0f} | {b:.0f} | {fl} | {k:.0f} | {k/a:.2f}x | {a/8/r1:.2f} |")
g=math.exp(sum(math.log(x[0]) for x in sp)/len(sp))
for L in 'LR':
    s=[x for x in sp if x[2]==L]; p=[x for x in pv if x[2]==L]
    gl=math.exp(sum(math.log(x[0]) for x in s)/len(s))
    print(f"\n{L}: plain vs KokkosKernels' default geometric mean {gl:.2f}x, lowest {min(s)[0]:.2f}x ({min(s)[1]}), below 1.0x in {sum(x[0]<1 for x in s)} of {len(s)}; per vector / rank-1: median {sorted(x[0] for x in p)[len(p)//2]:.2f}, at most 0.5 in {sum(x[0]<=0.5 for x in p)} of {len(p)}, highest {max(p)[0]:.2f} ({max(p)[1]})")
print(f"\n{len(t)} matrices, k = 8, both layouts: geometric mean {g:.2f}x KokkosKernels' default, below 1.0x in {sum(x[0]<1 for x in sp)} of {len(sp)} cases")
