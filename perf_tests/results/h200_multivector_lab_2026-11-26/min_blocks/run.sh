#!/usr/bin/env bash
# session 14, lab: the multivector chunks and balanced kernels with a minimum of 4, 5 or 6 blocks a
# multiprocessor in their launch bounds (KSPMV_LAB_MINB; 0: as at 020fc8b), plain calls at 8 and 16
# vectors on the suite's replicated real matrices and 6 of perf_tests/matrices replicated to 50M entries
set -u
mkdir -p /tmp/w && tar xJf .device-carry/pack.txz -C /tmp/w || exit 1
P=/tmp/w/p; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
cuobjdump --dump-resource-usage $P/spmv_bench 2>/dev/null | grep -E "multivector_(chunks|balanced)_kernel.*Edii" > $R/regs.txt
RM=()
for spec in rajat01:2000 wiki-Vote:1000 arrow:600 bcsstk13:1000 Groebner_id2003_aug:500; do RM+=(--mtx "$M/${spec%%:*}.mtx:${spec##*:}"); done
UN=()
mkdir -p /tmp/m
for f in ego-Facebook email-Eu-core ca-CondMat p2p-Gnutella09 lp_d6cube wood1p; do gunzip -c perf_tests/matrices/$f.mtx.gz > /tmp/m/$f.mtx; UN+=(--mtx /tmp/m/$f.mtx); done
for v in ${VARIANTS:-0 4 5 6}; do
  s=$(date +%s)
  KSPMV_LAB_MINB=$v timeout 170 $P/spmv_bench --suite none "${RM[@]}" --kernels plain --vectors 8,16 --repeat 5 --json $R/real_v$v.json > $R/real_v$v.log 2>&1; echo "real v$v rc $? $(( $(date +%s)-s )) s"
done
for v in ${UNSEEN_VARIANTS:-0 5}; do
  s=$(date +%s)
  KSPMV_LAB_MINB=$v timeout 170 $P/spmv_bench --suite none --replicate-to 50000000 "${UN[@]}" --kernels plain --vectors 8,16 --repeat 5 --json $R/unseen_v$v.json > $R/unseen_v$v.log 2>&1; echo "unseen v$v rc $? $(( $(date +%s)-s )) s"
done
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
