#!/usr/bin/env bash
# The CPU scaling record of the distributed SpMV under perf_tests/results/: distributed_bench on
# 1, 2, 3 and 4 MPI ranks (Open MPI's mpirun; beyond the machine's cores the ranks share them),
# strong scaling on two fixed Poisson matrices and a replicated real matrix, weak scaling on
# Poisson grids of a fixed size a rank. Then the model's check against it:
#   python3 perf_tests/distributed_model.py --cpu OUT_DIR --out OUT_DIR/model.md
#
#   perf_tests/run_cpu_distributed.sh BENCH_BINARY REAL_MATRIX_DIR OUT_DIR
set -euo pipefail
bench=$1 real=$2 out=$3
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMP_PROC_BIND=false OMP_WAIT_POLICY=PASSIVE
nproc > "$out/cores.txt"
lscpu | grep -E "Model name|^CPU\(s\)|L3" >> "$out/cores.txt"
mpirun --version | head -1 >> "$out/cores.txt"
cat "$out/cores.txt"
for ranks in 1 2 3 4; do
  mpirun -np "$ranks" --oversubscribe --bind-to none "$bench" \
    --poisson 100,100,100:27 --poisson 200,200,200:7 --mtx "$real/cage10.mtx:100" \
    --weak 1000000:27 --weak 2000000:7 --repeat 11 --batch-ms 20 \
    --json "$out/np$ranks.json" 2>&1 | tee "$out/np$ranks.log"
done
