# python3 table.py: the gather form (raw_balanced_g4, _g8, _g84) against main's balanced kernel
# and the plain call, per matrix, vector count and layout, from this call's JSONs
import gzip, json, re, glob
for f in sorted(glob.glob('*.json.gz')):
    t = {}
    for r in json.load(gzip.open(f))['results']:
        m = re.match(r'mv(\d+)([LR]):kspmv:(\S+)', r['kernel'])
        if m and r['status'] == 'ok':
            t.setdefault((r['matrix'].split('.mtx')[0], int(m.group(1)), m.group(2)), {})[m.group(3)] = r['seconds'] * 1e6
    for (name, k, lay), v in sorted(t.items()):
        g = min((v[n], n) for n in v if n.startswith('raw_balanced_g'))
        print(f"{name:22s} {k:2d}{lay}  balanced {v['raw_balanced']:8.0f}  best gather {g[0]:8.0f} ({g[1][13:]:>3s}) "
              f"{g[0] / v['raw_balanced']:.2f}x  plain call {v['automatic']:8.0f}  {g[0] / v['automatic']:.2f}x")
