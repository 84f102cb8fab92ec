#!/usr/bin/env python3
"""Validate Matrix Market coordinate files (.mtx or .mtx.gz) and print structure stats.

Checks: header is '%%MatrixMarket matrix coordinate <field> <symmetry>' with a
supported field (real, integer, pattern) and symmetry (general, symmetric,
skew-symmetric); size line has rows cols entries; the number of entry lines equals
entries; every index is 1-based and in range; symmetric/skew files store one
triangle only (skew: no diagonal); each entry line has the right number of tokens.

Stats (after expanding symmetric/skew triangles, off-diagonal counted twice):
rows, cols, stored entries, avg entries per row, longest row, empty rows,
duplicate (i,j) count, and a short structure label (shape profile plus the
'% kind:' line of SuiteSparse headers when present).

Usage: check.py [--json] FILE...   exit status 1 if any file fails.
"""
import gzip
import json
import sys

FIELDS = {"real", "integer", "pattern", "double"}
SYMS = {"general", "symmetric", "skew-symmetric"}


def open_any(path):
    if path.endswith(".gz"):
        return gzip.open(path, "rt", encoding="ascii", errors="strict")
    return open(path, "r", encoding="ascii", errors="strict")


def check(path):
    errs = []
    with open_any(path) as f:
        header = f.readline()
        h = header.strip().split()
        if len(h) != 5 or h[0] != "%%MatrixMarket" or h[1].lower() != "matrix" \
                or h[2].lower() != "coordinate":
            raise ValueError("bad header: %r" % header[:80])
        field, sym = h[3].lower(), h[4].lower()
        if field not in FIELDS:
            raise ValueError("unsupported field %s" % field)
        if sym not in SYMS:
            raise ValueError("unsupported symmetry %s" % sym)
        kind = ""
        line = f.readline()
        while line and (line.startswith("%") or not line.strip()):
            low = line.lower()
            if low.startswith("% kind:") and not kind:
                kind = line.split(":", 1)[1].strip()
            line = f.readline()
        sz = line.split()
        if len(sz) != 3:
            raise ValueError("bad size line: %r" % line[:80])
        m, n, nz = (int(x) for x in sz)
        if sym != "general" and m != n:
            raise ValueError("%s but not square" % sym)
        ntok = 2 if field == "pattern" else 3
        rowcnt = [0] * (m + 1)
        seen = set()
        dups = 0
        count = 0
        expanded = 0
        for ln in f:
            t = ln.split()
            if not t:
                continue
            if t[0].startswith("%"):
                continue
            count += 1
            if len(t) != ntok:
                raise ValueError("entry line %d has %d tokens, want %d" % (count, len(t), ntok))
            i = int(t[0]); j = int(t[1])
            if not (1 <= i <= m and 1 <= j <= n):
                raise ValueError("entry %d index (%d,%d) out of range" % (count, i, j))
            if ntok == 3:
                float(t[2]) if field != "integer" else int(t[2])
            key = i * (n + 1) + j
            if key in seen:
                dups += 1
            else:
                seen.add(key)
            rowcnt[i] += 1
            expanded += 1
            if sym != "general":
                if sym == "skew-symmetric" and i == j:
                    raise ValueError("skew-symmetric with diagonal entry at %d" % count)
                if i != j:
                    rowcnt[j] += 1
                    expanded += 1
        if count != nz:
            raise ValueError("size line says %d entries, found %d" % (nz, count))
        # symmetric files must hold a single triangle
        if sym != "general":
            lower = upper = 0
            for key in seen:
                i, j = divmod(key, n + 1)
                if i > j:
                    lower += 1
                elif i < j:
                    upper += 1
            if lower and upper:
                raise ValueError("%s file holds entries in both triangles" % sym)
    rc = rowcnt[1:]
    avg = expanded / m if m else 0.0
    mx = max(rc) if rc else 0
    empty = sum(1 for c in rc if c == 0)
    # short shape label: rectangular?, row-length profile, empty rows; plus the header's kind if any
    shape = ["rectangular" if m != n else "square"]
    if mx <= 2 * avg + 1:
        shape.append("uniform rows")
    elif mx > 10 * avg:
        shape.append("long-tailed rows")
    else:
        shape.append("moderately varying rows")
    if avg >= 100:
        shape.append("very long rows")
    elif avg <= 4:
        shape.append("very short rows")
    if empty:
        shape.append("%d empty rows" % empty)
    label = ", ".join(shape) + ((" [" + kind + "]") if kind else "")
    return {
        "file": path.rsplit("/", 1)[-1],
        "field": field, "symmetry": sym,
        "rows": m, "cols": n, "file_entries": nz,
        "stored_entries": expanded,
        "avg_per_row": expanded / m if m else 0.0,
        "max_row": max(rc) if rc else 0,
        "empty_rows": sum(1 for c in rc if c == 0),
        "duplicates": dups,
        "label": label,
    }


def main(argv):
    as_json = "--json" in argv
    files = [a for a in argv if a != "--json"]
    bad = 0
    out = []
    for p in files:
        try:
            r = check(p)
            r["ok"] = True
        except Exception as e:  # noqa
            r = {"file": p, "ok": False, "error": str(e)}
            bad += 1
        out.append(r)
        if not as_json:
            if r["ok"]:
                print("OK   %-28s %9d x %-9d nnz=%-9d avg=%7.2f max=%-7d empty=%-7d %s %s%s | %s" % (
                    r["file"], r["rows"], r["cols"], r["stored_entries"], r["avg_per_row"],
                    r["max_row"], r["empty_rows"], r["field"], r["symmetry"],
                    (" DUPS=%d" % r["duplicates"]) if r["duplicates"] else "", r["label"]))
            else:
                print("FAIL %-28s %s" % (r["file"], r["error"]))
            sys.stdout.flush()
    if as_json:
        print(json.dumps(out, indent=1))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
