#!/usr/bin/env python3
# What the new Plan would have chosen had Csr16Matrix's conversion been charged at FRACTION of the
# generic estimate instead of 0.6 (plan_model.hpp: csr16_conversion), from the predictions its notes
# record, and the amortised time it would then have had (the measured Csr16Matrix call and setup
# plus the Plan's analysis).  python3 sim.py NEW.json FRACTION
import json,re,sys,math
f=sys.argv[1]; new=float(sys.argv[2])
d=json.load(open(f)); rs=[r for k,v in d.items() if isinstance(v,list) for r in v]
by={}
for r in rs:
    if r['status']=='ok': by.setdefault(r['matrix'],{})[r['kernel']]=r
am=lambda r: r['seconds']+r['setup_seconds']/100
logs_old=[];logs_new=[];w_old=w_new=0;n=0
for m,v in by.items():
    p=v['kspmv:plan']; note=p['note']; kk=v['kk:default']['seconds']
    orc=min((r for k,r in v.items() if k.startswith('kspmv:')),key=am)
    cur=am(p)
    if 'predicted setup/SpMV us:' in note:
        c=dict((a,(float(s),float(t))) for a,s,t in re.findall(r'(\w+) ([\d.e+-]+)/([\d.e+-]+)',note.split('predicted setup/SpMV us:')[1]))
        if 'raw_csr16' in c: c['raw_csr16']=(c['raw_csr16'][0]*new/0.6,c['raw_csr16'][1])
        best=min(c,key=lambda k:c[k][0]+100*c[k][1])
        chosen=note.split(';')[0].replace('chose ','').split(' ')[0]
        alt=cur
        if best!=chosen and best=='raw_csr16':
            alt=v['kspmv:csr16']['seconds']+(p['setup_seconds']+v['kspmv:csr16']['setup_seconds'])/100
            print("%-32s -> csr16: %.1f -> %.1f us/use (%.3f)"%(m,cur*1e6,alt*1e6,alt/cur))
        elif best!=chosen and chosen=='raw_csr16':
            alt=v['kspmv:raw_csr_balanced']['seconds']+p['setup_seconds']/100  # approx
            print("%-32s csr16 -> %s"%(m,best))
    else: alt=cur
    n+=1; logs_old.append(math.log(kk/cur)); logs_new.append(math.log(kk/alt))
    w_old+= cur/am(orc)<=1.05; w_new+= alt/am(orc)<=1.05
print("geomean vs KK: %.4f -> %.4f; within 5%%: %d -> %d of %d"%(math.exp(sum(logs_old)/n),math.exp(sum(logs_new)/n),w_old,w_new,n))
