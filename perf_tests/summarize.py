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
        csr_rows = [r for r in rows if r["kernel"] in CSR_KERNELS and r["kernel"] != "kspmv:automatic"]
        best_csr = min(csr_rows, key=lambda r: r["seconds"]) if csr_rows else auto  # --kernels plain: none
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
        plan_logs, oracle_ratios = [], []
        for p in plan_rows:
            rows = [r for r in ok if r["matrix"] == p["matrix"]]
            amortised = lambda r: r["seconds"] + r["setup_seconds"] / uses
            kspmv_rows = [r for r in rows if r["kernel"].startswith("kspmv:") and r["kernel"] != "kspmv:plan"]
            oracle = min(kspmv_rows, key=amortised)
            kk = next((r for r in rows if r["kernel"] == "kk:default"), None)
            speed = kk["seconds"] / amortised(p) if kk else float("nan")
            if kk:
                plan_logs.append((math.log(speed), p["matrix"]))
            oracle_ratios.append((amortised(p) / amortised(oracle), p["matrix"]))
            print(f"| {p['matrix']} | {p.get('note', '').split('; predicted')[0].replace('chose ', '')} | {amortised(p) * 1e6:.1f} | "
                  f"{oracle['kernel']} | {amortised(oracle) * 1e6:.1f} | {amortised(p) / amortised(oracle):.2f} | "
                  f"{kk['seconds'] * 1e6 if kk else float('nan'):.1f} | {speed:.2f}x | {100 * p['frac_copy_bw']:.0f}% |")
        if plan_logs:
            print(f"\nGeometric mean speedup of kspmv::Plan (amortised) over KokkosKernels default: "
                  f"{math.exp(sum(v for v, _ in plan_logs) / len(plan_logs)):.2f}x over {len(plan_logs)} matrices, "
                  f"lowest {math.exp(min(plan_logs)[0]):.2f}x ({min(plan_logs)[1]}), "
                  f"{sum(1 for v, _ in plan_logs if v < math.log(1.05))} below 1.05x; against the best kspmv kernel "
                  f"(amortised): {sum(1 for r, _ in oracle_ratios if r <= 1.05)} of {len(oracle_ratios)} within 5%, "
                  f"at most {max(oracle_ratios)[0]:.2f}x ({max(oracle_ratios)[1]}).")
        plan_model_ranking(ok, plan_rows, uses)
    bandwidth_counts(ok)
    mode_t(ok)
    multivector(ok)
    mixed(ok)
    if wrong:
        print("\nWrong results (not timed): " + ", ".join(f"{r['matrix']} {r['kernel']}" for r in wrong))


def mode_t(ok):
    """Mode T (rows named T:...): kspmv's plain call and kspmv::Plan in mode T (its setup, forming
    A^T where it does, amortised over spmv_bench's kPlanUses = 100 uses) against KokkosKernels'
    default."""
    names = []
    for r in ok:
        if r["kernel"] == "T:kspmv:automatic" and r["matrix"] not in names:
            names.append(r["matrix"])
    if not names:
        return
    uses = 100
    print("\n### Mode T: y = A^T*x\n")
    print(f"| matrix | kspmv [us] | % copy bw | KK default [us] | kspmv vs KK default | plan chose | "
          f"plan setup [us] | plan [us] | plan amortised over {uses} uses vs KK default |")
    print("|---|---|---|---|---|---|---|---|---|")
    logs, plan_logs = [], []
    for m in names:
        k = next(r for r in ok if r["matrix"] == m and r["kernel"] == "T:kspmv:automatic")
        kk = next((r for r in ok if r["matrix"] == m and r["kernel"] == "T:kk:default"), None)
        p = next((r for r in ok if r["matrix"] == m and r["kernel"] == "T:kspmv:plan"), None)
        speed = kk["seconds"] / k["seconds"] if kk else float("nan")
        if kk:
            logs.append((speed, m))
        plan_cells = "| | | "
        if p:
            amortised = p["seconds"] + p["setup_seconds"] / uses
            plan_speed = kk["seconds"] / amortised if kk else float("nan")
            if kk:
                plan_logs.append((plan_speed, m))
            chose = p.get("note", "").split(";")[0].replace("chose ", "")
            plan_cells = f"| {chose} | {p['setup_seconds'] * 1e6:.0f} | {p['seconds'] * 1e6:.1f} | {plan_speed:.2f}x |"
        print(f"| {m} | {k['seconds'] * 1e6:.1f} | {100 * k['frac_copy_bw']:.0f}% | "
              f"{kk['seconds'] * 1e6 if kk else float('nan'):.1f} | {speed:.2f}x " + plan_cells)
    for what, values in (("Mode T (the plain call)", logs), (f"Plan in mode T ({uses} uses, setup amortised)", plan_logs)):
        if values:
            print(f"\n{what} against KokkosKernels' default: geometric mean "
                  f"{math.exp(sum(math.log(v) for v, _ in values) / len(values)):.2f}x over {len(values)} matrices, "
                  f"lowest {min(values)[0]:.2f}x ({min(values)[1]}).")


