#!/usr/bin/env bash
# session 11, call 3: the record of ecb1885 (399eb70's code): the plain call at 4/8/16 vectors on the 7 replicated real and the 6 generated large matrices, KokkosKernels' default beside it
set -u
mkdir -p /tmp/w && tar xJf .device-pack/pack.txz -C /tmp/w
P=/tmp/w/p; D=$PWD/unit_tests/data
R=$OUT/rec; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
RM=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000; do RM+=(--mtx "$D/${spec%%:*}.mtx:${spec##*:}"); done
RM+=(--mtx /tmp/w/m/cage10.mtx:600)
s=$(date +%s)
timeout 100 $P/spmv_bench --suite none "${RM[@]}" --kernels plain --vectors 4,8,16 --repeat 7 --json $R/real.json > $R/bench_real.log 2>&1; echo "real rc $? $(( $(date +%s)-s )) s"
s=$(date +%s)
timeout 300 $P/spmv_bench --suite large --kernels plain --vectors 4,8,16 --repeat 7 --json $R/large.json > $R/bench_large.log 2>&1; echo "large rc $? $(( $(date +%s)-s )) s"
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
