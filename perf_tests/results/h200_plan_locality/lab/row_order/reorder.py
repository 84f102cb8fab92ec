#!/usr/bin/env python3
# Session 23 lab: row orders of a Matrix Market file, to measure what x's locality is worth to
# the raw balanced kernel before building anything. Writes NAME.{rcmrows,rcmsym,minrows,bfsrows}.mtx:
#   rcmsym  P A P^T (reverse Cuthill-McKee on the pattern of A + A^T; square only): x and y permuted
#   rcmrows P A (rows in that order, columns as they were): only the rows move
#   bfsrows P A with P a breadth-first order over the bipartite row-column graph (rectangular too)
#   minrows P A with rows sorted by their smallest column (stable)
# python3 reorder.py IN.mtx[.gz] OUTDIR
import sys, gzip, collections, os
path, out = sys.argv[1], sys.argv[2]
f = gzip.open(path, 'rt') if path.endswith('.gz') else open(path)
header = f.readline().lower().split()
field, sym = header[3], header[4]
line = f.readline()
while line.startswith('%'): line = f.readline()
m, n, nz = map(int, line.split())
rows = [[] for _ in range(m)]
for l in f:
    p = l.split()
    if not p: continue
    i, j = int(p[0]) - 1, int(p[1]) - 1
    v = '1' if field == 'pattern' else p[2]
    rows[i].append((j, v))
    if sym != 'general' and i != j:
        v2 = v if sym != 'skew-symmetric' else ('-' + v if not v.startswith('-') else v[1:])
        rows[j].append((i, v2))
name = os.path.basename(path).replace('.gz', '').replace('.mtx', '')
def write(tag, order, colmap=None):
    with open(os.path.join(out, '%s.%s.mtx' % (name, tag)), 'w') as g:
        g.write('%%MatrixMarket matrix coordinate real general\n')
        cnt = sum(len(r) for r in rows)
        g.write('%d %d %d\n' % (m, n, cnt))
        for new_i, old_i in enumerate(order):
            ents = [(colmap[j] if colmap else j, v) for j, v in rows[old_i]]
            ents.sort()
            for j, v in ents: g.write('%d %d %s\n' % (new_i + 1, j + 1, v))
def bfs_order(adj, count, degree):
    seen = [False] * count; order = []
    for s in sorted(range(count), key=lambda i: degree[i]):
        if seen[s]: continue
        seen[s] = True; q = collections.deque([s])
        while q:
            u = q.popleft(); order.append(u)
            for w in sorted(adj[u], key=lambda i: degree[i]):
                if not seen[w]: seen[w] = True; q.append(w)
    return order
if m == n:
    adj = [set() for _ in range(m)]
    for i, r in enumerate(rows):
        for j, _ in r:
            if i != j: adj[i].add(j); adj[j].add(i)
    deg = [len(a) for a in adj]
    rcm = bfs_order(adj, m, deg)[::-1]
    inv = [0] * m
    for new, old in enumerate(rcm): inv[old] = new
    write('rcmsym', rcm, inv)
    write('rcmrows', rcm)
# bipartite BFS: row -> its columns -> the rows holding them (columns' rows lists)
colrows = [[] for _ in range(n)]
for i, r in enumerate(rows):
    for j, _ in r: colrows[j].append(i)
seen = [False] * m; order = []; colseen = [False] * n
for s in range(m):
    if seen[s]: continue
    seen[s] = True; q = collections.deque([s])
    while q:
        u = q.popleft(); order.append(u)
        for j, _ in rows[u]:
            if colseen[j]: continue
            colseen[j] = True
            for w in colrows[j]:
                if not seen[w]: seen[w] = True; q.append(w)
write('bfsrows', order)
write('orig', list(range(m)))
write('minrows', sorted(range(m), key=lambda i: min((j for j, _ in rows[i]), default=n)))
print(name, m, n, sum(len(r) for r in rows))
