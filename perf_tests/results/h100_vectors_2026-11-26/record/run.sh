#!/usr/bin/env bash
# session 10, call 6 and call 10 (the record; call 10 with the final tree): the plain call at 4/8/16 vectors on the 7 replicated real and 6 generated large matrices, new tree and the code at the session's start (old), one machine
set -u
mkdir -p /tmp/w && tar xJf .device-pack/pack.txz -C /tmp/w
P=/tmp/w/p; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
RM=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do RM+=(--mtx "$M/${spec%%:*}.mtx:${spec##*:}"); done
for v in new old; do
  b=$P/spmv_bench; [ $v = old ] && b=$P/spmv_bench_old
  s=$(date +%s)
  timeout 60 $b --suite none "${RM[@]}" --kernels plain --vectors 4,8,16 --repeat 7 --json $R/${v}_real.json > $R/bench_${v}_real.log 2>&1; echo "$v real rc $? $(( $(date +%s)-s )) s"
  s=$(date +%s)
  timeout 200 $b --suite large --kernels plain --vectors 4,8,16 --repeat 7 --json $R/${v}_large.json > $R/bench_${v}_large.log 2>&1; echo "$v large rc $? $(( $(date +%s)-s )) s"
done
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
