#!/usr/bin/env python3
"""Prints a Markdown summary of spmv_bench JSON: per matrix, kspmv's automatic choice and best
kernel against KokkosKernels' default and the best kernel of the run, in time and fraction of
the measured copy bandwidth (CSR minimum-bytes model), plus the geometric mean speedup.

  summarize.py RESULTS.json
"""
import json
import math
import sys


def main():
    data = json.load(open(sys.argv[1]))
    ok = [r for r in data["results"] if r["status"] == "ok"]
    matrices = []
    for r in ok:
        if r["matrix"] not in matrices:
            matrices.append(r["matrix"])
    print(f"copy bandwidth {data['copy_bandwidth_gbs']:.0f} GB/s ({data.get('copy_kernel', '?')}), "
          f"read bandwidth {data['read_bandwidth_gbs']:.0f} GB/s ({data.get('read_kernel', '?')})\n")
    print("| matrix | group | kspmv automatic [us] | % copy bw | best kspmv kernel | KK default [us] | "
          "auto vs KK default | best kernel of the run | auto / best |")
    print("|---|---|---|---|---|---|---|---|---|")
    logs = []
    wrong = [r for r in data["results"] if r["status"] != "ok"]
    for m in matrices:
        rows = [r for r in ok if r["matrix"] == m]
        auto = next((r for r in rows if r["kernel"] == "kspmv:automatic"), None)
        kk = next((r for r in rows if r["kernel"] == "kk:default"), None)
        best_kspmv = min((r for r in rows if r["kernel"].startswith("kspmv:")), key=lambda r: r["seconds"])
        best = min(rows, key=lambda r: r["seconds"])
        speed = kk["seconds"] / auto["seconds"] if kk and auto else float("nan")
        if kk and auto:
            logs.append(math.log(speed))
        print(f"| {m} | {rows[0]['group']} | {auto['seconds'] * 1e6:.1f} | {100 * auto['frac_copy_bw']:.0f}% | "
              f"{best_kspmv['kernel']} {best_kspmv['seconds'] * 1e6:.1f} | "
              f"{kk['seconds'] * 1e6 if kk else float('nan'):.1f} | {speed:.2f}x | {best['kernel']} "
              f"{best['seconds'] * 1e6:.1f} | {auto['seconds'] / best['seconds']:.2f} |")
    if logs:
        print(f"\nGeometric mean speedup of kspmv automatic over KokkosKernels default: "
              f"{math.exp(sum(logs) / len(logs)):.2f}x over {len(logs)} matrices.")
    if wrong:
        print("\nWrong results (not timed): " + ", ".join(f"{r['matrix']} {r['kernel']}" for r in wrong))


if __name__ == "__main__":
    main()
