import json,glob,math,sys
t={}
for f in sorted(glob.glob(sys.argv[1]+'/vectors_more_*.json')):
    for r in json.load(open(f))['results']:
        if r['status']=='ok': t.setdefault(r['matrix'],{})[r['kernel']]=r['seconds']*1e6
print("| matrix | layout | plain call [us] | balanced forced | KK default | plain vs KK | per vector / rank-1 |")
print("|---|---|---|---|---|---|---|")
sp=[]; bal=[]
for m,v in t.items():
    r1=v['kspmv:automatic']
    for L in 'LR':
        a=v[f'mv4{L}:kspmv:automatic']; b=v.get(f'mv4{L}:kspmv:raw_balanced',float('nan')); k=v[f'mv4{L}:kk:default']
        sp.append((k/a,m,L)); 
        if abs(a-b)/b<0.03: bal.append((m,L))
        print(f"| {m} | {L} | {a:.0f} | {b:.0f} | {k:.0f} | {k/a:.2f}x | {a/4/r1:.2f} |")
g=math.exp(sum(math.log(x[0]) for x in sp)/len(sp))
print(f"\n{len(t)} matrices, k = 4: plain call vs KokkosKernels' default geometric mean {g:.2f}x, lowest {min(sp)[0]:.2f}x ({min(sp)[1]} {min(sp)[2]}), below 1.0x in {sum(x[0]<1 for x in sp)} of {len(sp)} cases; the plain call within 3% of the forced balanced kernel (taking it, presumably) in {len(bal)} cases: {bal}")
