#!/usr/bin/env bash
# The distributed SpMV on a one-GPU machine (no MPI installed there: Open MPI is carried, see
# bundle_open_mpi.sh): the CUDA build of the distributed unit tests on 1 and 2 ranks (two ranks
# share the GPU) and under compute-sanitizer memcheck on 2, then distributed_bench on 1 and 2
# ranks. Debian's Open MPI is not CUDA-aware,
# so the halo goes through host memory (DistributedOptions' automatic choice). Two ranks on one
# GPU measure the exchange's costs (packing, copies through the host, shared-memory messages)
# and check the CUDA path across ranks; they are no scaling run (issue 20 needs several GPUs).
#
#   perf_tests/run_gpu_distributed.sh BIN_DIR MPI_DIR REAL_MATRIX_DIR OUT_DIR
#
# BIN_DIR holds kspmv_mpi_tests and distributed_bench built for CUDA; MPI_DIR the bundle.
set -uo pipefail
export CUDA_MODULE_LOADING=EAGER  # see run_gpu.sh
export KSPMV_TEST_DATA_DIR=$PWD/unit_tests/data  # run from the repository root
bin=$1 mpi=$2 real=$3 out=$4
mkdir -p "$out"
# shellcheck source=/dev/null
source "$mpi/env.sh"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > "$out/gpu.txt" 2>&1
mpirun --version | head -1 >> "$out/gpu.txt"
cat "$out/gpu.txt"
for ranks in 1 2; do
  mpirun -np "$ranks" --oversubscribe "$bin/kspmv_mpi_tests" > "$out/unit_tests_np$ranks.log" 2>&1
  echo "distributed unit tests on $ranks rank(s): exit code $?"
  grep -E "PASSED|FAILED|rank [0-9]\]" "$out/unit_tests_np$ranks.log" | head -20
done
# compute-sanitizer's memcheck over the CUDA instantiations on 2 ranks (its summary lines).
mpirun -np 2 --oversubscribe compute-sanitizer --tool memcheck --print-limit 20 "$bin/kspmv_mpi_tests" \
  --gtest_filter='*Cuda*' 2>&1 | grep -E "ERROR SUMMARY|PASSED|FAILED|Invalid" | head -20
for ranks in 1 2; do
  mpirun -np "$ranks" --oversubscribe "$bin/distributed_bench" --poisson 256,256,256:27 --poisson 400,400,400:7 \
    --weak 16000000:27 --mtx "$real/bcsstk13.mtx:3000" --repeat 21 --json "$out/np$ranks.json" 2>&1 |
    tee "$out/np$ranks.log"
  echo "bench on $ranks rank(s): exit code ${PIPESTATUS[0]}"
done
