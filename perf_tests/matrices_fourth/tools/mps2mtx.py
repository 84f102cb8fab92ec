import sys
def parse_mps(text):
    rows = []; rowidx = {}; ntype = set()
    cols = []; colidx = {}; ent = {}
    sec = None
    def toks(line, fixed_fields):
        t = line.split()
        return t
    for line in text.splitlines():
        if not line.strip() or line.startswith('*'): continue
        if not line[0].isspace():
            sec = line.split()[0].upper(); continue
        if sec == 'ROWS':
            t = line.split()
            if len(t) != 2:  # fixed format fallback
                t = [line[1:3].strip(), line[4:12].strip()]
            typ, name = t[0].upper(), t[1]
            if typ == 'N': ntype.add(name)
            else:
                rowidx[name] = len(rows); rows.append(name)
        elif sec == 'COLUMNS':
            if "'MARKER'" in line: continue
            t = line.split()
            if len(t) not in (3, 5):
                t = [line[4:12].strip(), line[14:22].strip(), line[24:36].strip()]
                if len(line) > 40: t += [line[39:47].strip(), line[49:61].strip()]
            cname = t[0]
            if cname not in colidx:
                colidx[cname] = len(cols); cols.append(cname)
            j = colidx[cname]
            for k in range(1, len(t), 2):
                rn, v = t[k], float(t[k+1])
                if rn in ntype: continue
                i = rowidx[rn]
                key = (i, j)
                if key in ent: raise ValueError('duplicate %r' % (key,))
                ent[key] = t[k+1]
        elif sec in ('RHS','RANGES','BOUNDS','ENDATA','NAME','OBJSENSE'):
            pass
    return rows, cols, ent, ntype
def to_mtx(text, title):
    rows, cols, ent, ntype = parse_mps(text)
    keys = sorted(ent, key=lambda k: (k[1], k[0]))
    out = ['%%MatrixMarket matrix coordinate real general',
           '%% %s: constraint matrix A converted from Netlib MPS (coin-or-tools/Data-Netlib); objective/free (N) rows dropped: %s' % (title, ' '.join(sorted(ntype))),
           '%d %d %d' % (len(rows), len(cols), len(keys))]
    for (i, j) in keys:
        v = float(ent[(i, j)])
        out.append('%d %d %.17g' % (i+1, j+1, v))
    return '\n'.join(out) + '\n', len(ntype)
