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
    wrong = [r for r in data["results"] if r["status"] == "WRONG"]
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
    plan_rows = [r for r in ok if r["kernel"] == "kspmv:plan"]
    if plan_rows:
        uses = 100  # spmv_bench's kPlanUses
        print(f"\n### kspmv::Plan (setup amortised over {uses} uses)\n")
        print("| matrix | plan chose | plan [us/use] | oracle kspmv kernel | oracle [us/use] | plan / oracle | "
              "KK default [us] | plan vs KK default | % copy bw (plan) |")
        print("|---|---|---|---|---|---|---|---|---|")
        plan_logs = []
        for p in plan_rows:
            rows = [r for r in ok if r["matrix"] == p["matrix"]]
            amortised = lambda r: r["seconds"] + r["setup_seconds"] / uses
            kspmv_rows = [r for r in rows if r["kernel"].startswith("kspmv:") and r["kernel"] != "kspmv:plan"]
            oracle = min(kspmv_rows, key=amortised)
            kk = next((r for r in rows if r["kernel"] == "kk:default"), None)
            speed = kk["seconds"] / amortised(p) if kk else float("nan")
            if kk:
                plan_logs.append(math.log(speed))
            print(f"| {p['matrix']} | {p.get('note', '').replace('chose ', '')} | {amortised(p) * 1e6:.1f} | "
                  f"{oracle['kernel']} | {amortised(oracle) * 1e6:.1f} | {amortised(p) / amortised(oracle):.2f} | "
                  f"{kk['seconds'] * 1e6 if kk else float('nan'):.1f} | {speed:.2f}x | {100 * p['frac_copy_bw']:.0f}% |")
        if plan_logs:
            print(f"\nGeometric mean speedup of kspmv::Plan (amortised) over KokkosKernels default: "
                  f"{math.exp(sum(plan_logs) / len(plan_logs)):.2f}x over {len(plan_logs)} matrices.")
    if wrong:
        print("\nWrong results (not timed): " + ", ".join(f"{r['matrix']} {r['kernel']}" for r in wrong))


if __name__ == "__main__":
    main()
