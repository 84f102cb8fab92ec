#!/usr/bin/env bash
# session 9, call 5: the plain call at 8 vectors (L and R) on the 46 real matrices of perf_tests/matrices (not tuned on), replicated to 50M entries, new binary
set -u
mkdir -p /tmp/w && tar xJf .device-pack/pack.txz -C /tmp/w
P=/tmp/w/p
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
a=(); b=(); i=0
for f in perf_tests/matrices/*.mtx.gz; do
  name=$(basename "$f" .gz); gunzip -c "$f" > /tmp/m/$name
  if [ $((i % 2)) -eq 0 ]; then a+=(--mtx /tmp/m/$name); else b+=(--mtx /tmp/m/$name); fi; i=$((i+1))
done
s=$(date +%s)
timeout 280 $P/spmv_bench_new --suite none --kernels plain --vectors 8 --replicate-to 50000000 "${a[@]}" --repeat 5 --json $R/vectors8_more_1.json > $R/vectors8_more_1.log 2>&1; echo "half 1 rc $? $(( $(date +%s)-s )) s"
s=$(date +%s)
timeout 280 $P/spmv_bench_new --suite none --kernels plain --vectors 8 --replicate-to 50000000 "${b[@]}" --repeat 5 --json $R/vectors8_more_2.json > $R/vectors8_more_2.log 2>&1; echo "half 2 rc $? $(( $(date +%s)-s )) s"
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
