#!/usr/bin/env bash
# The distributed SpMV on a machine of several GPUs (issue 20), one MPI rank a GPU (Kokkos gives
# each rank the GPU of its local rank; distributed_bench prints the mapping). The GPU machines
# have no MPI: Open MPI is carried (bundle_open_mpi.sh); it is not CUDA-aware, so the halo goes
# through pinned host memory (DistributedOptions' automatic choice).
#
#   perf_tests/run_gpu_multi_distributed.sh BIN_DIR MPI_DIR REAL_MATRIX_DIR OUT_DIR [SCRATCH]
#
# BIN_DIR holds kspmv_mpi_tests and distributed_bench built for CUDA; MPI_DIR the bundle. On
# 1, 2, 4, ... ranks (as many GPUs as the machine has):
#  - the distributed unit tests, and under compute-sanitizer memcheck on all the GPUs;
#  - distributed_bench, two runs a rank count: the smaller matrices with the ordered variant
#    (27-point 256^3, cage10 x333 and bcsstk13 x3001, whose copies the row split cuts), the
#    largest without it (a second copy of the matrix would not fit beside the first): the strong
#    27-point 400^3 and 7-point 600^3 of distributed_model.py, weak 27-point slabs of 400^3 rows a
#    GPU (64M rows, 1.72G entries: the most that int offsets hold) and weak 7-point slabs of 464^3
#    (99.9M rows a GPU). Each rank's y is written to SCRATCH (default /tmp/kspmv_y) and
#    compare_y.py sets every multi-GPU result against the one-GPU one.
set -uo pipefail
export CUDA_MODULE_LOADING=EAGER  # see run_gpu.sh
export KSPMV_TEST_DATA_DIR=$PWD/unit_tests/data  # run from the repository root
# The machine notes: NVLink multicast stays off (nothing here uses NCCL; kept for any library that would).
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
bin=$1 mpi=$2 real=$3 out=$4 scratch=${5:-/tmp/kspmv_y}
mkdir -p "$out" "$scratch"
# shellcheck source=/dev/null
source "$mpi/env.sh"
gpus=$(nvidia-smi -L | wc -l)
{
  nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.max.sm,pcie.link.gen.max,pcie.link.width.max --format=csv
  nvidia-smi topo -m
  mpirun --version | head -1
  echo "cores: $(nproc)"
} > "$out/gpu.txt" 2>&1
cat "$out/gpu.txt"
counts=()
for ((p = 1; p <= gpus; p *= 2)); do counts+=("$p"); done
for p in "${counts[@]}"; do
  mpirun -np "$p" --bind-to none "$bin/kspmv_mpi_tests" > "$out/unit_tests_np$p.log" 2>&1
  echo "distributed unit tests on $p rank(s): exit code $?"
  grep -E "PASSED|FAILED|rank [0-9]\]" "$out/unit_tests_np$p.log" | head -20
done
# compute-sanitizer's memcheck over the CUDA instantiations, one rank a GPU (its summary lines).
mpirun -np "${counts[-1]}" --bind-to none compute-sanitizer --tool memcheck --print-limit 20 "$bin/kspmv_mpi_tests" \
  --gtest_filter='*Cuda*' 2>&1 | grep -E "ERROR SUMMARY|PASSED|FAILED|Invalid" | head -20 | tee "$out/memcheck.log"
for p in "${counts[@]}"; do
  mpirun -np "$p" --bind-to none "$bin/distributed_bench" --bandwidth --poisson 256,256,256:27 \
    --mtx "$real/cage10.mtx:333" --mtx "$real/bcsstk13.mtx:3001" --repeat 21 --dump-y "$scratch" \
    --json "$out/small_np$p.json" 2>&1 | grep -v -E "pmix|dlopen error|Perhaps a missing" | tee "$out/small_np$p.log"
  echo "bench (smaller matrices) on $p rank(s): exit code ${PIPESTATUS[0]}"
  # One program a matrix here: a matrix that fails (memory) leaves the others' results.
  i=0
  for matrix in "--poisson 400,400,400:27" "--poisson 600,600,600:7" "--weak 64000000:27" "--weak 99897344:7"; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    mpirun -np "$p" --bind-to none "$bin/distributed_bench" --bandwidth --no-ordered $matrix --repeat 21 \
      --dump-y "$scratch" --json "$out/large${i}_np$p.json" 2>&1 | grep -v -E "pmix|dlopen error|Perhaps a missing" |
      tee "$out/large${i}_np$p.log"
    echo "bench ($matrix) on $p rank(s): exit code ${PIPESTATUS[0]}"
  done
done
python3 "$(dirname "$0")/compare_y.py" "$scratch" | tee "$out/agreement.md"
