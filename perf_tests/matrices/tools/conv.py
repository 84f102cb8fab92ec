#!/usr/bin/env python3
"""conv.py MODE IN OUT [opts]
MODE fixhdr : Matrix Market body with a malformed banner ('%MatrixMarket'); rewrite banner.
MODE edges  : whitespace edge list ('#' or '%' comments). opts: sym|general, base0|base1, n=N
   sym: undirected, stores lower triangle (i>=j), removes duplicate pairs and self-loops kept once.
   general: directed, duplicate pairs removed.
Comment lines given via --comment="..." (repeatable) are written after the banner."""
import sys
mode, inp, out = sys.argv[1:4]
opts = sys.argv[4:]
comments = [o.split("=",1)[1] for o in opts if o.startswith("--comment=")]
opts = [o for o in opts if not o.startswith("--comment=")]
if mode == "fixhdr":
    with open(inp) as f, open(out, "w") as g:
        first = f.readline().split()
        first[0] = "%%MatrixMarket"
        g.write(" ".join(first[:5]) + "\n")
        for c in comments: g.write("% " + c + "\n")
        for ln in f:
            if ln.strip(): g.write(ln.strip() + "\n")
elif mode == "edges":
    sym = "sym" in opts
    base0 = "base0" in opts
    n = None
    for o in opts:
        if o.startswith("n="): n = int(o[2:])
    ent = set()
    mx = 0
    with open(inp) as f:
        for ln in f:
            if not ln.strip() or ln[0] in "#%": continue
            t = ln.split()
            i, j = int(t[0]), int(t[1])
            if base0: i += 1; j += 1
            if sym and i < j: i, j = j, i
            ent.add((i, j)); mx = max(mx, i, j)
    n = n or mx
    with open(out, "w") as g:
        g.write("%%%%MatrixMarket matrix coordinate pattern %s\n" % ("symmetric" if sym else "general"))
        for c in comments: g.write("% " + c + "\n")
        g.write("%d %d %d\n" % (n, n, len(ent)))
        for i, j in sorted(ent, key=lambda e: (e[1], e[0])):
            g.write("%d %d\n" % (i, j))
