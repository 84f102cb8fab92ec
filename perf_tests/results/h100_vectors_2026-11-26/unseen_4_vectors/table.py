import json,math,sys
def load(p):
    t={}
    for r in json.load(open(p))['results']:
        if r['status']=='ok': t.setdefault(r['matrix'],{})[r['kernel']]=r['seconds']*1e6
    return t
n=load(sys.argv[1]); o=load(sys.argv[2])
print("| matrix | layout | plain call new [us] | old [us] | new/old | KK default [us] | new vs KK | old vs KK | per vector / rank-1 (new) |")
print("|---|---|---|---|---|---|---|---|---|")
sp=[];so=[];ratio=[]
for m in n:
    for L in 'LR':
        a=n[m][f'mv4{L}:kspmv:automatic']; b=o[m][f'mv4{L}:kspmv:automatic']; k=n[m][f'mv4{L}:kk:default']; ko=o[m][f'mv4{L}:kk:default']
        r1=n[m]['kspmv:automatic']
        sp.append((k/a,m,L)); so.append((ko/b,m,L)); ratio.append((a/b,m,L))
        print(f"| {m} | {L} | {a:.0f} | {b:.0f} | {a/b:.2f} | {k:.0f} | {k/a:.2f}x | {ko/b:.2f}x | {a/4/r1:.2f} |")
g=lambda s: math.exp(sum(math.log(x[0]) for x in s)/len(s))
for L in 'LR':
    s=[x for x in sp if x[2]==L]; t=[x for x in so if x[2]==L]; r=[x for x in ratio if x[2]==L]
    print(f"\n{L}: new {g(s):.2f}x KokkosKernels' default (geometric mean), lowest {min(s)[0]:.2f}x ({min(s)[1]}), below 1.0x in {sum(x[0]<1 for x in s)}; old {g(t):.2f}x, lowest {min(t)[0]:.2f}x ({min(t)[1]}), below 1.0x in {sum(x[0]<1 for x in t)}; new/old time: geometric mean {g(r):.2f}, range {min(r)[0]:.2f} ({min(r)[1]}) - {max(r)[0]:.2f} ({max(r)[1]})")
