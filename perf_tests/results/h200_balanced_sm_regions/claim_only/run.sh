#!/usr/bin/env bash
# session 26 lab: raw balanced CSR in three forms of one binary (smreg2.txz: p/spmv_bench built from c62d98b
# with claim_only/sm_regions.diff, m/cage10.mtx), on the 53 replicated real matrices, --kernels csr, one
# round each in ROUNDS: b main's kernel; a the regions with the pool (KSPMV_LAB_SMREG=1); i the same claim
# made but each block walking blockIdx.x's tile as main does (KSPMV_LAB_SMREG=1 KSPMV_LAB_SMREG_IGNORE=1).
# From the repository root on the GPU machine ($OUT set): ROUNDS="i b a" bash run.sh
set -u
mkdir -p /tmp/w && tar xJf .device-carry/smreg2.txz -C /tmp/w || exit 1
P=/tmp/w/p; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
A=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; A+=(--mtx "$f:${spec##*:}"); done
for f in perf_tests/matrices/*.mtx.gz; do n=$(basename $f .gz); [ -f /tmp/m/$n ] || gunzip -c $f > /tmp/m/$n; A+=(--mtx /tmp/m/$n); done
i=0
for b in ${ROUNDS:-b a a b}; do i=$((i+1))
  s=$(date +%s)
  unset KSPMV_LAB_SMREG KSPMV_LAB_SMREG_IGNORE
  if [ $b = a ]; then export KSPMV_LAB_SMREG=1; fi
  if [ $b = i ]; then export KSPMV_LAB_SMREG=1 KSPMV_LAB_SMREG_IGNORE=1; fi
  timeout ${PASS_LIMIT:-150} $P/spmv_bench --suite none --replicate-to 50000000 "${A[@]}" --kernels csr --repeat 10 --json $R/${b}_$i.json > $R/${b}_$i.log 2>&1; echo "$b $i rc $? $(( $(date +%s)-s )) s"
done
unset KSPMV_LAB_SMREG KSPMV_LAB_SMREG_IGNORE
grep -l WRONG $R/*.log
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
