#!/usr/bin/env python3
"""Assemble /work/realmats/*.mtx.gz from stage/ and write SOURCES.md (uses ../check.py)."""
import csv, gzip, json, os, shutil, subprocess, sys
ROOT = '/work/realmats'; ST = ROOT + '/stage'  # raw source files were staged here; removed after assembly
prov = {r[0]: r[1:] for r in csv.reader(open(ROOT + '/tools/prov.tsv'), delimiter='\t')}
# final name: (stage file, provenance key, structure label, note)
M = [
 ('bcsstk33', 'bcsstk33.mtx', 'bcsstk33', 'FEM structural (stiffness, pattern only)', 'HB/bcsstk33 as stored (pattern symmetric)'),
 ('bcsstk16', 'bcsstk16.mtx', 'bcsstk16_raw', 'FEM structural (stiffness)', 'HB/bcsstk16; converted from CSparse 0-based triplets (lower triangle) with tools/trip2mtx.py'),
 ('ex6', 'fidapex6.mtx', 'fidapex6', 'CFD (FIDAP FEM)', 'FIDAP/ex6 (file named fidapex6.mtx in source)'),
 ('sherman2', 'sherman2.mtx', 'sherman2_raw', 'CFD / oil-reservoir thermal simulation', 'HB/sherman2; converted from Harwell-Boeing .rua with tools/hb2mtx.py'),
 ('mhd4800a', 'mhd4800a.mtx', 'mhd4800a', 'electromagnetics (MHD eigenproblem), banded', 'Bai/mhd4800a'),
 ('dw8192', 'dw8192.mtx', 'dw8192_raw', 'electromagnetics (dielectric waveguide)', 'Bai/dw8192; converted from Harwell-Boeing .rua with tools/hb2mtx.py'),
 ('add32', 'add32.mtx', 'add32', 'circuit simulation (32-bit adder)', 'Hamm/add32 (no header comments in source)'),
 ('memplus', 'memplus.mtx', 'memplus', 'circuit simulation (memory), long-tailed rows', 'Hamm/memplus'),
 ('luxembourg_osm', 'luxembourg.mtx', 'luxembourg', 'road network (OSM), 2-3 per row', 'DIMACS10/luxembourg_osm (file named luxembourg.mtx in source)'),
 ('ca-GrQc', 'ca-GrQc.mtx', 'ca-GrQc', 'graph: collaboration (power-law)', 'SNAP/ca-GrQc'),
 ('ca-HepTh', 'ca-HepTh.mtx', 'ca-HepTh_raw', 'graph: collaboration (power-law)', 'SNAP/ca-HepTh; converted from 1-based undirected edge list (tools/conv.py); nnz matches SuiteSparse (51971)'),
 ('ca-CondMat', 'ca-CondMat.mtx', 'ca-CondMat_raw', 'graph: collaboration (power-law)', 'networkrepository ca-CondMat (21363 nodes; SNAP version has 23133); banner fixed from "%MatrixMarket" (tools/conv.py fixhdr)'),
 ('tech-WHOIS', 'tech-WHOIS.mtx', 'tech-WHOIS_raw', 'graph: technological (hubs up to 1079)', 'networkrepository tech-WHOIS; banner fixed from "%MatrixMarket"'),
 ('PGPgiantcompo', 'pgp.mtx', 'pgp_raw', 'graph: PGP web of trust (power-law)', 'Arenas/PGPgiantcompo (10680 nodes, nnz 48632 matches); converted from 1-based undirected edge list'),
 ('p2p-Gnutella09', 'p2p-Gnutella09.mtx', 'p2p-Gnutella09_raw', 'graph: directed P2P, 62% empty rows', 'SNAP/p2p-Gnutella09; converted from SNAP 0-based edge list (ids+1)'),
 ('email-Eu-core', 'email-Eu-core.mtx', 'email-Eu-core_raw', 'graph: directed e-mail, empty rows', 'SNAP/email-Eu-core; converted from SNAP 0-based edge list (ids+1); nnz matches SuiteSparse (25571)'),
 ('email-Enron', 'email-Enron.mtx', 'email-Enron_raw', 'graph: e-mail (power-law, hub 1383)', 'SNAP/email-Enron; converted from 0-based undirected edge list; nnz matches SuiteSparse (367662)'),
 ('ego-Facebook', 'ego-Facebook.mtx', 'ego-Facebook_raw', 'graph: social (dense-ish, hub 1045)', 'SNAP/ego-Facebook (facebook_combined.txt); converted from 0-based edge list; first non-numeric line "nd nw" dropped; nnz matches SuiteSparse (176468)'),
 ('vsp_data_and_seymourl', 'vsp_data_and_seymourl.mtx', 'vsp_data_and_seymourl', 'graph: star-mixture (DIMACS10)', 'DIMACS10/vsp_data_and_seymourl'),
 ('ct2010', 'ct2010.mtx', 'ct2010_raw', 'graph: census-block adjacency (planar, weighted)', 'DIMACS10/ct2010; converted from MATLAB .mat (tools/mat2mtx.py) then symmetric storage (tools/normalize.py)'),
 ('cti', 'cti.mtx', 'cti_raw', '3D FE mesh graph (Walshaw)', 'DIMACS10/cti; converted from .mat; all values 1 -> pattern symmetric'),
 ('cs4', 'cs4.mtx', 'cs4_raw', '3D FE mesh dual graph, <=4 per row', 'DIMACS10/cs4; converted from .mat; all values 1 -> pattern symmetric'),
 ('commanche_dual', 'commanche.mtx', 'commanche', 'mesh dual graph (helicopter), exactly 4 per row', 'Pothen/commanche_dual as stored in source (pattern symmetric)'),
 ('crack', 'crack.mtx', 'crack', '2D FE mesh', 'AG-Monien/crack'),
 ('fe_4elt2', 'fe_4elt2.mtx', 'fe_4elt2', '2D FE mesh', 'DIMACS10/fe_4elt2'),
 ('delaunay_n14', 'delaunay_n14.mtx', 'delaunay_n14', '2D Delaunay triangulation graph', 'DIMACS10/delaunay_n14'),
 ('EX5', 'EX5.mtx', 'EX5_raw', 'combinatorial (symmetric power of graph), ~45 per row', 'JGD_SPG/EX5; converted from .mat; all values 1 -> pattern symmetric'),
 ('Franz6_id1959_aug', 'Franz6_id1959_aug.mtx', 'Franz6_id1959_aug', 'combinatorial, rectangular (Franz6 + identity)', 'JGD_Franz/Franz6 augmented with identity (SPQR/ParU test matrix)'),
 ('tomography', 'tomography.mtx', 'tomography_raw', 'tomography / earth science, dense-ish rows (max 335)', 'MathWorks/tomography; converted from SPEX 1-based triplet file (tools/trip2mtx.py)'),
 ('bayer10', 'bayer10.mtx', 'bayer10', 'chemical process simulation', 'Grund/bayer10'),
 ('trpcage_8K', 'trpcage_8K.mtx', 'trpcage_8K', 'quantum chemistry (DFTB Hamiltonian, solvated protein)', 'not a SuiteSparse matrix; size line corrected 116690 -> 116691 (file holds 116691 distinct entries), CRLF -> LF, one comment line added'),
 ('orani678', 'orani678.mtx', 'orani678', 'economics (Australian economy model), row up to 1110', 'HB/orani678'),
 ('ScaleMicrogrid_Jacobian_N1000', 'ScaleMicrogrid_Jacobian_N1000.mtx', 'ScaleMicrogrid_Jacobian_N1000', 'power grid DAE Jacobian (microgrid)', 'not a SuiteSparse matrix; banner lacked the field word -> "real" inserted; one comment line added'),
 ('OPF_3754', 'OPF_3754.mtx', 'OPF_3754', 'power network: optimal power flow KKT (saddle point)', 'IPSO/OPF_3754 (stored entries include explicit zeros)'),
 ('bcspwr10', 'bcspwr10.mtx', 'bcspwr10', 'power network (admittance pattern), short rows', 'HB/bcspwr10'),
 ('epb1', 'epb1.mtx', 'epb1', 'thermal (plate-fin heat exchanger)', 'Averous/epb1'),
 ('t2d_q9', 't2d_q9.mtx', 't2d_q9', '2D FEM, Q9 elements (9 per row)', 'TKK/t2d_q9, A_01 matrix of the sequence (file t2d_q9_A_01.mtx in source)'),
 ('lp_nug20', 'lp_nug20.mtx', 'lp_nug20', 'LP (QAP relaxation), rectangular, uniform 20 per row', 'Qaplib/lp_nug20'),
 ('lp_dfl001', 'dfl001.mtx', 'dfl001_raw', 'LP, rectangular, mixed short/long rows', 'netlib dfl001 MPS constraint matrix (tools/mps2mtx.py); dims/nnz equal LPnetlib/lp_dfl001'),
 ('lp_d6cube', 'd6cube.mtx', 'd6cube_raw', 'LP, rectangular, one full row (6184), empty rows', 'netlib d6cube MPS constraint matrix; dims/nnz equal LPnetlib/lp_d6cube'),
 ('lp_fit2p', 'fit2p.mtx', 'fit2p_raw', 'LP, rectangular, dense columns (up to 3000 long)', 'netlib fit2p MPS constraint matrix; dims/nnz equal LPnetlib/lp_fit2p'),
 ('fit2d', 'fit2d.mtx', 'fit2d_raw', 'LP, rectangular, 25 very long rows (avg 5161)', 'netlib fit2d MPS constraint matrix; LPnetlib/lp_fit2d has 24 extra slack columns'),
 ('pilot87', 'pilot87.mtx', 'pilot87_raw', 'LP, rectangular, mixed rows (max 383)', 'netlib pilot87 MPS constraint matrix; LPnetlib/lp_pilot87 adds slack columns (2030x6680)'),
 ('stocfor3', 'stocfor3.mtx', 'stocfor3_raw', 'LP (stochastic forestry), short rows', 'netlib stocfor3 MPS constraint matrix; LPnetlib/lp_stocfor3 adds slack columns (16675x23541)'),
 ('wood1p', 'wood1p.mtx', 'wood1p_raw', 'LP, rectangular, very long rows (avg 288, max 2592)', 'netlib wood1p MPS constraint matrix; LPnetlib/lp_wood1p has one extra slack column'),
 ('lp_maros_r7', 'maros-r7.mtx', 'maros-r7_raw', 'LP, rectangular, ~46 per row (image restoration)', 'netlib maros-r7 MPS constraint matrix; dims/nnz equal LPnetlib/lp_maros_r7'),
]
names = [m[0] for m in M]
assert len(set(names)) == len(names)
for name, sf, pk, lab, note in M:
    dst = '%s/%s.mtx.gz' % (ROOT, name)
    with open('%s/%s' % (ST, sf), 'rb') as f, gzip.GzipFile(dst, 'wb', compresslevel=9, mtime=0) as g:
        shutil.copyfileobj(f, g)
