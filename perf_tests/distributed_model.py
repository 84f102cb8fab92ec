#!/usr/bin/env python3
"""A model of kspmv's distributed SpMV (include/kspmv/distributed.hpp) on the 3D Poisson matrices.

    python3 perf_tests/distributed_model.py [--cpu RUN_DIR] [--out FILE.md]

What one rank does in kspmv::spmv on a DistributedCsrMatrix, and what the model charges for it:
  pack      a kernel gathers the x entries its neighbours need, then a fence:  t_launch + 20 B/entry / R
  exchange  one message to and from each neighbour: alpha + (bytes sent by the rank) / beta,
            plus, without GPU-aware MPI, the copies through host memory (device to host before the
            sends, host to device after the receives): 2 * (alpha_copy + bytes / beta_copy)
  local     the local block's SpMV (CSR model bytes: nnz*12 + rows*(4+8) + cols*8 + 4) / R + t_launch
  ghost     the ghost block's SpMV and the scatter into y: its CSR bytes / R + 2 t_launch
On a GPU the local SpMV runs while the messages travel (the host waits in MPI, the GPU computes):
    t = pack + max(local, exchange) + ghost
On a CPU rank with one thread, the same thread does both, so nothing overlaps:
    t = pack + local + exchange + ghost
R is the rate of the single-device SpMV in bytes of the CSR model per second. The matrices are
split by kspmv::contiguous_partition, whose blocks of consecutive rows (x fastest) are slabs of
z-planes: a rank with at least one plane has two neighbours (one at the ends), needs one plane of
x from each (nx*ny entries) and sends one to each. The slowest rank, an interior one, sets the time.

Inputs for the H200 (every one named below with where it comes from): R and t_launch measured by
spmv_bench on an H200 (perf_tests/results/h200_bee51e6/); the interconnect figures are the vendors'
nominal ones, NOT measured here (the one machine of several GPUs lent, two H100s, was run with
host staging: --gpu below checks the model against it).

--gpu RUN_DIR: checks the model against a run on several GPUs of one machine
(perf_tests/run_gpu_multi_distributed.sh: small_np<P>.json and large_np<P>.json), with that
machine's figures measured in the run itself: R from the one-GPU local SpMV of each matrix,
alpha and beta from the run's ping-pong, the staging copies at the nominal PCIe figure (see
gpu_check).

--cpu RUN_DIR: also checks the model against the CPU scaling run recorded there
(perf_tests/run_cpu_distributed.sh: distributed_bench's JSON for 1, 2, 3, 4 ranks): the terms the
distribution adds (pack, exchange with alpha and beta from the run's ping-pong, ghost block)
against the measured exchange, ghost block and whole call (see cpu_check).
"""

import argparse
import glob
import json
import math
import os

# --- The H200 (measured, perf_tests/results/h200_bee51e6/h200.json, kspmv:automatic, raw balanced CSR)
H200 = {
    "name": "H200",
    # GB/s of the CSR byte model reached by the plain kspmv::spmv on the large Poisson matrices
    # (copy bandwidth measured in the same run: 4244 GB/s).
    "rate": {7: 4053.75e9, 27: 3898.06e9},
    # The fastest SpMV measured on a cache-resident matrix (README, Performance): one launch.
    "t_launch": 3.4e-6,
    "memory_bytes": 141e9,
}

# --- Interconnects: nominal figures (datasheets), NOT measured here.
LINKS = {
    # NVLink 4 within an 8-GPU HGX H200 node: 900 GB/s a GPU in both directions together.
    "nvlink": {"alpha": 10e-6, "beta": 450e9},
    # Between nodes: one 400 Gb/s NDR InfiniBand adapter a GPU (GPUDirect RDMA).
    "ib": {"alpha": 5e-6, "beta": 50e9},
}
# Host staging without GPU-aware MPI: PCIe Gen5 x16, a copy each way (nominal 64 GB/s).
PCIE = {"alpha": 10e-6, "beta": 55e9}
GPUS_PER_NODE = 8


def poisson_entries(nx, ny, nz, points):
    if points == 7:
        return nx * ny * nz + 2 * ((nx - 1) * ny * nz + nx * (ny - 1) * nz + nx * ny * (nz - 1))
    return (3 * nx - 2) * (3 * ny - 2) * (3 * nz - 2)


def plane_pair_entries(nx, ny, points):
    """Entries coupling one z-plane to the next (in one direction)."""
    return nx * ny if points == 7 else (3 * nx - 2) * (3 * ny - 2)


