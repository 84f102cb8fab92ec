#!/usr/bin/env bash
# session 10, call 2: old (session start) against new (chunks: group search, row ends ahead, streamed entries, paired y stores; flat scale_y; coalesced row-major copy), 4 and 8 vectors, forced kernels beside
set -u
mkdir -p /tmp/w && tar xJf .device-pack/pack.txz -C /tmp/w
P=/tmp/w/p
R=$OUT/rec; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
RM=()
for spec in rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 bcsstk13:1000 poly_chain.512:1000 cage10:600; do RM+=(--mtx "$P/real/${spec%%:*}.mtx:${spec##*:}"); done
for v in new old; do
  s=$(date +%s)
  timeout 150 $P/spmv_bench_$v --suite none "${RM[@]}" --kernels plain --vectors 8 --vector-kernels --repeat 5 --json $R/${v}_real.json > $R/${v}_real.log 2>&1; echo "$v real rc $? $(( $(date +%s)-s )) s"
done
for v in new old; do
  s=$(date +%s)
  timeout 200 $P/spmv_bench_$v --suite large --kernels plain --vectors 4,8 --vector-kernels --repeat 5 --json $R/${v}_large.json > $R/${v}_large.log 2>&1; echo "$v large rc $? $(( $(date +%s)-s )) s"
done
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
