#!/usr/bin/env bash
# session 26 lab: raw balanced CSR, three forms of one binary (persist.txz: p/spmv_bench built from c62d98b
# with persist.diff, m/cage10.mtx), 14 replicated real matrices, --kernels csr, one round each in ROUNDS:
# b main's kernel; a the regions with the pool (KSPMV_LAB_SMREG=1); p the same with blocks that stay
# resident and claim each next tile while walking the present one (KSPMV_LAB_SMREG=1 KSPMV_LAB_PERSIST=1).
# From the repository root on the GPU machine ($OUT set): ROUNDS="b p a" bash run.sh
set -u
mkdir -p /tmp/w && tar xJf .device-carry/persist.txz -C /tmp/w || exit 1
P=/tmp/w/p
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
A=(--mtx unit_tests/data/wiki-Vote.mtx:1000)
for n in ca-CondMat ca-HepTh lp_dfl001 tech-WHOIS PGPgiantcompo ca-GrQc cs4 p2p-Gnutella09 lp_nug20 t2d_q9 bcsstk16 ex6 luxembourg_osm; do
  gunzip -c perf_tests/matrices/$n.mtx.gz > /tmp/m/$n.mtx; A+=(--mtx /tmp/m/$n.mtx); done
i=0
for b in ${ROUNDS:-b p a}; do i=$((i+1))
  s=$(date +%s)
  unset KSPMV_LAB_SMREG KSPMV_LAB_PERSIST
  if [ $b = a ]; then export KSPMV_LAB_SMREG=1; fi
  if [ $b = p ]; then export KSPMV_LAB_SMREG=1 KSPMV_LAB_PERSIST=1; fi
  timeout ${PASS_LIMIT:-60} $P/spmv_bench --suite none --replicate-to 50000000 "${A[@]}" --kernels csr --repeat 10 --json $R/${b}_$i.json > $R/${b}_$i.log 2>&1; echo "$b $i rc $? $(( $(date +%s)-s )) s"
done
unset KSPMV_LAB_SMREG KSPMV_LAB_PERSIST
grep -l WRONG $R/*.log
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
