# Builds perf_tests/matrices_fourth from local copies of the sources (fetched at the commits below)
# laid out under the working directory: ss/ (SuiteSparse, repo path with "/" -> "_"), mi/ (Data-miplib3 <name>.gz),
# nl/ (Data-Netlib <name>.mps.gz), nk/ (networkit input/ files), hb/ (SWUFE-Math sherman3.rua). Output: $OUT (default mtx/).
# Run: python3 build.py  (in that directory; numpy needed)
import gzip, os, sys, json, numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "matrices_third", "tools"))  # mps2mtx.py
import mps2mtx, mmstats, hb
OUT = os.environ.get('OUT', 'mtx'); os.makedirs(OUT, exist_ok=True)
SS = 'DrTimothyAldenDavis/SuiteSparse@038d6635096409538260f71986a8ab4a42e0514e'
MI = 'coin-or-tools/Data-miplib3@36c786b3274f75d9a0062471589813b92d3da91b'
NL = 'coin-or-tools/Data-Netlib@f1cc423067407d55d579c9c35fb01edf860dbc24'
NK = 'networkit/networkit@17427915b5b8d39fdd602e5247cd96bb8138d79c'
SW = 'Hsien-Ming-Ku/SWUFE-Math@599b347123f788c1710d86bcad5cb5c1ef0325d2'
# names used by ../matrices, ../matrices_unseen and ../matrices_third
EXCL = set(x.lower() for x in """4elt BOYD2_A CONT-300_A CVXQP3_L_Q EX5 Franz6_id1959_aug G66 Groebner_id2003_aug NSR8K OPF_3754 OPF_6000 PGPgiantcompo QSHIP08L_Q QSHIP12L_Q QSHIP12S_Q STCQP1_Q ScaleMicrogrid_Jacobian_N1000 Trefethen_2000 UBH1_A add32 ani4 arrow bayer10 bcspwr10 bcsstk13 bcsstk16 bcsstk18 bcsstk25 bcsstk33 bratu3d ca-CondMat ca-GrQc ca-HepTh cage10 cage11 cap6000 commanche_dual cond-mat-2005 crack cs4 ct2010 cti cvxbqp1 data delaunay_n14 dw8192 ego-Facebook email-Enron email-Eu-core epb1 ex40 ex6 fe_4elt2 fit2d flowmeter0 golden_5x5 goodwin lap2D_5pt_n100 lap3D_7pt_n20 lp_80bau3b lp_d2q06c lp_d6cube lp_dfl001 lp_fit2p lp_greenbea lp_maros_r7 lp_nug20 luxembourg_osm mbeacxc memplus mfeat_pixel_10NN mhd4800a mitre nh2010 orani678 p2p-Gnutella09 pattern_2x4 pilot87 poly_chain.512 rajat01 rentacar rgg_n_2_15_s0 seymour sherman2 skew_3x3 stocfor3 symmetric_3x3 t2d_q9 tech-WHOIS test_FW_2003 tomography trpcage_8K utm5940 vsp_befref_fxm_2_4_air02 vsp_data_and_seymourl vsp_model1_crew1_cr42_south31 vsp_sctap1-2b_and_seymourl west0479 whitaker3 wiki-Vote wood1p young1c zenios""".split())
def fmt(v):
    return '%.17g' % v
def write_coo(m, n, r, c, v, field, sym, comments):
    # r, c 0-based; symmetric: keep the lower triangle
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
results = []
def emit(name, text, src, note=''):
    assert name.lower() not in EXCL, name
    s = mmstats.stats(text)  # validates header, sizes, count, index range, no duplicates
    ok = 20000 <= s['nnz'] <= 2000000
    path = os.path.join(OUT, name + '.mtx.gz')
    with gzip.open(path, 'wt') as f: f.write(text)
    s2 = mmstats.stats(gzip.open(path, 'rt').read())
    assert s2 == s
    sz = os.path.getsize(path)
    ok = ok and sz <= 1.5e6
    results.append((name, s, src, note, ok, sz))
    print(name, s, sz, 'OK' if ok else 'FAILS-THRESHOLD', flush=True)
def sym_graph(nv, r, c):
    # undirected simple graph given as both directions; check symmetry, no self loops, no duplicates
    key = r * nv + c; keyt = c * nv + r
    assert np.array_equal(np.sort(key), np.sort(keyt)), 'not symmetric'
    assert not np.any(r == c), 'self loop'
    assert len(np.unique(key)) == len(key), 'duplicate edge'
    return r, c
