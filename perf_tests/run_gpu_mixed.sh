#!/usr/bin/env bash
# Mixed precision on a GPU machine: kspmv's plain call, KokkosKernels' default and A's values
# rounded to float on the load-balanced kernel with double x and y (spmv_bench --mixed), on the
# generated large matrices and the suite's seven replicated real ones (mixed_suite.json), and on
# the Matrix Market files of MORE_MATRICES_DIR replicated to at least 50 million entries
# (mixed_more.json).
#
#   perf_tests/run_gpu_mixed.sh BIN_DIR REAL_MATRIX_DIR OUT_DIR [MORE_MATRICES_DIR]
#
# BIN_DIR holds spmv_bench; REAL_MATRIX_DIR the .mtx files of shared/matrices; MORE_MATRICES_DIR
# e.g. perf_tests/matrices (.mtx.gz). Run from the repository root.
set -uo pipefail
export CUDA_MODULE_LOADING=EAGER  # see run_gpu.sh
bin=$1 real=$2 out=$3 more=${4:-}
mkdir -p "$out"
replicated=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do
  replicated+=(--mtx "$real/${spec%%:*}.mtx:${spec##*:}")
done
"$bin/spmv_bench" --suite large --kernels plain --mixed "${replicated[@]}" --repeat 20 \
  --json "$out/mixed_suite.json" 2>&1 | tee "$out/mixed_suite.log"
echo "bench exit code ${PIPESTATUS[0]}"
[ -n "$more" ] || exit 0
unpacked=$(mktemp -d)
files=()
for f in "$more"/*.mtx.gz; do
  name=$(basename "$f" .gz)
  gunzip -c "$f" > "$unpacked/$name"
  files+=(--mtx "$unpacked/$name")
done
"$bin/spmv_bench" --suite none --kernels plain --mixed --replicate-to 50000000 "${files[@]}" --repeat 20 \
  --json "$out/mixed_more.json" 2>&1 | tee "$out/mixed_more.log"
echo "bench exit code ${PIPESTATUS[0]}"
rm -rf "$unpacked"
