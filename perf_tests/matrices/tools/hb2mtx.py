#!/usr/bin/env python3
"""hb2mtx.py IN.rua OUT.mtx [comment...]: Harwell-Boeing (assembled R/P, U/S/Z/R/H) -> Matrix Market."""
import re, sys
src, dst = sys.argv[1:3]; comments = sys.argv[3:]
L = open(src).read().split('\n')
title, key = L[0][:72].strip(), L[0][72:80].strip()
tot, ptrc, indc, valc = (int(x) for x in L[1].split()[:4])
rhsc = int(L[1][56:70] or 0) if len(L[1]) > 56 and L[1][56:70].strip() else 0
mxtype = L[2][:3].upper(); nrow, ncol, nnz = (int(x) for x in L[2][14:].split()[:3])
fm = L[3]
def width(f):
    m = re.search(r'(\d+)\s*\(?\s*[IiEeDdFfGg]\s*(\d+)', f.replace('P', ' ').replace('p', ' ').split(',')[-1] if False else f)
    # generic: take last "<count><letter><width>" group
    g = re.findall(r'(\d*)([IiEeDdFfGg])(\d+)', re.sub(r'\d+[Pp]', '', f))
    return int(g[-1][0] or 1), int(g[-1][2])
fmts = re.findall(r'\([^)]*\)', fm)
pw = width(fmts[0]); iw = width(fmts[1]); vw = width(fmts[2]) if len(fmts) > 2 and mxtype[0] != 'P' else None
start = 5 if rhsc else 4
def readfield(lines, w, count):
    out = []
    per, wd = w
    for ln in lines:
        for k in range(per):
            s = ln[k*wd:(k+1)*wd]
            if s.strip(): out.append(s.strip())
            if len(out) == count: return out
    return out
ptr = [int(x) for x in readfield(L[start:start+ptrc], pw, ncol+1)]
ind = [int(x) for x in readfield(L[start+ptrc:start+ptrc+indc], iw, nnz)]
val = None
if mxtype[0] != 'P':
    val = [float(x.replace('D', 'E').replace('d', 'e')) if 'E' in x.upper() or 'D' in x.upper() or '.' in x
           else float(x) for x in readfield(L[start+ptrc+indc:start+ptrc+indc+valc], vw, nnz)]
    # fortran may drop 'E' in exponents like 1.0-05
    assert len(val) == nnz, (len(val), nnz)
assert mxtype[0] in 'RP' and mxtype[2] == 'A', mxtype
sym = {'U': 'general', 'R': 'general', 'S': 'symmetric', 'Z': 'skew-symmetric'}[mxtype[1]]
field = 'pattern' if mxtype[0] == 'P' else 'real'
assert len(ptr) == ncol+1 and len(ind) == nnz and ptr[-1]-1 == nnz
with open(dst, 'w') as g:
    g.write('%%%%MatrixMarket matrix coordinate %s %s\n' % (field, sym))
    g.write('%% HB title: %s  key: %s  type: %s\n' % (title, key, mxtype))
    for c in comments: g.write('%% %s\n' % c)
    g.write('%d %d %d\n' % (nrow, ncol, nnz))
    for j in range(ncol):
        for p in range(ptr[j]-1, ptr[j+1]-1):
            i = ind[p]
            if sym != 'general' and i < j+1:
                raise SystemExit('upper entry in symmetric HB file')
            g.write('%d %d\n' % (i, j+1) if field == 'pattern' else '%d %d %.16g\n' % (i, j+1, val[p]))
print(dst, mxtype, nrow, ncol, nnz, title)
