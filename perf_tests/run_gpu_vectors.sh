#!/usr/bin/env bash
# Several vectors on a GPU machine (issue 16): kspmv's plain call with rank-2 x and y of 4, 8 and
# 16 columns (LayoutLeft and LayoutRight), the raw kernels (the balanced kernel; at 8 vectors every lane
# count a row), and KokkosKernels' default beside it, on the suite's large matrices (generated, and the seven real ones replicated
# as in run_gpu.sh), with the rank-1 plain call for the time per vector.
#
#   perf_tests/run_gpu_vectors.sh BIN_DIR REAL_MATRIX_DIR OUT_DIR
#
# BIN_DIR holds spmv_bench; REAL_MATRIX_DIR the .mtx files of shared/matrices. Then
#   python3 perf_tests/summarize.py OUT_DIR/h200_vectors_large.json (and _real.json)
set -uo pipefail
export CUDA_MODULE_LOADING=EAGER  # see run_gpu.sh
bin=$1 real=$2 out=$3
mkdir -p "$out"
replicated=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do
  replicated+=(--mtx "$real/${spec%%:*}.mtx:${spec##*:}")
done
# Two runs, each writing its own record: the generated matrices, then the replicated real ones.
"$bin/spmv_bench" --suite large --kernels plain --vectors 4,8,16 --repeat 7 \
  --json "$out/h200_vectors_large.json" 2>&1 | tee "$out/bench_vectors_large.log"
echo "bench exit code ${PIPESTATUS[0]}"
"$bin/spmv_bench" --suite none "${replicated[@]}" --kernels plain --vectors 4,8,16 --repeat 7 \
  --json "$out/h200_vectors_real.json" 2>&1 | tee "$out/bench_vectors_real.log"
echo "bench exit code ${PIPESTATUS[0]}"
