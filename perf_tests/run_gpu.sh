#!/usr/bin/env bash
# Runs, on a GPU machine, everything recorded under perf_tests/results/: the unit tests of a
# CUDA (or HIP) build, the example, and the perf driver on the generated, replicated and real
# matrices; with a fourth argument, also the CSR kernels on the Matrix Market files (.mtx.gz)
# of that folder, each at its own size and replicated to at least 50 million entries.
#
#   perf_tests/run_gpu.sh BIN_DIR REAL_MATRIX_DIR OUT_DIR [MORE_MATRICES_DIR]
#
# BIN_DIR holds kspmv_unit_tests, spmv_mm and spmv_bench; REAL_MATRIX_DIR the .mtx files of
# shared/matrices; MORE_MATRICES_DIR e.g. perf_tests/matrices. Run from the repository root.
set -uo pipefail
# Load every kernel at start-up: with CUDA's default lazy loading, the first launch of each kernel
# in the process (tens of microseconds) is charged to whichever candidate happens to launch it
# first, which would count process warm-up as one candidate's setup.
export CUDA_MODULE_LOADING=EAGER
bin=$1 real=$2 out=$3 more=${4:-}
mkdir -p "$out"
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv | tee "$out/gpu.txt"

echo "== unit tests"
KSPMV_TEST_DATA_DIR=unit_tests/data "$bin/kspmv_unit_tests" --gtest_brief=1 > "$out/unit_tests.log" 2>&1
echo "unit tests exit code $?" | tee -a "$out/unit_tests.log"
# The port of KokkosKernels' spmv tests, a program of its own since 2026-11-25.
if [ -x "$bin/kspmv_kokkoskernels_port_tests" ]; then
  KSPMV_TEST_DATA_DIR=unit_tests/data "$bin/kspmv_kokkoskernels_port_tests" --gtest_brief=1 >> "$out/unit_tests.log" 2>&1
  echo "KokkosKernels port tests exit code $?" | tee -a "$out/unit_tests.log"
fi
grep -E "PASSED|FAILED|tests ran" "$out/unit_tests.log"

echo "== example"
"$bin/spmv_mm" --grid 200 2>&1 | tee "$out/example.log"

echo "== perf driver"
replicated=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do
  replicated+=(--mtx "$real/${spec%%:*}.mtx:${spec##*:}")
done
"$bin/spmv_bench" --suite all --real-dir "$real" "${replicated[@]}" --repeat 20 \
  --json "$out/h200.json" --csv "$out/h200.csv" 2>&1 | tee "$out/bench.log"
echo "bench exit code ${PIPESTATUS[0]}"

[ -n "$more" ] || exit 0
echo "== CSR kernels on the matrices of $more"
unpacked=$(mktemp -d)
files=()
for f in "$more"/*.mtx.gz; do
  name=$(basename "$f" .gz)
  gunzip -c "$f" > "$unpacked/$name"
  files+=(--mtx "$unpacked/$name" --mtx "$unpacked/$name:1")
done
"$bin/spmv_bench" --suite none --kernels csr --replicate-to 50000000 "${files[@]}" --repeat 20 \
  --json "$out/h200_more.json" 2>&1 | tee "$out/bench_more.log"
echo "bench exit code ${PIPESTATUS[0]}"
rm -rf "$unpacked"
