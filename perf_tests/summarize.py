#!/usr/bin/env python3
"""Prints a Markdown summary of spmv_bench JSON: per matrix, the plain call (kspmv:automatic)
against KokkosKernels' reference kernel and the best kspmv kernel that keeps A in CSR, with what
it chose and its first call, and kspmv::Plan (setup amortised) against the best kspmv kernel;
geometric means and the worst matrices.

  summarize.py RESULTS.json [REFERENCE] [--choices CHOICES.txt]

REFERENCE: the KokkosKernels candidate to compare with, kk:default (the default; the vendor
library on GPUs) or kk:native. --choices: the output of perf_tests/automatic_choice for the
run's matrices; the table then gives, for each, the time the run measured for the kernel it
names (the choice of the code automatic_choice was built from, where the run's own automatic
call may be of other code).
"""
import json
import math
import sys

CSR_KERNELS = ("kspmv:automatic", "kspmv:csr_scalar", "kspmv:csr_vector", "kspmv:csr_balanced", "kspmv:raw_csr_vector",
               "kspmv:raw_csr_vector_wave", "kspmv:raw_csr_balanced", "kspmv:raw_csr_balanced_512")


def kernel_of_choice(line, average_row):
    """The spmv_bench candidate that runs what an automatic_choice line names."""
    kernel = line.split("-> ")[1].split()[0]
    lanes = int(line.split(" lanes ")[1].split()[0])
    threads = int(line.split(" threads ")[1].split()[0])
    default_lanes = 4  # launch.hpp: raw_vector_lanes on a 32-lane warp
    while default_lanes * 2 <= 32 and default_lanes * 2 * 3 <= average_row:
        default_lanes *= 2
    if kernel == "thread_per_row":
        return "kspmv:csr_scalar"
    if kernel == "raw_balanced":
        return "kspmv:raw_csr_balanced_512" if threads == 512 else "kspmv:raw_csr_balanced"
    if kernel == "raw_vector":
        return "kspmv:raw_csr_vector" if lanes == default_lanes else "kspmv:raw_csr_vector_wave"
    return "kspmv:" + kernel


def choices(data, reference, path):
    ok = [r for r in data["results"] if r["status"] == "ok"]
    print(f"| matrix | automatic chose (automatic_choice) | its kernel in this run [us] | best CSR kernel [us] | "
          f"chosen / best CSR | {reference} [us] | chosen vs {reference} |")
    print("|---|---|---|---|---|---|---|")
    logs, ratios = [], []
    for line in open(path):
        name = line.split(" | ")[0].strip()
        rows = [r for r in ok if r["matrix"] == name]
        if not rows:
            continue
        kernel = kernel_of_choice(line, rows[0]["nnz"] / rows[0]["rows"])
        chosen = next(r for r in rows if r["kernel"] == kernel)
        best = min((r for r in rows if r["kernel"] in CSR_KERNELS and r["kernel"] != "kspmv:automatic"),
                   key=lambda r: r["seconds"])
        kk = next(r for r in rows if r["kernel"] == reference)
        logs.append((math.log(kk["seconds"] / chosen["seconds"]), name))
        ratios.append((chosen["seconds"] / best["seconds"], name))
        print(f"| {name} | {line.split('-> ')[1].split(' (')[0]} | {chosen['seconds'] * 1e6:.1f} | {best['kernel']} "
              f"{best['seconds'] * 1e6:.1f} | {chosen['seconds'] / best['seconds']:.2f} | {kk['seconds'] * 1e6:.1f} | "
              f"{kk['seconds'] / chosen['seconds']:.2f}x |")
    within = sum(1 for r, _ in ratios if r <= 1.10)
    above = sum(1 for v, _ in logs if v >= 0)
    print(f"\nThe choices against {reference}: geometric mean {math.exp(sum(v for v, _ in logs) / len(logs)):.2f}x over "
          f"{len(logs)} matrices, lowest {math.exp(min(logs)[0]):.2f}x ({min(logs)[1]}), {above} at 1.00x or more; "
          f"against the best CSR kernel: {within} of {len(ratios)} within 10%, at most {max(ratios)[0]:.2f}x "
          f"({max(ratios)[1]}).")


def main():
    args = [a for a in sys.argv[1:]]
    choice_file = None
    if "--choices" in args:
        choice_file = args[args.index("--choices") + 1]
        del args[args.index("--choices"):args.index("--choices") + 2]
    data = json.load(open(args[0]))
    reference = args[1] if len(args) > 1 else "kk:default"
    if choice_file:
        choices(data, reference, choice_file)
        return
    ok = [r for r in data["results"] if r["status"] == "ok"]
    matrices = []
    for r in ok:
        if r["matrix"] not in matrices:
            matrices.append(r["matrix"])
    print(f"copy bandwidth {data['copy_bandwidth_gbs']:.0f} GB/s ({data.get('copy_kernel', '?')}), "
          f"read bandwidth {data['read_bandwidth_gbs']:.0f} GB/s ({data.get('read_kernel', '?')})\n")
    print(f"| matrix | group | automatic chose | automatic [us] | % copy bw | first call [us] (SpMVs) | "
          f"best CSR kernel [us] | auto / best CSR | {reference} [us] | auto vs {reference} |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    logs, ratios = [], []
    wrong = [r for r in data["results"] if r["status"] == "WRONG"]
    for m in matrices:
        rows = [r for r in ok if r["matrix"] == m]
        auto = next((r for r in rows if r["kernel"] == "kspmv:automatic"), None)
        kk = next((r for r in rows if r["kernel"] == reference), None)
        if auto is None:
            continue
        best_csr = min((r for r in rows if r["kernel"] in CSR_KERNELS and r["kernel"] != "kspmv:automatic"),
                       key=lambda r: r["seconds"])
        speed = kk["seconds"] / auto["seconds"] if kk else float("nan")
        if kk:
            logs.append((math.log(speed), m))
        ratios.append((auto["seconds"] / best_csr["seconds"], m))
        first = auto["setup_seconds"] + auto["seconds"]
        choice = auto.get("note", "").split(":")[0]
        print(f"| {m} | {rows[0]['group']} | {choice} | {auto['seconds'] * 1e6:.1f} | {100 * auto['frac_copy_bw']:.0f}% | "
              f"{first * 1e6:.1f} ({first / auto['seconds']:.2f}) | {best_csr['kernel']} {best_csr['seconds'] * 1e6:.1f} | "
              f"{auto['seconds'] / best_csr['seconds']:.2f} | {kk['seconds'] * 1e6 if kk else float('nan'):.1f} | "
              f"{speed:.2f}x |")
    if logs:
        worst = min(logs)
        print(f"\nkspmv automatic against {reference}: geometric mean {math.exp(sum(v for v, _ in logs) / len(logs)):.2f}x "
              f"over {len(logs)} matrices, lowest {math.exp(worst[0]):.2f}x ({worst[1]}); "
              f"against the best CSR kernel of the run: at most {max(ratios)[0]:.2f}x its time ({max(ratios)[1]}).")
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
