#!/usr/bin/env bash
# session 27 lab: raw balanced CSR with its products in registers, summed by a segmented scan of each wave's
# chunk (csr_balanced_scan_kernel, first_form/scan.diff or second_form/scan.diff on 668df0b: 5.4 KB of shared memory a block instead of 17.7 KB,
# so that the L1 left for x grows) in one binary with main's kernel (scan.txz: p/spmv_bench, t/mv_tests, the
# unit tests test_raw, test_csr16, test_csr_balanced, test_spmv; m/cage10.mtx). KSPMV_LAB_SCAN=1: capped at
# 32 registers (8 blocks of 256 threads; 16-40 bytes spilled), 2: uncapped (48 registers at 256 threads).
# Tests under both, memcheck under 1, then --kernels csr on 24 replicated real matrices, a round each in
# ROUNDS (m: main's kernel). From the repository root on the GPU machine ($OUT set): bash run.sh (first form);
# ROUNDS="m s1 s2" bash run.sh (second form)
set -u
mkdir -p /tmp/w && tar xJf .device-carry/scan.txz -C /tmp/w || exit 1
P=/tmp/w/p; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
if [ "${TESTS:-1}" = 1 ]; then
  for s in 1 2; do KSPMV_LAB_SCAN=$s timeout 150 /tmp/w/t/mv_tests > $R/tests_$s.log 2>&1; echo "tests $s rc $?"; tail -3 $R/tests_$s.log; done
  KSPMV_LAB_SCAN=1 timeout 200 compute-sanitizer --tool memcheck /tmp/w/t/mv_tests --gtest_filter='*Raw*:*Balanced*' > $R/memcheck.log 2>&1; echo "memcheck rc $?"; tail -2 $R/memcheck.log
fi
A=()
for spec in bcsstk13:1000 arrow:600 cage10:600 wiki-Vote:1000; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; A+=(--mtx "$f:${spec##*:}"); done
for n in t2d_q9 dw8192 cti epb1 stocfor3 bcsstk16 fe_4elt2 commanche_dual crack ct2010 bcspwr10 p2p-Gnutella09 ca-CondMat lp_dfl001 wood1p fit2d ca-HepTh cs4 PGPgiantcompo email-Enron; do f=perf_tests/matrices/$n.mtx.gz; [ -f /tmp/m/$n.mtx ] || gunzip -c $f > /tmp/m/$n.mtx; A+=(--mtx /tmp/m/$n.mtx); done
i=0
for b in ${ROUNDS:-m s1 s2 m}; do i=$((i+1))
  s=$(date +%s)
  unset KSPMV_LAB_SCAN; [ $b = m ] || export KSPMV_LAB_SCAN=${b#s}
  timeout ${PASS_LIMIT:-120} $P/spmv_bench --suite none --replicate-to 50000000 "${A[@]}" --kernels csr --repeat 10 --json $R/${b}_$i.json > $R/${b}_$i.log 2>&1; echo "$b $i rc $? $(( $(date +%s)-s )) s"
done
unset KSPMV_LAB_SCAN
grep -l WRONG $R/*.log
gzip $R/*.json
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
