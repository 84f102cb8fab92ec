#!/usr/bin/env bash
# session 10, call 8: new (final tree) against old: the plain call at 8 and 16 vectors on the 7 replicated real matrices; at 4 vectors on the 46 of perf_tests/matrices replicated to 50M entries, both binaries
set -u
mkdir -p /tmp/w && tar xJf .device-pack/pack.txz -C /tmp/w
P=/tmp/w/p; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
RM=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do RM+=(--mtx "$M/${spec%%:*}.mtx:${spec##*:}"); done
a=()
for f in perf_tests/matrices/*.mtx.gz; do name=$(basename "$f" .gz); gunzip -c "$f" > /tmp/m/$name; a+=(--mtx /tmp/m/$name); done
for v in new old; do
  b=$P/spmv_bench; [ $v = old ] && b=$P/spmv_bench_old
  s=$(date +%s)
  timeout 60 $b --suite none "${RM[@]}" --kernels plain --vectors 8,16 --repeat 7 --json $R/${v}_real.json > $R/bench_${v}_real.log 2>&1; echo "$v real rc $? $(( $(date +%s)-s )) s"
done
for v in new old; do
  b=$P/spmv_bench; [ $v = old ] && b=$P/spmv_bench_old
  s=$(date +%s)
  timeout 230 $b --suite none --kernels plain --vectors 4 --replicate-to 50000000 "${a[@]}" --repeat 5 --json $R/unseen4_${v}.json > $R/unseen4_${v}.log 2>&1; echo "$v unseen rc $? $(( $(date +%s)-s )) s"
done
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
