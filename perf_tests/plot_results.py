#!/usr/bin/env python3
"""Renders spmv_bench JSON into the two figures of published SpMV studies.

  plot_results.py RESULTS.json OUTPUT_PREFIX

writes OUTPUT_PREFIX_time.png (time per SpMV of every kernel relative to KokkosKernels'
default, per matrix; below 1 is faster) and OUTPUT_PREFIX_setup.png (one-time setup cost in
units of one SpMV of the same kernel). Needs matplotlib (Debian: python3-matplotlib).
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def grouped_bars(ax, matrices, kernels, value, ylabel, title, log=True, reference_line=None):
    width = 0.8 / max(1, len(kernels))
    cmap = plt.get_cmap("tab20")  # up to 20 kernels, each its own colour
    for k, kernel in enumerate(kernels):
        xs, ys = [], []
        for m, matrix in enumerate(matrices):
            v = value(matrix, kernel)
            if v is not None and v > 0:
                xs.append(m + (k - (len(kernels) - 1) / 2) * width)
                ys.append(v)
        ax.bar(xs, ys, width=width, label=kernel, color=cmap(k % 20))
    if reference_line is not None:
        ax.axhline(reference_line, color="black", linewidth=0.8)
    if log:
        ax.set_yscale("log")
    ax.set_xticks(range(len(matrices)))
    ax.set_xticklabels(matrices, rotation=35, ha="right", fontsize=8)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="y", which="both", alpha=0.3)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    data = json.load(open(sys.argv[1]))
    results = [r for r in data["results"] if r["status"] == "ok"]
    groups = []
    for r in results:
        if r["group"] not in groups:
            groups.append(r["group"])
    kernels = []
    for r in results:
        if r["kernel"] not in kernels:
            kernels.append(r["kernel"])
    by_key = {(r["matrix"], r["kernel"]): r for r in results}
    header = (f"{data['backend']}, Kokkos {data['kokkos_version']}, "
              f"KokkosKernels {data.get('kokkoskernels_version', 'absent')}; "
              f"copy {data['copy_bandwidth_gbs']:.0f} GB/s, read {data['read_bandwidth_gbs']:.0f} GB/s")

    def matrices_of(group):
        seen = []
        for r in results:
            if r["group"] == group and r["matrix"] not in seen:
                seen.append(r["matrix"])
        return seen

    def relative_time(matrix, kernel):
        r, kk = by_key.get((matrix, kernel)), by_key.get((matrix, "kk:default"))
        return r["seconds"] / kk["seconds"] if r and kk else None

    def setup_ratio(matrix, kernel):
        r = by_key.get((matrix, kernel))
        return r["setup_over_spmv"] if r and r["setup_over_spmv"] > 0 else None

    for suffix, value, ylabel, what, ref in [
        ("time", relative_time, "time per SpMV / KokkosKernels default", "time relative to KokkosKernels default (lower is faster)", 1.0),
        ("setup", setup_ratio, "setup time / one SpMV", "setup cost in SpMVs (kernels without setup omitted)", None),
    ]:
        fig, axes = plt.subplots(len(groups), 1, figsize=(13, 4.2 * len(groups)), squeeze=False)
        for ax, group in zip(axes[:, 0], groups):
            grouped_bars(ax, matrices_of(group), kernels, value, ylabel, f"{group}: {what}", reference_line=ref)
        axes[0, 0].legend(fontsize=7, ncol=4, loc="upper left")
        fig.suptitle(header, fontsize=10)
        fig.tight_layout()
        out = f"{sys.argv[2]}_{suffix}.png"
        fig.savefig(out, dpi=110)
        print("wrote", out)


if __name__ == "__main__":
    main()
