import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
hdr = rows[1]; data = rows[2:]
ix = {h:i for i,h in enumerate(hdr)}
tot_exec = sum(int(r[ix["Instructions Executed"]] or 0) for r in data)
tot_samp = sum(int(r[ix["Warp Stall Sampling (All Samples)"]] or 0) for r in data)
print("instructions", tot_exec, "samples", tot_samp, "lines", len(data))
# print each instruction with exec count and samples, compact
for k, r in enumerate(data):
    e = int(r[ix["Instructions Executed"]] or 0); s = int(r[ix["Warp Stall Sampling (All Samples)"]] or 0)
    top = sorted(((int(r[ix[h]] or 0), h) for h in hdr if h.startswith("stall_") and "Not Issued" not in h), reverse=True)[:2]
    if e or s:
        print("%4d %-60s %10d %6.2f%% samp %5d %s" % (k, r[ix["Source"]].strip()[:60], e, 100.0*e/tot_exec, s, " ".join("%s:%d"%(h[6:],v) for v,h in top if v)))
