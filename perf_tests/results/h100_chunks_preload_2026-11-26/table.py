# python3 table.py: the lab call's chunks kernel, new (KSPMV_LAB_CHUNKS=1) against before (0),
# and each plain call's time per vector against the rank-1 plain call of the same run.
import json
def load(f):
    return {(r['matrix'], r['kernel']): r for r in json.load(open(f))['results']}
old, new = load('lab/real_v0.json'), load('lab/real_v1.json')
rank1 = {m: r['seconds'] for (m, k), r in new.items() if k == 'kspmv:automatic'}
print('| matrix | kernel | before (us) | entries first (us) | ratio | per vector, entries first |')
print('|---|---|---|---|---|---|')
for key, r in old.items():
    m, k = key
    if key in new and k.startswith('mv') and ('chunks' in k or 'automatic' in k):
        n = new[key]
        print(f"| {m} | {k} | {r['seconds']*1e6:.0f} | {n['seconds']*1e6:.0f} | {n['seconds']/r['seconds']:.3f} | "
              f"{n['seconds']/n['vectors']/rank1[m]:.3f} |")
