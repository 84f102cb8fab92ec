import json,gzip,collections,sys,glob
# usage: cmp_lab.py base v1 v2 ... : least of the rounds, kernel rows containing balanced or automatic
def load(v):
    t={}
    for f in glob.glob(f"{v}_*.json.gz"):
        for r in json.load(gzip.open(f))["results"]:
            if r.get("status")!="ok": continue
            key=(r["matrix"],r["kernel"]); t[key]=min(t.get(key,1e18),r["seconds"]*1e6)
    return t
base=sys.argv[1]; vs=sys.argv[2:]
a=load(base); bs=[load(v) for v in vs]
print("%-24s %-24s %8s "%("matrix","kernel",base)+" ".join("%14s"%v for v in vs))
for key in sorted(a):
    m,k=key
    if not k.startswith("mv") or ("balanced" not in k and "automatic" not in k): continue
    vec=int(k[2:].split(':')[0][:-1]); one=a.get((m,"kspmv:automatic"))
    print("%-24s %-24s %8.0f "%(m[:24],k,a[key])+" ".join("%7.0f %.3f%s"%(b[key],b[key]/a[key],"*" if b[key]/vec/one<=0.5 and a[key]/vec/one>0.5 else " ") for b in bs)+"  pv %.3f"%(a[key]/vec/one))
