#!/usr/bin/env python3
"""Minimal MATLAB v5/v7 (non-HDF5) reader: find a sparse matrix (Problem.A or a top-level sparse
variable) and write it as Matrix Market coordinate general (real or pattern)."""
import struct, sys, zlib

TYPES = {1:'b',2:'B',3:'h',4:'H',5:'i',6:'I',7:'f',9:'d',12:'q',13:'Q'}

def read_elements(buf, off, end, endian):
    while off < end:
        t, = struct.unpack_from(endian+'I', buf, off)
        if t >> 16:  # small element
            nb = t >> 16; typ = t & 0xffff
            yield typ, buf[off+4:off+4+nb]
            off += 8
        else:
            typ, nb = struct.unpack_from(endian+'II', buf, off)
            data = buf[off+8:off+8+nb]
            yield typ, data
            off += 8 + nb
            if typ != 15:
                off += (-nb) % 8

def nums(typ, data, endian):
    c = TYPES[typ]; sz = struct.calcsize(c)
    return list(struct.unpack(endian + c*(len(data)//sz), data))

def parse_matrix(data, endian):
    """returns (name, value) where value is dict for struct, tuple for sparse, str for char..."""
    els = list(read_elements(data, 0, len(data), endian))
    flags = nums(els[0][0], els[0][1], endian)
    cls = flags[0] & 0xff; cplx = bool(flags[0] & 0x800); logical = bool(flags[0] & 0x200)
    dims = nums(els[1][0], els[1][1], endian)
    name = els[2][1].decode('latin1')
    if cls == 5:  # sparse
        ir = nums(els[3][0], els[3][1], endian)
        jc = nums(els[4][0], els[4][1], endian)
        pr = nums(els[5][0], els[5][1], endian) if len(els) > 5 else None
        return name, ('sparse', dims, ir, jc, pr, cplx, logical)
    if cls == 2:  # struct
        fl = nums(els[3][0], els[3][1], endian)[0]
        raw = els[4][1]
        fields = [raw[i:i+fl].split(b'\0')[0].decode() for i in range(0, len(raw), fl)]
        vals = {}
        for f, (typ, d) in zip(fields, els[5:5+len(fields)]):
            if typ == 14 and d:
                vals[f] = parse_matrix(d, endian)[1]
            else:
                vals[f] = None
        return name, vals
    if cls == 4:  # char
        if len(els) > 3:
            typ, d = els[3]
            try:
                return name, ''.join(chr(x) for x in nums(typ, d, endian)) if typ in TYPES else d.decode('utf-8', 'replace')
            except Exception:
                return name, None
        return name, ''
    if cls in (6, 7, 8, 9, 10, 11, 12, 13, 14, 15):
        if len(els) > 3 and els[3][0] in TYPES:
            return name, ('dense', dims, nums(els[3][0], els[3][1], endian))
    return name, None

def load(path):
    buf = open(path, 'rb').read()
    endian = '<' if buf[126:128] == b'IM' else '>'
    out = {}
    for typ, data in read_elements(buf, 128, len(buf), endian):
        if typ == 15:
            data = zlib.decompress(data)
            t2, n2 = struct.unpack_from(endian+'II', data, 0)
            typ, data = t2, data[8:8+n2]
        if typ == 14:
            name, val = parse_matrix(data, endian)
            out[name] = val
    return out

def find_sparse(d):
    if 'Problem' in d and isinstance(d['Problem'], dict):
        return d['Problem'].get('A'), d['Problem']
    for k, v in d.items():
        if isinstance(v, tuple) and v[0] == 'sparse':
            return v, None
    return None, None

if __name__ == '__main__':
    src, dst = sys.argv[1:3]
    comments = sys.argv[3:]
    d = load(src)
    A, P = find_sparse(d)
    if A is None:
        sys.exit('no sparse matrix; vars: %s' % list(d))
    _, dims, ir, jc, pr, cplx, logical = A
    if cplx: sys.exit('complex')
    m, n = dims[0], dims[1]
    pattern = pr is None or logical
    info = []
    if P:
        for k in ('name', 'title', 'kind', 'id', 'date', 'author'):
            v = P.get(k)
            if isinstance(v, str): info.append('%s: %s' % (k, v))
    nnz = jc[n]
    with open(dst, 'w') as g:
        g.write('%%%%MatrixMarket matrix coordinate %s general\n' % ('pattern' if pattern else 'real'))
        for c in comments + info: g.write('%% %s\n' % c)
        g.write('%d %d %d\n' % (m, n, nnz))
        for j in range(n):
            for p in range(jc[j], jc[j+1]):
                if pattern: g.write('%d %d\n' % (ir[p]+1, j+1))
                else: g.write('%d %d %.17g\n' % (ir[p]+1, j+1, pr[p]))
    print('wrote', dst, m, n, nnz, 'pattern' if pattern else 'real', '|', '; '.join(info)[:200])
