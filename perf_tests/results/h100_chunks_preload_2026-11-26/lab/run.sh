#!/usr/bin/env bash
# session 13, call 2: the chunks kernel with its chunk's entries loaded first (KSPMV_LAB_CHUNKS=1, two steps an iteration) against the kernel before (0), on 5 of the 7 replicated real matrices at 8 and 16 vectors, the row-major kernels forced beside
set -u
mkdir -p /tmp/w && cp .device-pack/pack.part.ab /tmp/stash/ && cat /tmp/stash/pack.part.* > /tmp/pack.txz && tar xJf /tmp/pack.txz -C /tmp/w
P=/tmp/w/p; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
RM=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500; do RM+=(--mtx "$M/${spec%%:*}.mtx:${spec##*:}"); done
for v in ${VARIANTS:-0 1}; do
  s=$(date +%s)
  KSPMV_LAB_CHUNKS=$v timeout 150 $P/spmv_bench --suite none "${RM[@]}" --kernels plain --vectors 8,16 --vector-kernels --repeat 5 --json $R/real_v$v.json > $R/real_v$v.log 2>&1; echo "v$v rc $? $(( $(date +%s)-s )) s"
done
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
