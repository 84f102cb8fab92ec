import sys, gzip, numpy as np
def read_mm(text):
    lines = text.splitlines()
    hdr = lines[0].split()
    assert hdr[0].lower()=='%%matrixmarket' and hdr[1].lower()=='matrix' and hdr[2].lower()=='coordinate', hdr
    field, sym = hdr[3].lower(), hdr[4].lower()
    assert field in ('real','integer','pattern') and sym in ('general','symmetric'), hdr
    i = 1
    while lines[i].startswith('%') or not lines[i].strip(): i += 1
    m, n, nz = map(int, lines[i].split())
    body = [l for l in lines[i+1:] if l.strip() and not l.startswith('%')]
    assert len(body) == nz, (len(body), nz)
    r = np.empty(nz, np.int64); c = np.empty(nz, np.int64)
    ncol = 2 if field=='pattern' else 3
    v = None if ncol == 2 else np.empty(nz)
    for k,l in enumerate(body):
        t = l.split()
        assert len(t) == ncol, l
        r[k] = int(t[0]); c[k] = int(t[1])
        if ncol == 3: v[k] = float(t[2])
    assert r.min()>=1 and r.max()<=m and c.min()>=1 and c.max()<=n
    return hdr, m, n, nz, r-1, c-1, sym, v
def stats(text):
    hdr, m, n, nz, r, c, sym, v = read_mm(text)
    distinct = 'pattern' if v is None else int(len(np.unique(v)))
    # no duplicate (row, col) entries
    assert len(np.unique(r * n + c)) == nz, 'duplicate entries'
    if sym == 'symmetric': assert np.all(r >= c), 'symmetric storage must be one (lower) triangle'
    if sym == 'symmetric':
        off = r != c
        r = np.concatenate([r, c[off]]); c2 = np.concatenate([c, (r[:len(off)])[off]])
        c = c2
    lens = np.bincount(r, minlength=m)
    N = int(lens.sum())
    pad = (-m) % 32
    L = np.concatenate([lens, np.zeros(pad, np.int64)]).reshape(-1, 32)
    fill = float((32*L.max(axis=1)).sum()) / N
    return dict(field=hdr[3], sym=sym, rows=m, cols=n, nnz=N, stored=nz, avg=N/m, maxrow=int(lens.max()), fill=fill, distinct=distinct)
if __name__ == '__main__':
    for f in sys.argv[1:]:
        t = gzip.open(f,'rt').read() if f.endswith('.gz') else open(f).read()
        print(f, stats(t))
