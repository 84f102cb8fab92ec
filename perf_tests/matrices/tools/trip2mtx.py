#!/usr/bin/env python3
"""trip2mtx.py IN OUT base0|base1 [sym] [--hdr] [comment...]
Triplet 'i j x' file -> MM real. --hdr: first line is 'm n nnz'. sym: file holds lower triangle of a symmetric matrix."""
import sys
src, dst, base = sys.argv[1:4]; rest = sys.argv[4:]
sym = 'sym' in rest; hdr = '--hdr' in rest
comments = [r for r in rest if r not in ('sym', '--hdr')]
off = 1 if base == 'base0' else 0
ent = []; m = n = 0
with open(src) as f:
    if hdr:
        m, n, _ = (int(x) for x in f.readline().split()[:3])
    for ln in f:
        t = ln.split()
        if not t: continue
        i, j = int(t[0]) + off, int(t[1]) + off
        ent.append((i, j, t[2]))
        if not hdr: m = max(m, i); n = max(n, j)
if sym: m = n = max(m, n)
with open(dst, 'w') as g:
    g.write('%%%%MatrixMarket matrix coordinate real %s\n' % ('symmetric' if sym else 'general'))
    for c in comments: g.write('%% %s\n' % c)
    g.write('%d %d %d\n' % (m, n, len(ent)))
    for i, j, x in ent: g.write('%d %d %s\n' % (i, j, x))
print(dst, m, n, len(ent))
