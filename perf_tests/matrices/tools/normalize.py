#!/usr/bin/env python3
"""normalize.py IN OUT : for a 'general' MM file, write symmetric (lower triangle) storage when the
matrix is exactly symmetric, and 'pattern' when every value is exactly 1. Comments are kept."""
import sys
inp, out = sys.argv[1:3]
com = []; ent = {}
with open(inp) as f:
    hdr = f.readline().split()
    line = f.readline()
    while line.startswith('%'):
        com.append(line.rstrip('\n')); line = f.readline()
    m, n, nz = map(int, line.split())
    pattern = hdr[3] == 'pattern'
    for ln in f:
        t = ln.split()
        if not t: continue
        ent[(int(t[0]), int(t[1]))] = t[2] if not pattern else '1'
sym = m == n and all(ent.get((j, i)) is not None and float(ent[(j, i)]) == float(v) for (i, j), v in ent.items())
ones = all(float(v) == 1.0 for v in ent.values())
field = 'pattern' if (pattern or ones) else hdr[3]
keep = sorted(((i, j) for (i, j) in ent if not sym or i >= j), key=lambda e: (e[1], e[0]))
with open(out, 'w') as g:
    g.write('%%%%MatrixMarket matrix coordinate %s %s\n' % (field, 'symmetric' if sym else 'general'))
    for c in com: g.write(c + '\n')
    g.write('%d %d %d\n' % (m, n, len(keep)))
    for i, j in keep:
        g.write('%d %d\n' % (i, j) if field == 'pattern' else '%d %d %s\n' % (i, j, ent[(i, j)]))
print(out, 'symmetric' if sym else 'general', field, len(keep))