def multivector(ok):
    """Several vectors (rows named mv<k>L:... and mv<k>R:...): kspmv's plain call against
    KokkosKernels' default with the same vectors, its time per vector against kspmv's rank-1 call,
    and the fastest lane count of the raw kernel."""
    kinds = []
    for r in ok:
        if r["kernel"].startswith("mv") and r["kernel"].endswith(":kspmv:automatic"):
            kind = r["kernel"].split(":")[0]
            if kind not in kinds:
                kinds.append(kind)
    if not kinds:
        return
    print("\n### Several vectors: Y = A*X, X and Y of k columns (L: LayoutLeft, R: LayoutRight)\n")
    print("| matrix | k, layout | kspmv [us] | % copy bw | KK default [us] | kspmv vs KK default | "
          "per vector / rank-1 kspmv | fastest raw lanes [us] |")
    print("|---|---|---|---|---|---|---|---|")
    by_kind = {}
    for kind in kinds:
        vectors = int(kind[2:-1])
        for m in dict.fromkeys(r["matrix"] for r in ok if r["kernel"] == kind + ":kspmv:automatic"):
            rows = [r for r in ok if r["matrix"] == m]
            auto = next(r for r in rows if r["kernel"] == kind + ":kspmv:automatic")
            kk = next((r for r in rows if r["kernel"] == kind + ":kk:default"), None)
            single = next((r for r in rows if r["kernel"] == "kspmv:automatic"), None)
            lanes = [r for r in rows if r["kernel"].startswith(kind + ":kspmv:raw_lanes")]
            fastest = min(lanes, key=lambda r: r["seconds"]) if lanes else None
            speed = kk["seconds"] / auto["seconds"] if kk else float("nan")
            per_vector = auto["seconds"] / vectors / single["seconds"] if single else float("nan")
            by_kind.setdefault(kind, []).append((speed, per_vector, m))
            fastest_text = (f"{fastest['kernel'].split('raw_lanes')[1]}: {fastest['seconds'] * 1e6:.1f}" if fastest
                            else "")
            print(f"| {m} | {vectors}, {kind[-1]} | {auto['seconds'] * 1e6:.1f} | {100 * auto['frac_copy_bw']:.0f}% | "
                  f"{kk['seconds'] * 1e6 if kk else float('nan'):.1f} | {speed:.2f}x | {per_vector:.2f} | {fastest_text} |")
    print()
    for kind, values in by_kind.items():
        speeds = [(v, m) for v, _, m in values if v == v]
        per = [(p, m) for _, p, m in values if p == p]
        text = f"- {kind}: "
        if speeds:
            text += (f"against KokkosKernels' default geometric mean "
                     f"{math.exp(sum(math.log(v) for v, _ in speeds) / len(speeds)):.2f}x, lowest {min(speeds)[0]:.2f}x "
                     f"({min(speeds)[1]}), {sum(1 for v, _ in speeds if v < 1.0)} of {len(speeds)} below 1.0x")
        if per:
            text += (f"; time per vector / rank-1 call at most {max(per)[0]:.2f} ({max(per)[1]}), "
                     f"{sum(1 for p, _ in per if p > 0.5)} of {len(per)} above 0.5")
        print(text)


def mixed(ok):
    """Mixed precision (spmv_bench --mixed): A's values in float with double x and y against kspmv's
    plain call in double and KokkosKernels' default."""
    rows = [r for r in ok if r["kernel"] == "kspmv:float_values_balanced"]
    if not rows:
        return
    print("\n### Mixed precision: A's values in float, x, y and the sums in double\n")
    print("| matrix | float values [us] | plain call, double [us] | speedup over double | KK default [us] | "
          "speedup over KK default | max rel. error |")
    print("|---|---|---|---|---|---|---|")
    over_double, over_kk = [], []
    for f in rows:
        auto = next((r for r in ok if r["matrix"] == f["matrix"] and r["kernel"] == "kspmv:automatic"), None)
        kk = next((r for r in ok if r["matrix"] == f["matrix"] and r["kernel"] == "kk:default"), None)
        a = auto["seconds"] / f["seconds"] if auto else float("nan")
        k = kk["seconds"] / f["seconds"] if kk else float("nan")
        if auto:
            over_double.append((a, f["matrix"]))
        if kk:
            over_kk.append((k, f["matrix"]))
        print(f"| {f['matrix']} | {f['seconds'] * 1e6:.1f} | {auto['seconds'] * 1e6 if auto else float('nan'):.1f} | "
              f"{a:.2f}x | {kk['seconds'] * 1e6 if kk else float('nan'):.1f} | {k:.2f}x | {f['max_rel_error']:.1e} |")
    geo = lambda v: math.exp(sum(math.log(x) for x, _ in v) / len(v))
    if over_double:
        print(f"\nFloat values against the plain call in double: geometric mean {geo(over_double):.2f}x over "
              f"{len(over_double)} matrices, lowest {min(over_double)[0]:.2f}x ({min(over_double)[1]}), highest "
              f"{max(over_double)[0]:.2f}x ({max(over_double)[1]}); against KokkosKernels' default (double): "
              f"{geo(over_kk):.2f}x, lowest {min(over_kk)[0]:.2f}x ({min(over_kk)[1]}).")


