import gzip, os, sys, numpy as np, mat5, mps2mtx, mmstats
OUT = '/tmp/third/mtx'
SS = 'DrTimothyAldenDavis/SuiteSparse@038d6635096409538260f71986a8ab4a42e0514e'
MI = 'coin-or-tools/Data-miplib3@36c786b3274f75d9a0062471589813b92d3da91b'
EK0 = 'Cirdans-Home/enforce-katz-and-pagerank@899243fb8f1bd626781c00c84f9f672bf4c43130'
EK = 'Cirdans-Home/enforce-katz-and-pagerank@0c41031199a58fc3fed70d87a06da8db4388aaf4'
OS = 'osqp/osqp_benchmarks@5c79e870c4bd697383f66f5dff26aea29dc1ebfa'
KH = 'KaHIP/KaHIP@5935f349f65f1788a9b68fcf6d853e698d86956d'
EXCL = set(x.lower() for x in """4elt BOYD2_A CONT-300_A CVXQP3_L_Q G66 NSR8K OPF_6000 QSHIP12L_Q Trefethen_2000 UBH1_A bcsstk18 bcsstk25 bratu3d cond-mat-2005 cvxbqp1 ex40 flowmeter0 goodwin lp_80bau3b lp_d2q06c lp_greenbea mfeat_pixel_10NN nh2010 utm5940 whitaker3 EX5 Franz6_id1959_aug OPF_3754 PGPgiantcompo ScaleMicrogrid_Jacobian_N1000 add32 bayer10 bcspwr10 bcsstk16 bcsstk33 ca-CondMat ca-GrQc ca-HepTh commanche_dual crack cs4 ct2010 cti delaunay_n14 dw8192 ego-Facebook email-Enron email-Eu-core epb1 ex6 fe_4elt2 fit2d lp_d6cube lp_dfl001 lp_fit2p lp_maros_r7 lp_nug20 luxembourg_osm memplus mhd4800a orani678 p2p-Gnutella09 pilot87 sherman2 stocfor3 t2d_q9 tech-WHOIS tomography trpcage_8K vsp_data_and_seymourl wood1p rajat01 arrow wiki-Vote bcsstk13 Groebner_id2003_aug poly_chain.512 cage10 young1c west0479 mbeacxc ani4 lap2D_5pt_n100 lap3D_7pt_n20""".split())
def fmt(v):
    return '%.17g' % v
def write_coo(name, m, n, r, c, v, field, sym, comments):
    # r, c 0-based
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
def from_mat_sparse(S, field_hint=None):
    _, m, n, ir, jc, pr, lg = S
    col = np.repeat(np.arange(n), np.diff(jc))
    r = ir.copy(); c = col
    v = pr
    # symmetric?
    sym = 'general'
    if m == n:
        key = r * n + c; keyt = c * n + r
        o = np.argsort(key); ot = np.argsort(keyt)
        if np.array_equal(key[o], keyt[ot]) and (v is None or np.array_equal(v[o], v[ot])):
            sym = 'symmetric'
    if v is None or lg or (field_hint == 'pattern'): field = 'pattern'
    elif np.all(v == np.round(v)) and field_hint == 'integer': field = 'integer'
    else: field = 'real'
    return m, n, r, c, (None if field == 'pattern' else v), field, sym
results = []
def emit(name, text, src, note=''):
    assert name.lower() not in EXCL, name
    s = mmstats.stats(text)  # validates
    ok = s['rows'] >= 2000 and s['nnz'] >= 15000 and 6 <= s['avg'] <= 24
    with gzip.open(os.path.join(OUT, name + '.mtx.gz'), 'wt') as f: f.write(text)
    # re-read gz to validate
    s2 = mmstats.stats(gzip.open(os.path.join(OUT, name + '.mtx.gz'), 'rt').read())
    assert s2 == s
    results.append((name, s, src, note, ok))
    print(name, s, 'OK' if ok else 'FAILS-THRESHOLD', flush=True)

# 1. SuiteSparse mtx files, copied verbatim
for nm, p in [('test_FW_2003', 'LAGraph/data/test_FW_2003.mtx'), ('zenios', 'LAGraph/data/zenios.mtx')]:
    t = open('ss/' + p.replace('/', '_')).read()
    emit(nm, t, SS + ':' + p, 'copied verbatim')
# 2. MIPLIB3 MPS
for nm in ['mitre', 'rentacar', 'seymour', 'cap6000']:
    t, _ = mps2mtx.to_mtx(gzip.open('mi/%s.gz' % nm, 'rt').read(), nm)
    t = t.replace('converted from Netlib MPS (coin-or-tools/Data-Netlib)', 'converted from MIPLIB 3 MPS (coin-or-tools/Data-miplib3)')
    emit(nm, t, MI + ':' + nm + '.gz', 'converted from MPS: constraint matrix, objective row dropped')
# 3. SuiteSparse .mat (enforce-katz-and-pagerank)
for nm, rev, hint in [('vsp_befref_fxm_2_4_air02', EK0, 'pattern'), ('vsp_model1_crew1_cr42_south31', EK0, 'pattern'),
                      ('vsp_sctap1-2b_and_seymourl', EK0, 'pattern'), ('data', EK, 'pattern'), ('cage11', EK, None)]:
    d = mat5.loadmat('ek/%s.mat' % nm); P = d['Problem']
    m, n, r, c, v, field, sym = from_mat_sparse(P['A'], hint)
    com = [' converted from SuiteSparse MATLAB .mat (Problem.A)', ' name: ' + P['name'], ' title: ' + P.get('title', ''), ' kind: ' + P.get('kind', '')]
    emit(nm, write_coo(nm, m, n, r, c, v, field, sym, com), rev + ':testmatrices/%s.mat' % nm, 'converted from SuiteSparse .mat (Problem.A) %s' % P['name'])
# 4. Maros-Meszaros QP Hessians (osqp_benchmarks, field P)
for base in ['QSHIP08L', 'QSHIP12S', 'STCQP1']:
    S = mat5.loadmat('mm/%s.mat' % base)['P']
    m, n, r, c, v, field, sym = from_mat_sparse(S)
    nm = base + '_Q'
    com = [' Maros-Meszaros QP %s: Hessian (variable P in osqp_benchmarks .mat), converted to Matrix Market' % base]
    emit(nm, write_coo(nm, m, n, r, c, v, field, sym, com), OS + ':problem_classes/maros_meszaros_data/%s.mat' % base, 'converted from .mat: QP Hessian P (stored there as full symmetric)')
# 5. KaHIP METIS graph
lines = open('rgg_n_2_15_s0.graph').read().split('\n')
nv, ne = map(int, lines[0].split()[:2])
rr, cc = [], []
for i in range(nv):
    for t in lines[1 + i].split():
        rr.append(i); cc.append(int(t) - 1)
r = np.array(rr); c = np.array(cc)
assert len(r) == 2 * ne
emit('rgg_n_2_15_s0', write_coo('rgg', nv, nv, r, c, None, 'pattern', 'symmetric', [' DIMACS10 rgg_n_2_15_s0 (random geometric graph), converted from METIS .graph in KaHIP examples']),
     KH + ':examples/rgg_n_2_15_s0.graph', 'converted from METIS graph format; SYNTHETIC (random geometric graph)')
import json
json.dump([(a, b, c_, d, e) for a, b, c_, d, e in results], open('results.json', 'w'))
