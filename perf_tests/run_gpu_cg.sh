#!/usr/bin/env bash
# kspmv::cg against a CG written with KokkosKernels (cg_bench) on a GPU machine: the 7- and
# 27-point Poisson matrices from 12^3 to 128^3 grids (cache-resident to 680 MB), the SPD real
# matrices of unit_tests/data and shared/matrices at their size and replicated (cg.json, cg.log).
#
#   perf_tests/run_gpu_cg.sh BIN_DIR REAL_MATRIX_DIR OUT_DIR
#
# BIN_DIR holds cg_bench; REAL_MATRIX_DIR the .mtx files of shared/matrices. Run from the
# repository root.
set -uo pipefail
export CUDA_MODULE_LOADING=EAGER  # see run_gpu.sh
bin=$1 real=$2 out=$3
mkdir -p "$out"
files=()
for spec in lap3D_7pt_n20 lap2D_5pt_n100 bcsstk13 lap3D_7pt_n20:300 lap2D_5pt_n100:500 bcsstk13:300; do
  files+=(--mtx "$real/${spec%%:*}.mtx${spec#"${spec%%:*}"}")
done
"$bin/cg_bench" --grids 12,16,24,32,48,64,100,128 "${files[@]}" --repeat 5 --tolerance 1e-8 \
  --max-iterations 2000 --host-cg --json "$out/cg.json" 2>&1 | tee "$out/cg.log"
echo "bench exit code ${PIPESTATUS[0]}"
