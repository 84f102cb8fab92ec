#!/usr/bin/env python3
"""mps2mtx.py IN.mps OUT.mtx [comment...]: constraint matrix of an (fixed or free) MPS LP -> Matrix Market.
Rows = ROWS section order without 'N' (objective/free) rows; columns = COLUMNS first-appearance order.
Explicit zero coefficients are kept (they are stored entries in the MPS file)."""
import sys
src, dst = sys.argv[1:3]; comments = sys.argv[3:]
rows = {}; rowtype = {}; cols = {}; ent = {}
sec = None; name = ''
def fixed(ln):
    return [ln[1:3].strip(), ln[4:12].strip(), ln[14:22].strip(), ln[24:36].strip(), ln[39:47].strip(), ln[49:61].strip()]
for ln in open(src):
    ln = ln.rstrip('\n')
    if not ln.strip() or ln.startswith('*'): continue
    if not ln[0].isspace():
        t = ln.split(); sec = t[0].upper()
        if sec == 'NAME' and len(t) > 1: name = t[1]
        continue
    t = ln.split()
    if sec == 'ROWS':
        typ, r = t[0].upper(), t[1]
        rowtype[r] = typ
        if typ != 'N': rows[r] = len(rows) + 1
    elif sec == 'COLUMNS':
        if "'MARKER'" in t: continue
        if len(t) not in (3, 5) or t[1] not in rowtype:
            t = [x for x in fixed(ln)[1:] if x != '']
        c = t[0]
        if c not in cols: cols[c] = len(cols) + 1
        for k in range(1, len(t) - 1, 2):
            r, v = t[k], float(t[k+1])
            if r not in rowtype: raise SystemExit('unknown row %r in %r' % (r, ln))
            if rowtype[r] == 'N': continue
            key = (rows[r], cols[c])
            ent[key] = ent.get(key, 0.0) + v if key in ent else v
with open(dst, 'w') as g:
    g.write('%%MatrixMarket matrix coordinate real general\n')
    g.write('%% constraint matrix of MPS model %s (objective/N rows excluded), converted by mps2mtx.py\n' % name)
    for c in comments: g.write('%% %s\n' % c)
    g.write('%d %d %d\n' % (len(rows), len(cols), len(ent)))
    for (i, j) in sorted(ent, key=lambda e: (e[1], e[0])):
        g.write('%d %d %.17g\n' % (i, j, ent[(i, j)]))
print(dst, name, len(rows), len(cols), len(ent))
