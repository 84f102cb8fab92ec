#!/usr/bin/env bash
# compute-sanitizer over the CUDA unit suite on a GPU machine (issue 17): kspmv_unit_tests run
# plainly, then under memcheck in SHARDS gtest shards (memcheck slows every kernel, and a device
# command may run 10 minutes), each with --error-exitcode 1 so that a memory error fails its
# shard. FIRST..LAST pick the shards of this call (default: all of them).
#
#   perf_tests/run_gpu_memcheck.sh BIN_DIR OUT_DIR [SHARDS [FIRST LAST]]
#
# BIN_DIR holds kspmv_unit_tests (a CUDA build). Run from the repository root (the tests read
# unit_tests/data). Writes unit_tests.log (the plain run, first call only), memcheck_shard<i>.log
# and a line per shard to memcheck_summary.txt.
set -uo pipefail
export CUDA_MODULE_LOADING=EAGER  # see run_gpu.sh
export KSPMV_TEST_DATA_DIR=$PWD/unit_tests/data
bin=$1 out=$2 shards=${3:-1}
first=${4:-0} last=${5:-$((shards - 1))}
mkdir -p "$out"
if [ "$first" -eq 0 ]; then
  { nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; compute-sanitizer --version; } \
    > "$out/gpu.txt" 2>&1
  start=$SECONDS
  "$bin/kspmv_unit_tests" > "$out/unit_tests.log" 2>&1
  echo "unit tests exit code $? after $((SECONDS - start)) s" | tee -a "$out/unit_tests.log"
fi
for ((shard = first; shard <= last; ++shard)); do
  start=$SECONDS
  GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$shard \
    compute-sanitizer --tool memcheck --error-exitcode 1 "$bin/kspmv_unit_tests" > "$out/memcheck_shard$shard.log" 2>&1
  code=$?
  echo "memcheck shard $shard of $shards: exit code $code after $((SECONDS - start)) s;" \
    "$(grep -h 'tests, listed below\|PASSED\|ERROR SUMMARY' "$out/memcheck_shard$shard.log" | tr '\n' ' ')" |
    tee -a "$out/memcheck_summary.txt"
done
