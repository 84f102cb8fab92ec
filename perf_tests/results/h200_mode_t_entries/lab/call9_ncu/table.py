#!/usr/bin/env python3
"""Nsight Compute CSVs of call 9 (run.sh) as tables: one line a profiled launch."""
import csv, sys, re
for path in sys.argv[1:]:
    rows = list(csv.reader(open(path)))
    h = next(i for i, r in enumerate(rows) if r and r[0] == "ID")
    hdr = rows[h]; data = {}
    for r in rows[h + 1:]:
        d = dict(zip(hdr, r))
        k = d["ID"]; name = d["Kernel Name"]
        if "CsrTransposeEntriesFunctor" in name:
            short = "entries"  # staged or searched: told apart by the block size below
        elif "CsrTransposeVectorFunctor" in name: short = "lanes"
        else: short = name.split("(")[0].replace("void ", "")[:22]
        data.setdefault(k, {"kernel": short})[d["Metric Name"]] = d["Metric Value"]
    print(path.split("/")[-1])
    keys = ["gpu__time_duration.sum", "launch__block_size", "launch__grid_size", "launch__registers_per_thread", "sm__warps_active.avg.pct_of_peak_sustained_active", "lts__throughput.avg.pct_of_peak_sustained_elapsed", "l1tex__throughput.avg.pct_of_peak_sustained_elapsed", "lts__t_sectors_op_red.sum", "smsp__inst_executed.sum", "smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio", "smsp__average_warp_latency_issue_stalled_lg_throttle.ratio", "smsp__average_warp_latency_issue_stalled_barrier.ratio"]
    short = ["ns", "block", "grid", "regs", "occ%", "L2%", "L1%", "red_sect", "inst", "st_lsb", "st_lgthr", "st_bar"]
    print("  " + " ".join(f"{s:>10}" for s in ["kernel"] + short))
    for k, d in data.items():
        if d["kernel"] == "entries":  # Kokkos' AUTO team size: 256 with the staged rows' scratch, 128 without
            d["kernel"] = "staged" if d.get("launch__block_size") == "256" else "searched"
        print("  " + " ".join(f"{str(d.get(x, '-')).replace(',', '')[:10]:>10}" for x in ["kernel"] + keys))
