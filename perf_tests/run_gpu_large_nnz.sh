#!/usr/bin/env bash
# More than 2^31 nonzeros on a GPU machine (issue 17): kspmv_large_nnz_check at its default size
# (2^27 rows, 2,281,701,376 nonzeros, int64_t offsets) with int and with int64_t indices, every
# format and kernel, results checked on sampled rows; then its small size under
# compute-sanitizer memcheck. Needs about 70 GB of device memory.
#
#   perf_tests/run_gpu_large_nnz.sh BIN_DIR OUT_DIR
#
# BIN_DIR holds kspmv_large_nnz_check (a CUDA build).
set -uo pipefail
bin=$1 out=$2
mkdir -p "$out"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > "$out/gpu.txt" 2>&1
start=$SECONDS
"$bin/kspmv_large_nnz_check" > "$out/large_nnz.log" 2>&1
echo "large_nnz_check exit code $? after $((SECONDS - start)) s" | tee -a "$out/large_nnz.log"
compute-sanitizer --tool memcheck --error-exitcode 1 "$bin/kspmv_large_nnz_check" --rows 30000 \
  > "$out/large_nnz_small_memcheck.log" 2>&1
echo "memcheck exit code $?" | tee -a "$out/large_nnz_small_memcheck.log"