files = ['%s/%s.mtx.gz' % (ROOT, n) for n in names]
res = json.loads(subprocess.run([sys.executable, ROOT + '/check.py', '--json'] + files, capture_output=True, text=True).stdout)
bad = [r for r in res if not r['ok']]
if bad: sys.exit('check failed: %s' % bad)
json.dump(res, open(ROOT + '/tools/stats.json', 'w'), indent=1)
rows = []
for (name, sf, pk, lab, note), r in zip(M, res):
    repo, path, commit = prov[pk]
    size = os.path.getsize('%s/%s.mtx.gz' % (ROOT, name))
    rows.append('| %s.mtx.gz | %d x %d | %d | %.2f | %d | %d | %s, %s | %s | %s: `%s` @ %s |' % (
        name, r['rows'], r['cols'], r['stored_entries'], r['avg_per_row'], r['max_row'], r['empty_rows'],
        r['field'], r['symmetry'], lab, repo, path, commit))
total = sum(os.path.getsize(f) for f in files)
with open(ROOT + '/SOURCES.md', 'w') as g:
    g.write('# Real sparse matrices (Matrix Market, gzip -9)\n\n')
    g.write('%d matrices, %.1f MB compressed in total. Statistics from `check.py` (symmetric/skew files expanded: off-diagonal entries counted twice). '
            'Source = repository: path @ commit of the file the matrix was taken from (converted where noted).\n\n' % (len(M), total / 1e6))
    g.write('| file | rows x cols | stored entries (expanded) | avg/row | longest row | empty rows | field, symmetry | structure | source (repo: path @ commit) |\n')
    g.write('|---|---|---|---|---|---|---|---|---|\n')
    g.write('\n'.join(rows) + '\n\n## Notes per matrix\n\n')
    for name, sf, pk, lab, note in M:
        g.write('- **%s**: %s\n' % (name, note))
    g.write('\n## Conversion tools\n\n`tools/` holds the scripts used: `conv.py` (edge lists, banner fix), `mat2mtx.py` (MATLAB v5/v7 .mat reader), '
            '`normalize.py` (general -> symmetric/pattern when exact), `hb2mtx.py` (Harwell-Boeing), `trip2mtx.py` (triplet files), '
            '`mps2mtx.py` (MPS LP constraint matrix: rows = non-N rows in ROWS order, columns in COLUMNS order, objective excluded), '
            '`build.py` (assembles this directory). Files taken as Matrix Market are byte-identical to the source unless a note says otherwise.\n')
print(len(M), 'matrices', total, 'bytes compressed')
