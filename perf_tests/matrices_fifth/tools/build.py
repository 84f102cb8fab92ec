# Builds perf_tests/matrices_fifth from local copies of the sources (fetched at the commit below)
# laid out under the working directory: qp/ (YimingYAN/QP-Test-Problems MAT_Files/<NAME>.mat). Output: $OUT (default mtx/).
# Run: python3 build.py  (in that directory; numpy needed). Reuses mat5.py (../../matrices_third/tools) and
# mmstats.py (../../matrices_fourth/tools) from where they are.
import gzip, os, sys, json, numpy as np
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..', 'matrices_fourth', 'tools'))   # mmstats.py (with distinct values)
sys.path.insert(1, os.path.join(HERE, '..', '..', 'matrices_third', 'tools'))    # mat5.py
import mat5, mmstats
OUT = os.environ.get('OUT', 'mtx'); os.makedirs(OUT, exist_ok=True)
QP = 'YimingYAN/QP-Test-Problems@871cc300154cfb438acc20f52b2c585db3f11e31'
# every .mtx(.gz) name under ../matrices, ../matrices_unseen, ../matrices_third, ../matrices_fourth, unit_tests/data, shared/matrices
USED = set()
for d in ['matrices', 'matrices_unseen', 'matrices_third', 'matrices_fourth', '../unit_tests/data', '/work/shared/matrices']:
    p = d if d.startswith('/') else os.path.join(HERE, '..', '..', d)
    if os.path.isdir(p):
        USED |= {f.split('.mtx')[0].lower() for f in os.listdir(p) if '.mtx' in f}
def fmt(v):
    return '%.17g' % v
def write_coo(m, n, r, c, v, field, sym, comments):
    # r, c 0-based; symmetric: keep the lower triangle; column-major order
    if sym == 'symmetric':
        keep = r >= c
        r, c = r[keep], c[keep]
        if v is not None: v = v[keep]
    order = np.lexsort((r, c))
    r, c = r[order], c[order]
    if v is not None: v = v[order]
    lines = ['%%%%MatrixMarket matrix coordinate %s %s' % (field, sym)] + ['%' + x for x in comments] + ['%d %d %d' % (m, n, len(r))]
    if field == 'pattern':
        lines += ['%d %d' % (a+1, b+1) for a, b in zip(r, c)]
    elif field == 'integer':
        lines += ['%d %d %d' % (a+1, b+1, int(x)) for a, b, x in zip(r, c, v)]
    else:
        lines += ['%d %d %s' % (a+1, b+1, fmt(x)) for a, b, x in zip(r, c, v)]
    return '\n'.join(lines) + '\n'
def from_mat_sparse(S):
    _, m, n, ir, jc, pr, lg = S
    c = np.repeat(np.arange(n), np.diff(jc)); r = ir.copy(); v = pr
    assert v is not None and not lg
    assert np.all(v != 0), 'explicit zeros'
    sym = 'general'
    if m == n:
        key = r * n + c; keyt = c * n + r
        o = np.argsort(key); ot = np.argsort(keyt)
        if np.array_equal(key[o], keyt[ot]) and np.array_equal(v[o], v[ot]):
            sym = 'symmetric'
    field = 'integer' if np.all(v == np.round(v)) else 'real'
    return m, n, r, c, v, field, sym
results = []
def emit(name, text, src, note=''):
    assert name.lower() not in USED, name
    s = mmstats.stats(text)  # validates header, sizes, count, index range, no duplicates, lower triangle if symmetric
    ok = 20000 <= s['nnz'] <= 2000000
    path = os.path.join(OUT, name + '.mtx.gz')
    with gzip.open(path, 'wt') as f: f.write(text)
    s2 = mmstats.stats(gzip.open(path, 'rt').read())
    assert s2 == s
    sz = os.path.getsize(path)
    ok = ok and sz <= 1.5e6
    results.append((name, s, src, note, ok, sz))
    print(name, s, sz, 'OK' if ok else 'FAILS-THRESHOLD', flush=True)

# Maros-Meszaros QP test set (.mat, variables A = constraint matrix, Q = Hessian)
for base, var, desc in [
        ('LISWET1', 'A', 'constraint matrix A of Maros-Meszaros LISWET1 (Li-Swetits, convex QP from data fitting; 3 entries a row, banded)'),
        ('DTOC3', 'A', 'constraint matrix A of Maros-Meszaros DTOC3 (CUTEr discrete-time optimal control; 3-4 entries a row)'),
        ('POWELL20', 'A', 'constraint matrix A of Maros-Meszaros POWELL20 (CUTEr, Powell; 2 entries a row)'),
        ('Q25FV47', 'Q', 'Hessian Q of Maros-Meszaros Q25FV47 (Netlib 25fv47 LP with a quadratic objective); most rows empty'),
        ('QSHELL', 'Q', 'Hessian Q of Maros-Meszaros QSHELL (Netlib shell LP with a quadratic objective); most rows empty')]:
    S = mat5.loadmat('qp/%s.mat' % base)[var]
    m, n, r, c, v, field, sym = from_mat_sparse(S)
    nm = '%s_%s' % (base, var)
    emit(nm, write_coo(m, n, r, c, v, field, sym, [' ' + desc, ' converted from MATLAB .mat (variable %s) in YimingYAN/QP-Test-Problems MAT_Files/%s.mat' % (var, base)]),
         QP + ':MAT_Files/%s.mat' % base, 'converted from .mat: %s (%s)' % ('QP constraint matrix A' if var == 'A' else 'QP Hessian Q, stored there as full symmetric', field + ' ' + sym))
json.dump(results, open('results.json', 'w'), indent=0)
