#!/usr/bin/env bash
# session 14, call 2: the balanced multivector kernel with 4 vectors a pass (products in 64 KB of
# dynamic shared memory; KSPMV_LAB_BV=4) against the committed kernel (2 a pass; BV unset = the
# code of 020fc8b), plain calls at 4, 8, 16 vectors on the suite's 7 replicated real matrices and
# 6 of perf_tests/matrices replicated to 50M entries; the suite's generated large matrices with the
# committed kernel; KokkosKernels' default in each run
set -u
mkdir -p /tmp/w && tar xJf .device-carry/pack.txz -C /tmp/w || exit 1
P=/tmp/w/p; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
cuobjdump --dump-resource-usage $P/spmv_bench 2>/dev/null | grep -A1 -E "multivector_(balanced|chunks)_kernel.*Edii" > $R/regs.txt
RM=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do RM+=(--mtx "$M/${spec%%:*}.mtx:${spec##*:}"); done
UN=()
for f in ego-Facebook email-Eu-core ca-CondMat p2p-Gnutella09 lp_d6cube wood1p; do gunzip -c perf_tests/matrices/$f.mtx.gz > /tmp/m/$f.mtx; UN+=(--mtx /tmp/m/$f.mtx); done
for v in 0 4; do
  s=$(date +%s)
  KSPMV_LAB_BV=$v timeout 150 $P/spmv_bench --suite none "${RM[@]}" --kernels plain --vectors 4,8,16 --repeat 7 --json $R/real_bv$v.json > $R/real_bv$v.log 2>&1; echo "real bv$v rc $? $(( $(date +%s)-s )) s"
  s=$(date +%s)
  KSPMV_LAB_BV=$v timeout 120 $P/spmv_bench --suite none --replicate-to 50000000 "${UN[@]}" --kernels plain --vectors 8,16 --repeat 7 --json $R/unseen_bv$v.json > $R/unseen_bv$v.log 2>&1; echo "unseen bv$v rc $? $(( $(date +%s)-s )) s"
done
s=$(date +%s)
timeout 200 $P/spmv_bench --suite large --kernels plain --vectors 4,8,16 --repeat 7 --json $R/large_bv0.json > $R/large_bv0.log 2>&1; echo "large rc $? $(( $(date +%s)-s )) s"
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