def bandwidth_counts(ok):
    """Raw balanced CSR (the faster of its block sizes) and Csr16Matrix against the device's copy
    bandwidth by the CSR byte model, on the matrices whose CSR is far larger than the L2 (over
    200 MB): how many reach 90%, and how many run faster than the CSR bytes could stream at
    copy bandwidth (above 100%)."""
    large = sorted({r["matrix"] for r in ok if r["nnz"] * 12 > 200e6})
    for label, kernels in (("raw balanced CSR", ("kspmv:raw_csr_balanced", "kspmv:raw_csr_balanced_512")),
                           ("Csr16Matrix", ("kspmv:csr16",))):
        fracs = []
        for m in large:
            rows = [r for r in ok if r["matrix"] == m and r["kernel"] in kernels]
            if rows:
                fracs.append(max(r["frac_copy_bw"] for r in rows))
        if fracs:
            print(f"\n{label}, CSR byte model, {len(fracs)} matrices over 200 MB of CSR: geometric mean "
                  f"{math.exp(sum(math.log(f) for f in fracs) / len(fracs)):.2f} of copy bandwidth, "
                  f"{sum(1 for f in fracs if f >= 0.9)} at 0.90 or more, {sum(1 for f in fracs if f > 1.0)} above 1.00.")


# The plan's candidates as spmv_bench times them (raw balanced CSR: the faster of its two block
# sizes, which the plan chooses between by the same rule as the plain call; UniformCsrMatrix and
# CodedCsrMatrix run the raw load-balanced kernel where the raw kernels exist, as the plan's).
PLAN_CANDIDATE_KERNELS = {
    "csr_scalar": ("kspmv:csr_scalar",), "csr_vector": ("kspmv:csr_vector",),
    "csr_balanced": ("kspmv:csr_balanced",), "raw_csr_vector": ("kspmv:raw_csr_vector",),
    "raw_csr_balanced": ("kspmv:raw_csr_balanced", "kspmv:raw_csr_balanced_512"), "ell": ("kspmv:ell",),
    "blocked_ell": ("kspmv:blocked_ell",), "raw_blocked_ell": ("kspmv:raw_blocked_ell",), "hyb": ("kspmv:hyb",),
    "dia": ("kspmv:dia",), "raw_csr16": ("kspmv:csr16",), "raw_csr_uniform": ("kspmv:csr_uniform",),
    "raw_csr_coded": ("kspmv:csr_coded",)}


def plan_model_ranking(ok, plan_rows, uses):
    """The plan model's ranking against the run: for every pair of candidates whose measured times
    a use (SpMV + setup / uses) differ by more than 10%, whether the model's predicted times order
    them the same way (the predictions are in the plan's note, from spmv_bench)."""
    pairs = wrong = 0
    worst = []
    for p in plan_rows:
        note = p.get("note", "")
        if "; predicted setup/SpMV us:" not in note:
            continue
        fields = note.split("; predicted setup/SpMV us:")[1].split()
        predicted = {}
        for name, times in zip(fields[0::2], fields[1::2]):
            setup, apply = (float(t) for t in times.split("/"))
            predicted[name] = apply + setup / uses
        measured = {}
        for name, kernels in PLAN_CANDIDATE_KERNELS.items():
            rows = [r for r in ok if r["matrix"] == p["matrix"] and r["kernel"] in kernels]
            if name in predicted and rows:
                measured[name] = min(r["seconds"] + r["setup_seconds"] / uses for r in rows) * 1e6
        names = sorted(measured)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                fast, slow = (a, b) if measured[a] < measured[b] else (b, a)
                if measured[slow] <= 1.1 * measured[fast]:
                    continue
                pairs += 1
                if predicted[fast] >= predicted[slow]:
                    wrong += 1
                    worst.append((measured[slow] / measured[fast], p["matrix"], fast, slow, predicted[fast], predicted[slow]))
    if pairs:
        print(f"\nPlan model: {pairs - wrong} of {pairs} pairs of candidates whose measured times a use differ by more "
              f"than 10% ranked the same way by the model; the wrong ones, worst first (measured ratio, matrix, "
              f"faster, slower, predicted us a use of each):")
        for ratio, matrix, fast, slow, pf, ps in sorted(worst, reverse=True)[:25]:
            print(f"- {ratio:.2f}x {matrix}: {fast} faster than {slow}; predicted {pf:.1f} against {ps:.1f}")


if __name__ == "__main__":
    main()
