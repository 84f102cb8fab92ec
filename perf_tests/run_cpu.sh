#!/usr/bin/env bash
# The CPU record under perf_tests/results/: spmv_bench from a Kokkos OpenMP build, on matrices
# scaled to 5% of the GPU suite (still far beyond the last-level cache), the real matrices and
# replicated ones, with the kernels that keep A in CSR (the formats are laid out for GPUs) beside
# KokkosKernels'.
#
#   perf_tests/run_cpu.sh BENCH_BINARY REAL_MATRIX_DIR OUT_DIR
set -euo pipefail
bench=$1 real=$2 out=$3
mkdir -p "$out"
export OMP_PROC_BIND=spread OMP_PLACES=threads
replicated=()
for spec in bcsstk13:50 rajat01:100 wiki-Vote:50 arrow:30 Groebner_id2003_aug:25 poly_chain.512:50 cage10:30; do
  replicated+=(--mtx "$real/${spec%%:*}.mtx:${spec##*:}")
done
lscpu | grep -E "Model name|^CPU\(s\)|L3" | tee "$out/cpu.txt"
"$bench" --suite all --scale 0.05 --real-dir "$real" "${replicated[@]}" --kernels csr --repeat 30 \
  --json "$out/cpu_openmp.json" --csv "$out/cpu_openmp.csv" 2>&1 | tee "$out/cpu_openmp.log"
