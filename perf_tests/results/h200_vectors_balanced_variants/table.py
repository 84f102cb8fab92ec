# The balanced multivector kernel's lab variants (mv<V>_<round>.json.gz) over main's (mv0): python3 table.py FOLDER
import json,gzip,glob,collections,sys
t=collections.defaultdict(dict)
for f in sorted(glob.glob(sys.argv[1]+'/mv*.json.gz')):
    v=f.split('/')[-1].split('_')[0]
    for r in json.load(gzip.open(f))['results']:
        if r['status']=='ok': t[(r['matrix'],r['kernel'])][v]=r['seconds']*1e6
vs=sorted({v for x in t.values() for v in x})
print('| matrix | kernel | '+' | '.join(vs)+' | '+' | '.join(v+'/mv0' for v in vs if v!='mv0')+' |')
print('|---|---|'+'---|'*(2*len(vs)-1))
for k in sorted(t):
    if k[1].startswith('mv8') and ('balanced' in k[1] or 'automatic' in k[1]):
        print('| %s | %s | '%k+' | '.join('%.0f'%t[k][v] for v in vs)+' | '+' | '.join('%.3f'%(t[k][v]/t[k]['mv0']) for v in vs if v!='mv0')+' |')
