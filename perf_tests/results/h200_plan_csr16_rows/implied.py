#!/usr/bin/env python3
# The rate (fraction of copy bandwidth by its own bytes) Csr16Matrix would have needed, matrix by
# matrix, for the plan model to predict its measured time relative to raw balanced CSR's, from a
# bench record of --kernels csr (each Plan's note lists its predictions). The model charges both
# the same latency, gathers of x and walk; the streaming parts differ: csr_bytes/(bw x 0.99) for
# raw balanced CSR, csr16_bytes/(bw x rate) for Csr16Matrix (0.86 for every row length below two
# waves before this record; --made-with 0.88,0.84 for records of the model since). The
# streaming part of raw balanced CSR is taken from the predictions of the two thread-per-row
# candidates (the same bytes and gathers at rates 0.70/0.36 and 0.41; the longest row from the
# automatic call's analysis is not in the record, so it is solved for as well, from a third,
# raw vector CSR at 0.59), scaled by measured/predicted raw balanced CSR; the matrices of rows of
# two waves or more (64 entries), charged other rates, are left out.
#   python3 implied.py [--made-with SHORT,OTHER] RECORD.json[.gz]...   (medians: <= 8 entries, 9-63)
# It needs the Kokkos vector CSR candidate in each note: records of the model before 1bd8a83, which
# stopped listing it where the raw kernels exist (the GPU records since); those raise a KeyError here.
import gzip, json, re, sys, collections

def load(path):
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        return json.load(f)

def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]

lat = 5e-6
args = sys.argv[1:]
made_with = (0.86, 0.86)
if args and args[0] == "--made-with":
    made_with = tuple(float(x) for x in args[1].split(","))
    args = args[2:]
runs = collections.defaultdict(lambda: collections.defaultdict(list))
for path in args:
    for r in load(path)["results"]:
        if r["status"] == "ok":
            runs[r["matrix"]][r["kernel"]].append(r)
regimes = {"rows of 8 entries or fewer": [], "rows of 9-63 entries": []}
for m, k in runs.items():
    if "kspmv:plan" not in k or "kspmv:csr16" not in k:
        continue
    r0 = k["kspmv:plan"][0]
    avg = r0["nnz"] / r0["rows"]
    if avg >= 64:
        continue
    note = r0["note"].split("predicted setup/SpMV us:")[1]
    P = {a: float(t) * 1e-6 for a, s, t in re.findall(r"(\w+) ([\d.e+-]+)/([\d.e+-]+)", note)}
    if "raw_csr16" not in P or P["raw_csr16"] == P["raw_csr_balanced"]:
        continue  # not analysed, or predicted as raw balanced CSR (gathers that miss the caches)
    rs = 0.70 if avg <= 16 else 0.36
    # P = lat + S/rate + G + L*serial: three thread-per-row candidates, three unknowns (S, G, L)
    # scalar: serial 80 ns, vector 60 ns, raw vector 25 ns an entry of the longest row.
    a, b, c = P["csr_scalar"] - lat, P["csr_vector"] - lat, P["raw_csr_vector"] - lat
    # a - b = S (1/rs - 1/0.41) + L 20e-9 ; b - c = S (1/0.41 - 1/0.59) + L 35e-9
    d1, d2 = 1 / rs - 1 / 0.41, 1 / 0.41 - 1 / 0.59
    S = ((a - b) * 35e-9 - (b - c) * 20e-9) / (d1 * 35e-9 - d2 * 20e-9)
    Sb = S / 0.99
    B16 = made_with[0 if avg <= 8 else 1] * (P["raw_csr16"] - P["raw_csr_balanced"] + Sb)
    bal = median([x["seconds"] for x in k["kspmv:raw_csr_balanced"]])
    c16 = median([x["seconds"] for x in k["kspmv:csr16"]])
    scale = bal / P["raw_csr_balanced"]
    rate = B16 * scale / (c16 - bal + Sb * scale)
    regimes["rows of 8 entries or fewer" if avg <= 8 else "rows of 9-63 entries"].append((rate, m, c16 / bal))
for name, v in regimes.items():
    if not v:
        continue
    v.sort()
    print("%s: %d matrices, median %.3f (%.2f-%.2f)" % (name, len(v), median([x[0] for x in v]), v[0][0], v[-1][0]))
    for rate, m, ratio in v:
        print("    %-40s %.3f  (Csr16Matrix %.3fx raw balanced CSR's time)" % (m, rate, ratio))
