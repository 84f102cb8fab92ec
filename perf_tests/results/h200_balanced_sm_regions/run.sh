#!/usr/bin/env bash
# session 26 lab: the raw balanced kernel's blocks claiming tiles of their multiprocessor's region
# (KSPMV_LAB_SMREG=1; sm_regions.diff) against main's kernel (unset) in one binary, on the 53 replicated
# real matrices, --kernels csr, rounds in ROUNDS (b: main's kernel, a: the lab's). From the repository root
# on the GPU machine ($OUT set): TESTS=1 ROUNDS="b a" bash run.sh. smreg.txz: p/spmv_bench built from
# c62d98b + sm_regions.diff, m/cage10.mtx, t/mv_tests (test_main, test_raw, test_csr16, test_csr_balanced
# linked with that libkspmv.a). (The tests' log names say async=0/1 for the variable unset/set.)
set -u
mkdir -p /tmp/w && tar xJf .device-carry/smreg.txz -C /tmp/w || exit 1
P=/tmp/w/p; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
if [ "${TESTS:-0}" = 1 ]; then
  for e in 0 1; do
    s=$(date +%s)
    if [ $e = 1 ]; then export KSPMV_LAB_SMREG=1; else unset KSPMV_LAB_SMREG; fi
    KSPMV_TEST_DATA_DIR=unit_tests/data timeout 200 /tmp/w/t/mv_tests --gtest_brief=1 > $R/tests_$e.log 2>&1; echo "tests async=$e rc $? $(( $(date +%s)-s )) s"
    tail -3 $R/tests_$e.log
  done
  s=$(date +%s)
  KSPMV_TEST_DATA_DIR=unit_tests/data timeout 150 compute-sanitizer --tool memcheck /tmp/w/t/mv_tests --gtest_filter='*BalancedOneAndTwoLaunchesAgree*:*Csr16*' > $R/memcheck.log 2>&1; echo "memcheck rc $? $(( $(date +%s)-s )) s"
  grep -E "ERROR SUMMARY|PASSED|FAILED" $R/memcheck.log | tail -3
  unset KSPMV_LAB_SMREG
fi
A=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; A+=(--mtx "$f:${spec##*:}"); done
for f in perf_tests/matrices/*.mtx.gz; do n=$(basename $f .gz); [ -f /tmp/m/$n ] || gunzip -c $f > /tmp/m/$n; A+=(--mtx /tmp/m/$n); done
i=0
for b in ${ROUNDS:-b a a b}; do i=$((i+1))
  s=$(date +%s)
  if [ $b = a ]; then export KSPMV_LAB_SMREG=1; else unset KSPMV_LAB_SMREG; fi
  timeout ${PASS_LIMIT:-150} $P/spmv_bench --suite none --replicate-to 50000000 "${A[@]}" --kernels csr --repeat 10 --json $R/${b}_$i.json > $R/${b}_$i.log 2>&1; echo "$b $i rc $? $(( $(date +%s)-s )) s"
done
unset KSPMV_LAB_SMREG
grep -l WRONG $R/*.log
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
