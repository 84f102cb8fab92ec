# Minimal Harwell-Boeing reader (RUA/RSA/PUA/PSA assembled, fixed-width Fortran formats).
import re, numpy as np
def _fmt(s):
    m = re.search(r'(\d*)\s*[(]?\s*(\d+)\s*([IEDFG])\s*(\d+)', s.upper().replace('1P', ''))
    return int(m.group(2)), int(m.group(4))  # per line, width
def _read(lines, fmt, count, conv):
    per, w = _fmt(fmt); out = []
    for l in lines:
        for k in range(per):
            t = l[k*w:(k+1)*w].strip()
            if t: out.append(conv(t))
    assert len(out) == count, (len(out), count)
    return out
def read_hb(text):
    L = text.split('\n')
    title = L[0][:72].strip(); key = L[0][72:80].strip()
    tot, ptrcrd, indcrd, valcrd, rhscrd = [int(x) if x.strip() else 0 for x in (L[1][0:14], L[1][14:28], L[1][28:42], L[1][42:56], L[1][56:70])]
    mxtype = L[2][0:3].upper(); nrow, ncol, nnz = int(L[2][14:28]), int(L[2][28:42]), int(L[2][42:56])
    ptrfmt, indfmt, valfmt = L[3][0:16], L[3][16:32], L[3][32:52]
    o = 4 + (1 if rhscrd > 0 else 0)
    ptr = _read(L[o:o+ptrcrd], ptrfmt, ncol+1, int); o += ptrcrd
    ind = _read(L[o:o+indcrd], indfmt, nnz, int); o += indcrd
    val = None
    if mxtype[0] != 'P':
        val = np.array(_read(L[o:o+valcrd], valfmt, nnz, lambda t: float(t.replace('D', 'E').replace('d', 'e'))))
    ptr = np.array(ptr) - 1; ind = np.array(ind) - 1
    col = np.repeat(np.arange(ncol), np.diff(ptr))
    return dict(title=title, key=key, type=mxtype, m=nrow, n=ncol, r=ind, c=col, v=val)
