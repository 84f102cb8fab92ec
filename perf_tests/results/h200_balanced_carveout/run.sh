#!/usr/bin/env bash
# session 27 lab: the L1 left for x. Raw balanced CSR with the L1/shared-memory split asked of the driver
# (KSPMV_LAB_CARVEOUT=percent of the largest shared memory, cudaFuncAttributePreferredSharedMemoryCarveout;
# carveout.diff on 668df0b) in one binary (carve.txz: p/spmv_bench, m/cage10.mtx), --kernels csr on 24
# replicated real matrices, one round each in ROUNDS (d: the driver's own choice). Then Nsight Compute's
# launch statistics of both block sizes under each split on ca-CondMat x274 (the configuration it took).
# From the repository root on the GPU machine ($OUT set): ROUNDS="d 100 72 58 86 d" bash run.sh (call 1);
# ROUNDS="d 43 57 d" NCU_ROUNDS="43 57" bash run.sh (call 2)
set -u
mkdir -p /tmp/w && tar xJf .device-carry/carve.txz -C /tmp/w || exit 1
P=/tmp/w/p; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
A=()
for spec in bcsstk13:1000 arrow:600 cage10:600 wiki-Vote:1000; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; A+=(--mtx "$f:${spec##*:}"); done
for n in t2d_q9 dw8192 cti epb1 stocfor3 bcsstk16 fe_4elt2 commanche_dual crack ct2010 bcspwr10 p2p-Gnutella09 ca-CondMat lp_dfl001 wood1p fit2d ca-HepTh cs4 PGPgiantcompo email-Enron; do f=perf_tests/matrices/$n.mtx.gz; [ -f /tmp/m/$n.mtx ] || gunzip -c $f > /tmp/m/$n.mtx; A+=(--mtx /tmp/m/$n.mtx); done
i=0
for b in ${ROUNDS:-d 100 72 58 86 d}; do i=$((i+1))
  s=$(date +%s)
  unset KSPMV_LAB_CARVEOUT; [ $b = d ] || export KSPMV_LAB_CARVEOUT=$b
  timeout ${PASS_LIMIT:-120} $P/spmv_bench --suite none --replicate-to 50000000 "${A[@]}" --kernels csr --repeat 10 --json $R/c${b}_$i.json > $R/c${b}_$i.log 2>&1; echo "$b $i rc $? $(( $(date +%s)-s )) s"
done
grep -l WRONG $R/*.log
if [ "${NCU:-1}" = 1 ]; then
  for b in ${NCU_ROUNDS:-d 58 100}; do
    unset KSPMV_LAB_CARVEOUT; [ $b = d ] || export KSPMV_LAB_CARVEOUT=$b
    timeout 100 ncu --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis --kernel-name-base demangled -k "regex:csr_balanced_kernel.*CsrColumns" --launch-skip 0 --launch-count 12 $P/spmv_bench --suite none --mtx /tmp/m/ca-CondMat.mtx:274 --kernels csr --repeat 3 > $R/ncu_$b.txt 2>&1; echo "ncu $b rc $?"
  done
  unset KSPMV_LAB_CARVEOUT
fi
gzip $R/*.json
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
