#!/usr/bin/env bash
# session 8, device call 10: mode T, the searched split entries at 256 threads on GPUs ("new", the working tree) beside 594a3b5 ("old"): run_gpu_transpose.sh and the 46 for each (the unit tests binary is the previous, unused here)
set -u
mkdir -p /tmp/w && tar xJf .device-pack/pack.txz -C /tmp/w
P=/tmp/w/p
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
s=$(date +%s)
s=$(date +%s)
for v in new old; do
  s=$(date +%s)
  timeout 100 bash perf_tests/run_gpu_transpose.sh $P/$v $P/real $R/$v > $R/run_$v.log 2>&1; echo "$v rc $? $(( $(date +%s)-s )) s"
done
a=(); b=(); i=0
for f in perf_tests/matrices/*.mtx.gz; do
  name=$(basename "$f" .gz); gunzip -c "$f" > /tmp/m/$name
  if [ $((i % 2)) -eq 0 ]; then a+=(--mtx /tmp/m/$name); else b+=(--mtx /tmp/m/$name); fi; i=$((i+1))
done
for v in new old; do
  s=$(date +%s)
  timeout 75 $P/$v/spmv_bench --suite none --kernels transpose --replicate-to 50000000 "${a[@]}" --repeat 5 --json $R/unseen_${v}_1.json > $R/unseen_${v}_1.log 2>&1; echo "$v half 1 rc $? $(( $(date +%s)-s )) s"
  s=$(date +%s)
  timeout 75 $P/$v/spmv_bench --suite none --kernels transpose --replicate-to 50000000 "${b[@]}" --repeat 5 --json $R/unseen_${v}_2.json > $R/unseen_${v}_2.log 2>&1; echo "$v half 2 rc $? $(( $(date +%s)-s )) s"
done
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