def metis(path):
    lines = [l for l in open(path).read().split('\n') if not l.startswith('%')]
    nv, ne = map(int, lines[0].split()[:2])
    assert len(lines[0].split()) < 3 or lines[0].split()[2] in ('0', '000'), 'weighted graph'
    rr, cc = [], []
    for i in range(nv):
        for t in lines[1 + i].split():
            rr.append(i); cc.append(int(t) - 1)
    r = np.array(rr); c = np.array(cc)
    assert len(r) == 2 * ne
    return nv, r, c

# 1. SuiteSparse (LAGraph test data), copied verbatim
for nm, p in [('sparse-images-1024_subset', 'LAGraph/data/dnn_data/sparse-images-1024_subset.mtx')]:
    t = open('ss/' + p.replace('/', '_')).read()
    emit(nm, t, SS + ':' + p, 'copied verbatim')
# 2. MIPLIB 3 MPS -> constraint matrix
for nm in ['air04', 'fast0507', 'dano3mip', 'swath', 'mod011', 'arki001']:
    t, nN = mps2mtx.to_mtx(gzip.open('mi/%s.gz' % nm, 'rt').read(), nm)
    t = t.replace('converted from Netlib MPS (coin-or-tools/Data-Netlib)', 'converted from MIPLIB 3 MPS (coin-or-tools/Data-miplib3)')
    emit(nm, t, MI + ':' + nm + '.gz', 'converted from MPS: constraint matrix, objective row dropped' if nN == 1 else
         'converted from MPS: constraint matrix, objective and %d other free (N) rows dropped' % (nN - 1))
# 3. Netlib LP MPS -> constraint matrix (plain names: SuiteSparse LPnetlib lp_* versions add slack columns)
for base in ['woodw', 'degen3', 'cycle']:
    t, nN = mps2mtx.to_mtx(gzip.open('nl/%s.mps.gz' % base, 'rt').read(), base)
    assert nN == 1, (base, nN)
    emit(base, t, NL + ':' + base + '.mps.gz', 'converted from MPS: constraint matrix, objective row dropped')
# 4. networkit input graphs -> pattern symmetric (lower triangle)
for nm, desc in [('astro-ph', 'astro-ph (Newman 2001 co-authorship network, astrophysics arXiv)'),
                 ('polblogs', 'polblogs (Adamic-Glance 2005 political blogs hyperlink network, undirected)'),
                 ('hep-th', 'hep-th (Newman 2001 co-authorship network, hep-th arXiv)'),
                 ('wing', 'wing (Walshaw graph partitioning archive / DIMACS10 wing: 3D finite-element mesh of a wing)'),
                 ('airfoil1', 'airfoil1 (2D finite-element triangulation around an airfoil)')]:
    nv, r, c = metis('nk/%s.graph' % nm)
    r, c = sym_graph(nv, r, c)
    emit(nm, write_coo(nv, nv, r, c, None, 'pattern', 'symmetric', [' ' + desc + ', converted from METIS .graph in networkit input/']),
         NK + ':input/%s.graph' % nm, 'converted from METIS graph format')
e = np.loadtxt('nk/MIT8.edgelist', dtype=np.int64)
nv = int(e.max()) + 1
r, c = sym_graph(nv, np.concatenate([e[:, 0], e[:, 1]]), np.concatenate([e[:, 1], e[:, 0]]))
emit('MIT8', write_coo(nv, nv, r, c, None, 'pattern', 'symmetric', [' MIT8 (Facebook100 MIT friendship network, Traud-Mucha-Porter), converted from the 0-based edge list in networkit input/']),
     NK + ':input/MIT8.edgelist', 'converted from 0-based edge list (each undirected edge once)')
# 5. Harwell-Boeing (SWUFE-Math course copy)
d = hb.read_hb(open('hb/sherman3.rua').read())
assert d['type'] == 'RUA' and d['key'] == 'SHERMAN3'
emit('sherman3', write_coo(d['m'], d['n'], d['r'], d['c'], d['v'], 'real', 'general', [' Harwell-Boeing SHERMAN3: ' + d['title'] + ', converted from .rua']),
     SW + ':Problems/Harwell_Boeings/sherman3.rua', 'converted from Harwell-Boeing RUA')
json.dump([(a, b, c_, d_, e_, f) for a, b, c_, d_, e_, f in results], open('results.json', 'w'), indent=0)
