#!/usr/bin/env bash
# session 20 lab: the raw balanced kernel loading entries in pairs (p/spmv_bench; KSPMV_LAB_UNPAIRED=1
# gives the kernel before) on the 53 replicated real matrices, --kernels csr (raw balanced CSR forced,
# Csr16Matrix, the Plan, KokkosKernels' default), rounds in ROUNDS (u: unpaired, p: paired).
# Run as TESTS=1 bash run.sh from the repository root on the GPU machine ($OUT set); pair.txz: p/spmv_bench
# built from main at 641c9de with pairs.patch, m/cage10.mtx, t/mv_tests (test_raw, test_csr16 and the others
# of the Cuda unit-test link in the README of h200_balanced_pdl).
set -u
mkdir -p /tmp/w && tar xJf .device-carry/pair.txz -C /tmp/w || exit 1
P=/tmp/w/p; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
if [ "${TESTS:-0}" = 1 ]; then
  s=$(date +%s)
  KSPMV_TEST_DATA_DIR=unit_tests/data /tmp/w/t/mv_tests --gtest_filter='*Raw*:*Balanced*:*Csr16*' --gtest_brief=1 > $R/tests.log 2>&1; echo "tests rc $? $(( $(date +%s)-s )) s"
  tail -3 $R/tests.log
  s=$(date +%s)
  KSPMV_TEST_DATA_DIR=unit_tests/data timeout 150 compute-sanitizer --tool memcheck /tmp/w/t/mv_tests --gtest_filter='*BalancedOneAndTwoLaunchesAgree*:*Csr16*RowsAcross*' > $R/memcheck.log 2>&1; echo "memcheck rc $? $(( $(date +%s)-s )) s"
  grep -E "ERROR SUMMARY|PASSED|FAILED" $R/memcheck.log
fi
A=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; A+=(--mtx "$f:${spec##*:}"); done
for f in perf_tests/matrices/*.mtx.gz; do n=$(basename $f .gz); [ -f /tmp/m/$n ] || gunzip -c $f > /tmp/m/$n; A+=(--mtx /tmp/m/$n); done
i=0
for b in ${ROUNDS:-u p p u}; do i=$((i+1))
  s=$(date +%s)
  if [ $b = u ]; then export KSPMV_LAB_UNPAIRED=1; else unset KSPMV_LAB_UNPAIRED; fi
  timeout ${PASS_LIMIT:-150} $P/spmv_bench --suite none --replicate-to 50000000 "${A[@]}" --kernels csr --repeat 10 --json $R/${b}_$i.json > $R/${b}_$i.log 2>&1; echo "$b $i rc $? $(( $(date +%s)-s )) s"
done
unset KSPMV_LAB_UNPAIRED
grep -l WRONG $R/*.log
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
