import struct, zlib, numpy as np
DT = {1:'i1',2:'u1',3:'<i2',4:'<u2',5:'<i4',6:'<u4',7:'<f4',9:'<f8',12:'<i8',13:'<u8',16:'u1',17:'<u2',18:'<u4'}
def read_el(b, off):
    t, n = struct.unpack_from('<II', b, off)
    if t >> 16:
        n = t >> 16; t &= 0xffff
        return t, b[off+4:off+4+n], off+8
    data = b[off+8:off+8+n]
    end = off + 8 + n
    if t != 15: end += (-n) % 8
    return t, data, end
def parse_matrix(d):
    off = 0
    _, fl, off = read_el(d, off); flags, nzmax = struct.unpack('<II', fl[:8])
    cls = flags & 0xff; cplx = bool(flags & 0x800)
    _, dims, off = read_el(d, off); dims = np.frombuffer(dims, '<i4')
    _, name, off = read_el(d, off)
    if cls == 5:
        t, ir, off = read_el(d, off); ir = np.frombuffer(ir, DT[t]).astype(np.int64)
        t, jc, off = read_el(d, off); jc = np.frombuffer(jc, DT[t]).astype(np.int64)
        pr = None
        if off < len(d):
            t, pr, off = read_el(d, off); pr = np.frombuffer(pr, DT[t]).astype(np.float64)
        if cplx: raise ValueError('complex')
        return ('sparse', int(dims[0]), int(dims[1]), ir, jc, pr, bool(flags & 0x200))
    if cls == 2:
        _, fl, off = read_el(d, off); flen = struct.unpack('<i', fl[:4])[0]
        _, fn, off = read_el(d, off)
        names = [fn[i:i+flen].split(b'\0')[0].decode() for i in range(0, len(fn), flen)]
        out = {}
        for nm in names:
            t, sub, off = read_el(d, off)
            out[nm] = parse_matrix(sub) if len(sub) else None
        return out
    if cls == 4:
        t, s, off = read_el(d, off)
        arr = np.frombuffer(s, DT[t])
        if dims[0] > 1:
            arr = arr.reshape(dims[1], dims[0]).T
            return '\n'.join(''.join(map(chr, r)) for r in arr)
        return ''.join(map(chr, arr))
    if cls in (6,7,8,9,10,11,12,13,14,15):
        t, s, off = read_el(d, off)
        return np.frombuffer(s, DT[t])
    return None
def loadmat(path):
    b = open(path, 'rb').read()
    off = 128; out = {}
    while off < len(b):
        t, data, off = read_el(b, off)
        if t == 15:
            data = zlib.decompress(data); t, data, _ = read_el(data, 0)
        if t == 14:
            # get name
            o = 0
            _, _, o = read_el(data, o); _, _, o = read_el(data, o); _, nm, o = read_el(data, o)
            out[nm.decode()] = parse_matrix(data)
    return out
