#!/usr/bin/env bash
# session 23 lab: the plain call, the Plan and KokkosKernels' default on 15 real matrices in row
# orders written by reorder.py (orig, rcmsym, rcmrows, bfsrows, minrows), replicated to 50M entries
set -u
mkdir -p /tmp/o && tar xJf .device-carry/order.txz -C /tmp/o || exit 1
R=/tmp/rec; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
i=0
for v in orig rcmsym rcmrows bfsrows minrows orig; do i=$((i+1))
  A=(); for f in /tmp/o/o/*.$v.mtx; do A+=(--mtx $f); done
  s=$(date +%s)
  timeout 100 /tmp/o/spmv_bench --suite none --replicate-to 50000000 "${A[@]}" --kernels plain --repeat 10 --json $R/${v}_$i.json > $R/${v}_$i.log 2>&1; echo "$v $i rc $? $(( $(date +%s)-s )) s"
done
grep -l WRONG $R/*.log
gzip $R/*.json
tar czf $OUT/rec.tgz -C /tmp rec