def slowest_rank(nx, ny, nz, points, ranks):
    """Sizes of the interior rank (two neighbours) of a slab partition, at least one plane a rank."""
    m = nx * ny * nz
    rows = math.ceil(m / ranks)
    plane = nx * ny
    if ranks > 1 and rows < plane:
        raise ValueError(f"{ranks} ranks give {rows} rows a rank, less than a plane of {plane}: outside the model")
    sides = 0 if ranks == 1 else (1 if ranks == 2 else 2)
    nnz = poisson_entries(nx, ny, nz, points) * rows / m
    ghost_nnz = sides * plane_pair_entries(nx, ny, points)
    return {
        "rows": rows,
        "local_nnz": nnz - ghost_nnz,
        "ghost_nnz": ghost_nnz,
        "ghost_cols": sides * plane,
        "ghost_rows": sides * plane,
        "sent": sides * plane,
        "sides": sides,
    }


def csr_bytes(nnz, rows, cols):
    return nnz * 12 + rows * (4 + 8) + cols * 8 + 4


def predict(r, rate, t_launch, comm, overlap, staging=None):
    """Seconds of each part for the rank r; comm: (alpha, beta) or None for one rank."""
    local = csr_bytes(r["local_nnz"], r["rows"], r["rows"]) / rate + t_launch
    if r["sides"] == 0:
        return {"local": local, "pack": 0.0, "exchange": 0.0, "ghost": 0.0, "total": local}
    pack = t_launch + r["sent"] * 20 / rate
    alpha, beta = comm
    exchange = alpha + r["sent"] * 8 / beta
    if staging:
        exchange += 2 * (staging["alpha"] + r["sent"] * 8 / staging["beta"])
    ghost = csr_bytes(r["ghost_nnz"], r["ghost_rows"], r["ghost_cols"]) / rate + r["ghost_rows"] * 16 / rate + 2 * t_launch
    total = pack + (max(local, exchange) if overlap else local + exchange) + ghost
    return {"local": local, "pack": pack, "exchange": exchange, "ghost": ghost, "total": total}


def h200_link(ranks):
    """The link of the slowest rank's slower neighbour: NVLink within a node, InfiniBand beyond."""
    link = LINKS["nvlink"] if ranks <= GPUS_PER_NODE else LINKS["ib"]
    return (link["alpha"], link["beta"])


def h200_tables():
    out = []
    counts = [1, 2, 4, 8, 16, 32, 64]
    studies = [
        ("weak", 27, lambda p: (464, 464, 464 * p)),   # 99.9M rows a GPU
        ("weak", 7, lambda p: (464, 464, 464 * p)),
        ("strong", 27, lambda p: (400, 400, 400)),     # 64M rows, 1.7G entries: 20.6 GB of CSR
        ("strong", 7, lambda p: (600, 600, 600)),      # 216M rows, 1.5G entries: 20.6 GB of CSR
    ]
    for kind, points, grid in studies:
        nx, ny, nz = grid(1)
        out.append(f"\n### {kind} scaling, {points}-point Poisson, "
                   + ("%dx%dx(%d P): %.1fM rows a GPU" % (nx, ny, nz, nx * ny * nz / 1e6) if kind == "weak"
                      else "%dx%dx%d: %.0fM rows, %.2fG entries" % (nx, ny, nz, nx * ny * nz / 1e6,
                                                                    poisson_entries(nx, ny, nz, points) / 1e9)))
        out.append("")
        out.append("| GPUs | rows a GPU | CSR GB a GPU | local us | exchange us (GPU-aware) | time us (GPU-aware) "
                   "| halo hidden | parallel efficiency | time us (host staging) | efficiency (staging) |")
        out.append("|---|---|---|---|---|---|---|---|---|---|")
        base = base_staged = None
        for p in counts:
            nx, ny, nz = grid(p)
            r = slowest_rank(nx, ny, nz, points, p)
            gb = csr_bytes(r["local_nnz"] + r["ghost_nnz"], r["rows"], r["rows"]) / 1e9
            if gb * 1e9 * 1.3 > H200["memory_bytes"]:
                out.append(f"| {p} | {r['rows']/1e6:.1f}M | {gb:.1f} | does not fit | | | | | | |")
                continue
            comm = h200_link(p) if p > 1 else None
            aware = predict(r, H200["rate"][points], H200["t_launch"], comm, overlap=True)
            staged = predict(r, H200["rate"][points], H200["t_launch"], comm, overlap=True, staging=PCIE)
            if base is None:
                base, base_staged, base_p = aware["total"], staged["total"], p
            # Weak: the same time is perfect; strong: base * base_p / p is.
            ideal = base if kind == "weak" else base * base_p / p
            ideal_staged = base_staged if kind == "weak" else base_staged * base_p / p
            hidden = "-" if p == 1 else ("yes" if aware["exchange"] <= aware["local"] else "no")
            out.append(f"| {p} | {r['rows']/1e6:.2f}M | {gb:.2f} | {aware['local']*1e6:.0f} | "
                       f"{aware['exchange']*1e6:.1f} | {aware['total']*1e6:.0f} | {hidden} | "
                       f"{ideal/aware['total']:.2f} | {staged['total']*1e6:.0f} | {ideal_staged/staged['total']:.2f} |")
    return out


