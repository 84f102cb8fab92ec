import json,glob,math,sys
rows=[]
for f in sorted(glob.glob(sys.argv[1]+'/mode_t_more_*.json')):
    d=json.load(open(f)); t={}
    for r in d['results']:
        if r['kernel'].startswith('T:') and r['status']=='ok': t.setdefault(r['matrix'],{})[r['kernel']]=r['seconds']*1e6
    rows+=list(t.items())
print("| matrix | plain T [us] | took | lanes forced | entries forced | KK default | plain vs KK | best forced / plain |")
print("|---|---|---|---|---|---|---|---|")
sp=[];wrong=[]
for m,v in rows:
    a=v['T:kspmv:automatic']; l=v.get('T:kspmv:csr_vector'); e=v.get('T:kspmv:csr_balanced'); k=v['T:kk:default']
    took='entries' if abs(a-e)<abs(a-l) else 'lanes'
    best=min(l,e)
    sp.append(k/a); 
    if a/best>1.05: wrong.append((m,round(a/best,2)))
    print(f"| {m} | {a:.0f} | {took} | {l:.0f} | {e:.0f} | {k:.0f} | {k/a:.2f}x | {best/a:.2f} |")
g=math.exp(sum(map(math.log,sp))/len(sp))
print(f"\n{len(rows)} matrices: plain call in mode T vs KokkosKernels' default geometric mean {g:.2f}x, lowest {min(sp):.2f}x, below 1.0x on {sum(x<1 for x in sp)}; the other forced kernel >5% faster than the plain call's on {len(wrong)}: {wrong}")
