#!/usr/bin/env bash
# Mode T on a GPU machine: kspmv's plain call in mode T, its forced kernels (csr_vector,
# csr_balanced, the deterministic csr_transposed), a Plan in mode T told of 100 uses (A^T formed
# and planned where that pays) and KokkosKernels' default in mode T, on the generated large
# matrices and the suite's seven replicated real ones (mode_t.json), then on the seven at their
# own size, cache-resident (mode_t_small.json).
#
#   perf_tests/run_gpu_transpose.sh BIN_DIR REAL_MATRIX_DIR OUT_DIR
#
# BIN_DIR holds spmv_bench; REAL_MATRIX_DIR the .mtx files of shared/matrices. Run from the
# repository root.
set -uo pipefail
export CUDA_MODULE_LOADING=EAGER  # see run_gpu.sh
bin=$1 real=$2 out=$3
mkdir -p "$out"
replicated=() small=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do
  replicated+=(--mtx "$real/${spec%%:*}.mtx:${spec##*:}")
  small+=(--mtx "$real/${spec%%:*}.mtx")
done
"$bin/spmv_bench" --suite large --kernels transpose "${replicated[@]}" --repeat 20 \
  --json "$out/mode_t.json" 2>&1 | tee "$out/mode_t.log"
echo "bench exit code ${PIPESTATUS[0]}"
"$bin/spmv_bench" --suite none --kernels transpose "${small[@]}" --repeat 20 \
  --json "$out/mode_t_small.json" 2>&1 | tee "$out/mode_t_small.log"
echo "bench exit code ${PIPESTATUS[0]}"