def cpu_check(run_dir):
    """The model against a CPU run. Its ranks share one memory system (the GPUs of the model each
    have their own), so the local SpMV's time is taken from the run itself (each matrix's local
    time at that rank count); what is checked is what the distribution adds: pack, exchange
    (alpha, beta from the run's ping-pong), ghost block, summed without overlap (one thread a
    rank), against the measured whole call and exchange."""
    runs = {}
    for path in sorted(glob.glob(os.path.join(run_dir, "np*.json"))):
        with open(path) as f:
            data = json.load(f)
        runs[data["ranks"]] = data
    if 1 not in runs or 2 not in runs:
        return ["\n(no np1.json and np2.json in %s: no CPU check)" % run_dir]
    cores = int(open(os.path.join(run_dir, "cores.txt")).read().split()[0])
    small = runs[2]["ping_pong_8B_us"] * 1e-6
    large = runs[2]["ping_pong_4MiB_us"] * 1e-6
    beta = (4 << 20) / (large - small)
    out = [f"\n### CPU check: {run_dir}",
           "",
           f"{cores} cores; ranks beyond them share the cores (oversubscribed: their times are marked *). "
           f"Inputs measured in that run: ping-pong alpha = {small*1e6:.2f} us, beta = {beta/1e9:.2f} GB/s "
           f"(ranks 0 and 1, 8 B and 4 MiB messages), the local SpMV's time at each rank count and R = its "
           f"CSR bytes over that time. Predicted whole call = measured local + pack + exchange + ghost (no "
           f"overlap: one thread a rank does both). Strong-scaling Poisson matrices (the slab model).",
           "",
           "| matrix | ranks | local us (measured) | exchange us measured | pack + exchange us predicted | ghost us measured "
           "| ghost us predicted | whole call us measured | predicted | predicted / measured |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for p in sorted(runs):
        if p == 1:
            continue
        for res in runs[p]["results"]:
            name = res["matrix"]
            if not name.startswith("poisson"):
                continue
            points = int(name.split()[0][len("poisson"):])
            nx, ny, nz = (int(v) for v in name.split()[1].split("x"))
            r = slowest_rank(nx, ny, nz, points, p)
            local = res["local_us"] * 1e-6
            rate = csr_bytes(r["local_nnz"], r["rows"], r["rows"]) / local
            pred = predict(r, rate, 0.0, (small, beta), overlap=False)
            whole = local + pred["pack"] + pred["exchange"] + pred["ghost"]
            mark = "*" if p > cores else ""
            out.append(f"| {name} | {p}{mark} | {res['local_us']:.0f} | {res['exchange_us']:.1f} | "
                       f"{(pred['pack'] + pred['exchange'])*1e6:.1f} | {res['ghost_us']:.1f} | {pred['ghost']*1e6:.1f} | "
                       f"{res['distributed_us']:.0f} | {whole*1e6:.0f} | {whole/(res['distributed_us']*1e-6):.2f} |")
    return out


def gpu_check(run_dir):
    """The model against a run on several GPUs of one machine, one rank a GPU, host staging (the
    carried Open MPI is not CUDA-aware). Inputs from the run: R of each matrix = its one-GPU
    local SpMV's CSR bytes over that time (so the check is of what the distribution adds and of
    the local SpMV's scaling, not of the single-GPU rate); t_launch = the smallest one-GPU time
    of the run's ghost block (a launch or two); alpha and beta from the ping-pong of ranks 0 and
    1 (host buffers); the staging copies at the nominal PCIe figure. Each Poisson matrix at each
    rank count: the predicted and measured whole call, exchange (pack included in the
    measurement) and parallel efficiency (weak T(1)/T(P), strong T(1)/(P T(P)))."""
    runs = {}
    for path in sorted(glob.glob(os.path.join(run_dir, "*_np*.json"))):
        with open(path) as f:
            data = json.load(f)
        for res in data["results"]:
            res["_run"] = data
            runs.setdefault(data["ranks"], []).append(res)
    if 1 not in runs or len(runs) < 2:
        return ["\n(no one-rank and multi-rank JSON in %s: no GPU check)" % run_dir]
    multi = min(p for p in runs if p > 1)
    ping = next(res["_run"] for res in runs[multi])
    small = ping["ping_pong_8B_us"] * 1e-6
    large = ping["ping_pong_4MiB_us"] * 1e-6
    beta = (4 << 20) / (large - small)
    bandwidth = ping.get("copy_bandwidth_GBs_min", 0)

    def grid_of(name):
        words = name.split()
        weak = words[0] == "weak"
        if weak:
            words = words[1:]
        if not words[0].startswith("poisson"):
            return None
        nx, ny, nz = (int(v) for v in words[1].split("x"))
        return weak, int(words[0][len("poisson"):]), nx, ny, nz

    def key(name):
        g = grid_of(name)
        return None if g is None else (g[0], g[1], g[2], g[3], None if g[0] else g[4])

    one = {key(res["matrix"]): res for res in runs[1] if key(res["matrix"])}
    out = [f"\n### GPU check: {run_dir}",
           "",
           f"One rank a GPU; inputs measured in that run: ping-pong alpha = {small*1e6:.2f} us, beta = {beta/1e9:.2f} GB/s "
           f"(host buffers), device copy bandwidth {bandwidth:.0f} GB/s (the slowest GPU), R of each matrix from its "
           f"one-GPU local SpMV; host staging as two PCIe copies at the nominal alpha {PCIE['alpha']*1e6:.0f} us, "
           f"beta {PCIE['beta']/1e9:.0f} GB/s; the local SpMV overlaps the exchange.",
           "",
           "| matrix | GPUs | R GB/s (1 GPU) | local us measured | predicted | exchange us measured | predicted "
           "| whole call us measured | predicted | predicted / measured | efficiency measured | predicted |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for p in sorted(runs):
        for res in runs[p]:
            g = grid_of(res["matrix"])
            if g is None or key(res["matrix"]) not in one:
                continue
            weak, points, nx, ny, nz = g
            base = one[key(res["matrix"])]
            r1 = slowest_rank(nx, ny, nz // p if weak else nz, points, 1)
            rate = csr_bytes(r1["local_nnz"], r1["rows"], r1["rows"]) / (base["local_us"] * 1e-6)
            r = slowest_rank(nx, ny, nz, points, p)
            pred = predict(r, rate, 5e-6, (small, beta) if p > 1 else None, overlap=True, staging=PCIE if p > 1 else None)
            pred1 = predict(r1, rate, 5e-6, None, overlap=True)
            measured_eff = base["distributed_us"] / res["distributed_us"] / (1 if weak else p)
            predicted_eff = pred1["total"] / pred["total"] / (1 if weak else p)
            out.append(f"| {res['matrix']} | {p} | {rate/1e9:.0f} | {res['local_us']:.0f} | {pred['local']*1e6:.0f} | "
                       f"{res['exchange_us']:.1f} | {(pred['pack'] + pred['exchange'])*1e6:.1f} | "
                       f"{res['distributed_us']:.0f} | {pred['total']*1e6:.0f} | "
                       f"{pred['total']/(res['distributed_us']*1e-6):.2f} | {measured_eff:.2f} | {predicted_eff:.2f} |")
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cpu", help="a CPU run directory of run_cpu_distributed.sh")
    parser.add_argument("--gpu", help="a run directory of run_gpu_multi_distributed.sh")
    parser.add_argument("--out", help="write the Markdown here too")
    args = parser.parse_args()
    lines = ["## Predicted: the distributed SpMV on 1 to 64 H200s (fp64, int indices)",
             "",
             "R: 27-point %.0f GB/s, 7-point %.0f GB/s (CSR model, measured on an H200); t_launch %.1f us (measured); "
             "NVLink alpha %.0f us, beta %.0f GB/s within a node of %d GPUs, InfiniBand alpha %.0f us, beta %.0f GB/s "
             "beyond (nominal, not measured); host staging adds two PCIe copies (alpha %.0f us, beta %.0f GB/s, "
             "nominal). 'halo hidden': the exchange takes less time than the local SpMV it overlaps. "
             "Parallel efficiency: weak, T(1)/T(P); strong, T(1)/(P T(P))."
             % (H200["rate"][27] / 1e9, H200["rate"][7] / 1e9, H200["t_launch"] * 1e6,
                LINKS["nvlink"]["alpha"] * 1e6, LINKS["nvlink"]["beta"] / 1e9, GPUS_PER_NODE,
                LINKS["ib"]["alpha"] * 1e6, LINKS["ib"]["beta"] / 1e9, PCIE["alpha"] * 1e6, PCIE["beta"] / 1e9)]
    lines += h200_tables()
    if args.cpu:
        lines += cpu_check(args.cpu)
    if args.gpu:
        lines += gpu_check(args.gpu)
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
