#!/usr/bin/env bash
# session 14, call 3: Nsight Compute on the H200 of the multivector kernels the plain call runs at 8
# vectors (rajat01 x2000: balanced in LayoutLeft, chunks in LayoutRight; arrow x600 chunks in R),
# the rank-1 balanced kernel beside; then every kernel forced at 8 vectors (--vector-kernels) on
# rajat01, wiki-Vote, arrow, Groebner replicated (the committed code: KSPMV_LAB_BV unset)
set -u
mkdir -p /tmp/w && tar xJf .device-carry/pack.txz -C /tmp/w || exit 1
P=/tmp/w/p; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
prof() {  # name matrix regex
  s=$(date +%s)
  timeout 150 $NCU --clock-control none --kernel-name regex:"$3" --launch-count 1 --set full --import-source no -o /tmp/$1 \
    $P/spmv_bench --suite none --mtx "$M/$2" --kernels plain --vectors 8 --repeat 1 > $R/ncu_$1.log 2>&1
  echo "$1 rc $? $(( $(date +%s)-s )) s"
  $NCU --import /tmp/$1.ncu-rep --page details > $R/ncu_$1.txt 2>&1
  $NCU --import /tmp/$1.ncu-rep --page source --csv --print-source sass > /tmp/$1_sass.csv 2>/dev/null && gzip -c /tmp/$1_sass.csv > $R/ncu_$1_sass.csv.gz
}
prof rajat01_balanced_mv rajat01.mtx:2000 'csr_multivector_balanced_kernel'
prof rajat01_chunks rajat01.mtx:2000 'csr_multivector_chunks_kernel'
prof rajat01_balanced_rank1 rajat01.mtx:2000 'csr_balanced_kernel'
prof arrow_chunks arrow.mtx:600 'csr_multivector_chunks_kernel'
RM=()
for spec in rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500; do RM+=(--mtx "$M/${spec%%:*}.mtx:${spec##*:}"); done
s=$(date +%s)
timeout 200 $P/spmv_bench --suite none "${RM[@]}" --kernels plain --vectors 8 --vector-kernels --repeat 7 --json $R/forced8.json > $R/forced8.log 2>&1; echo "forced rc $? $(( $(date +%s)-s )) s"
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
