# python3 compare_lab.py (in this folder): for each matrix, vector count and kernel (the plain
# call, the chunks forced), the least of the two rounds' times of main_ (8aa0da5) and c16_ (the
# chunk 16 * Group entries), and their ratio
import re,glob,collections,math,os
os.chdir(os.path.dirname(os.path.abspath(__file__)))
t=collections.defaultdict(list)
for f in glob.glob('*_*_[12].log'):
    v=f.split('_')[0]
    for l in open(f):
        m=re.match(r'(\S+(?: x\d+)?)\s+(mv\d+[LR]:\S+)\s+([\d.]+)',l)
        if m: t[(m.group(1),m.group(2))].append((v,float(m.group(3))))
print("| matrix | kernel | main us | c16 us | c16/main |"); print("|---|---|---|---|---|")
rs=[]
for (mat,k) in sorted(t):
    if not any(s in k for s in ('automatic','raw_chunks')): continue
    d={}
    for v,x in t[(mat,k)]: d.setdefault(v,[]).append(x)
    a,o=min(d['c16']),min(d['main']); rs.append(a/o)
    print("| %s | %s | %.1f | %.1f | %.3f |"%(mat,k,o,a,a/o))
print("\ngeometric mean %.4f, %.3f-%.3f"%(math.exp(sum(map(math.log,rs))/len(rs)),min(rs),max(rs)))
