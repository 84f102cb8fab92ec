#!/usr/bin/env python3
"""Offline (no new runs): the plan model's thread-a-row charge on rows of 8 entries or fewer
(include/kspmv/impl/plan_model.hpp: per_call(csr_bytes, csr_scalar_short = 0.70, longest x 80 ns),
i.e. latency + CSR's bytes at 0.70 of the Plan's bandwidth + the gathers' charge + the longest
row's serial time) against the H200 runs recorded so far, and a refit of it:
  latency + longest x 80 ns + a x B + g x G + v x B x min(row-length variation, 3)
(B, G as ../h200_plan_scalar_variation/fit.py derives them), least squares on the time relative
to raw balanced CSR's (each run's prediction of raw balanced CSR scaled by the ratio measured),
fitted to the 53 and the 25 and checked on the third, fourth and fifth sets. Then a replay of the
Plan's choice in the recent runs with the refit in place of the present charge (every other
candidate's predicted setup and time as the run's Plan noted them; 100 uses): which choices change
and whether each run's Plan stays within 5% of the best kspmv kernel a use.

  python3 fit.py        (numpy; reads the runs named below and the matrices' row lengths)
"""
import collections
import glob
import gzip
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "h200_plan_scalar_variation"))
import fit as base  # noqa: E402

for extra in ("matrices_fourth", "matrices_fifth"):
    base.MATRIX_DIRS.append(os.path.join(base.REPO, "perf_tests", extra))
R = base.RESULTS
FIT_RUNS = sum(base.SETS.values(), []) + sorted(
    os.path.relpath(p, R) for p in glob.glob(os.path.join(R, "h200_plan_scalar_variation/change/*/*.json.gz")))
RECENT = sorted(os.path.relpath(p, R) for pattern in (
    "h200_coded_lookup/*/*.json.gz", "h200_plan_fourth/capped/*.json.gz", "h200_plan_fifth/*.json.gz",
    "h200_balanced_evict_last/p*.json.gz") for p in glob.glob(os.path.join(R, pattern)))
HELD = set()
for d in ("matrices_third", "matrices_fourth", "matrices_fifth"):
    HELD |= {f[:-3] for f in os.listdir(os.path.join(base.REPO, "perf_tests", d)) if f.endswith(".mtx.gz")}
KERNEL = {"csr_scalar": "kspmv:csr_scalar", "raw_csr_vector": "kspmv:raw_csr_vector", "raw_csr_balanced": "kspmv:raw_csr_balanced",
          "raw_csr16": "kspmv:csr16", "raw_csr_uniform": "kspmv:csr_uniform", "raw_csr_coded": "kspmv:csr_coded"}


def runs_of(files):
    for f in files:
        by = {}
        for r in json.load(gzip.open(os.path.join(R, f)))["results"]:
            if r.get("vectors", 1) == 1 and r.get("status") == "ok":
                by.setdefault(r["matrix"], {})[r["kernel"]] = r
        yield f, by, base.plan_bandwidth(by)


def short_rows(files):
    rows = []
    for f, by, bw in runs_of(files):
        for m, ks in by.items():
            p = ks.get("kspmv:plan")
            if not p or "predicted" not in p["note"] or p["nnz"] > 8 * p["rows"]:
                continue
            pred = base.predictions(p)
            B = base.csr_bytes(p) / bw
            fe = base.features(m.split(" ")[0])
            rows.append(dict(fe, name=m.split(" ")[0], B=B, G=pred["raw_csr_balanced"] - 5e-6 - B / 0.99,
                             pred_bal=pred["raw_csr_balanced"], pred_scalar=pred["csr_scalar"],
                             ratio=ks["kspmv:csr_scalar"]["seconds"] / ks["kspmv:raw_csr_balanced"]["seconds"]))
    return rows


def refit_time(r, c):
    return 5e-6 + r["longest"] * 80e-9 + c[0] * r["B"] + c[1] * r["G"] + c[2] * r["B"] * min(r["variation"], 3)


def errors(rows, predict):
    e = np.array([predict(r) / r["pred_bal"] / r["ratio"] - 1 for r in rows])
    return f"root mean square {np.sqrt(np.mean(e ** 2)):.3f}, largest {np.abs(e).max():.3f}"


def main():
    rows = [r for r in short_rows(FIT_RUNS + RECENT)]
    fit_rows = [r for r in short_rows(FIT_RUNS) if r["name"] not in HELD]
    A = np.array([[r["B"], r["G"], r["B"] * min(r["variation"], 3)] for r in fit_rows])
    target = np.array([r["pred_bal"] * r["ratio"] for r in fit_rows])
    offset = np.array([5e-6 + r["longest"] * 80e-9 for r in fit_rows])
    c = np.linalg.lstsq(A / target[:, None], (target - offset) / target, rcond=None)[0]
    print(f"refit: {c[0]:.3f} B + {c[1]:.3f} G + {c[2]:.3f} B x min(variation, 3)")
    for label, group in (("53 and 25", [r for r in rows if r["name"] not in HELD]),
                         ("third, fourth, fifth (not fitted)", [r for r in rows if r["name"] in HELD])):
        print(f"{label}: {len(group)} runs of {len(set(r['name'] for r in group))} matrices; ratio to raw balanced CSR: "
              f"present charge {errors(group, lambda r: r['pred_scalar'])}; refit {errors(group, lambda r: refit_time(r, c))}")
    # The replay.
    total, within_old, within_new, changed = 0, 0, 0, []
    for f, by, bw in runs_of(RECENT):
        for m, ks in by.items():
            p = ks.get("kspmv:plan")
            if not p or "predicted" not in p["note"]:
                continue
            fields = p["note"].split("predicted setup/SpMV us:")[1].split()
            cand = {fields[i]: [float(x) * 1e-6 for x in fields[i + 1].split("/")] for i in range(0, len(fields), 2)}
            amortised = lambda k: k["seconds"] + k["setup_seconds"] / 100  # noqa: E731
            best = min(amortised(r) for n, r in ks.items() if n.startswith("kspmv:") and n not in ("kspmv:plan", "kspmv:automatic"))
            old = min(cand, key=lambda n: cand[n][0] / 100 + cand[n][1])
            if p["nnz"] <= 8 * p["rows"]:
                fe = base.features(m.split(" ")[0])
                B = base.csr_bytes(p) / bw
                r = dict(fe, B=B, G=cand["raw_csr_balanced"][1] - 5e-6 - B / 0.99)
                cand["csr_scalar"][1] = refit_time(r, c)
            new = min(cand, key=lambda n: cand[n][0] / 100 + cand[n][1])
            time_new = amortised(p) if new == old else (amortised(ks[KERNEL[new]]) if KERNEL.get(new) in ks else None)
            total += 1
            within_old += amortised(p) / best <= 1.05
            within_new += time_new is not None and time_new / best <= 1.05
            if new != old:
                changed.append((f, m, old, new, amortised(p) / best, time_new / best if time_new else None))
    print(f"replay over {total} Plans of {len(RECENT)} runs: within 5% {within_old} as run, {within_new} with the refit; "
          f"{len(changed)} choices change")
    for x in changed:
        print("  ", x)


if __name__ == "__main__":
    main()
