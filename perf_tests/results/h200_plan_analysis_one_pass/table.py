#!/usr/bin/env python3
# The table of README.md: per matrix, the Plan's analysis and setup, Csr16Matrix's conversion and call,
# old against new, what the new Plan chose and its amortised time (100 uses) against the best kspmv
# kernel of the run.  python3 table.py NEW.json OLD.json  (the .json.gz of this folder, unzipped)
import json,sys,math,re
def load(f):
    d=json.load(open(f)); rs=[r for k,v in d.items() if isinstance(v,list) for r in v]
    by={}
    for r in rs:
        if r.get('status')=='ok': by.setdefault(r['matrix'],{})[r['kernel']]=r
    return by
n=load(sys.argv[1]); o=load(sys.argv[2])
U=100
def am(r): return r['seconds']+r['setup_seconds']/U
rows=[]
for m in n:
    a=n[m]; b=o[m]
    an=lambda r: float(re.search(r'analysis (\d+)',r.get('note','')).group(1)) if 'analysis' in r.get('note','') else float('nan')
    pn=a['kspmv:plan']; po=b['kspmv:plan']
    orc_n=min((r for k,r in a.items() if k.startswith('kspmv:')),key=am)
    rows.append((m[:28], an(po), an(pn), po['setup_seconds']*1e6, pn['setup_seconds']*1e6, b['kspmv:csr16']['setup_seconds']*1e6, a['kspmv:csr16']['setup_seconds']*1e6,
                 b['kspmv:csr16']['seconds']*1e6, a['kspmv:csr16']['seconds']*1e6, pn.get('note','').split(';')[0].replace('chose ',''), am(pn)/am(orc_n), orc_n['kernel'][6:]))
print("| matrix | analysis old | new | plan setup old | new | csr16 setup old | new | csr16 call old | new | plan chose (new) | plan/oracle (new) | oracle |")
print("|"+"---|"*12)
for r in rows: print("| %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.1f | %.1f | %s | %.3f | %s |"%r)
g=lambda i: math.exp(sum(math.log(r[i]) for r in rows)/len(rows))
print("geomean analysis old %.0f new %.0f; plan setup old %.0f new %.0f; csr16 setup old %.0f new %.0f; csr16 call old %.1f new %.1f"%(g(1),g(2),g(3),g(4),g(5),g(6),g(7),g(8)))
