#!/usr/bin/env bash
# The raw balanced kernel's launches as programmatic dependents beside the ordinary launches, on
# the GPU machine from the repository root with $OUT set, in one call:
#   TESTS=1 ROUNDS="old new new old" PASS_LIMIT=100 TAG=3 bash run.sh     (final/)
#   TESTS=1 ROUNDS="old carry new new carry old" PASS_LIMIT=85 TAG=2 bash run.sh   (variants/)
#   TESTS=1 ROUNDS="old new" TAG=1 bash run.sh   (carry_first/, whose "new" was the carry alone)
# .device-carry/pdl.txz: p/spmv_bench (dbdf3fe), o/spmv_bench (b2f6f30), q/spmv_bench (the carry
# alone a dependent; variants/ only), m/cage10.mtx (shared/matrices), t/mv_tests (the unit tests
# of several vectors, launch, analysis and raw against p's library), all built here for CUDA
# (Kokkos 4.6.01, KokkosKernels 4.7.00, sm_90) and stripped; the results README says how.
# The plain call (--kernels plain: kspmv:automatic and kk:default) on the 53 replicated real
# matrices: the suite's 7 at their counts, perf_tests/matrices' 46 to 50 million entries.
# ROUNDS: old (o), carry (q), new (p); TESTS=1 runs test_raw's tests and memcheck first.
set -u
mkdir -p /tmp/w && tar xJf .device-carry/pdl.txz -C /tmp/w || exit 1
P=/tmp/w/p; O=/tmp/w/o; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
if [ "${TESTS:-0}" = 1 ]; then
  s=$(date +%s)
  KSPMV_TEST_DATA_DIR=unit_tests/data /tmp/w/t/mv_tests --gtest_filter='*Raw*:*Balanced*' --gtest_brief=1 > $R/tests.log 2>&1; echo "tests rc $? $(( $(date +%s)-s )) s"
  tail -3 $R/tests.log
  s=$(date +%s)
  KSPMV_TEST_DATA_DIR=unit_tests/data timeout 200 compute-sanitizer --tool memcheck /tmp/w/t/mv_tests --gtest_filter='*BalancedOneAndTwoLaunchesAgree*' > $R/memcheck.log 2>&1; echo "memcheck rc $? $(( $(date +%s)-s )) s"
  grep -E "ERROR SUMMARY|PASSED|FAILED" $R/memcheck.log
  s=$(date +%s)
  timeout 200 compute-sanitizer --tool memcheck $P/spmv_bench --suite none --mtx unit_tests/data/bcsstk13.mtx:250 --kernels plain --repeat 2 > $R/memcheck_bench.log 2>&1; echo "memcheck bench rc $? $(( $(date +%s)-s )) s"
  grep -E "ERROR SUMMARY|WRONG" $R/memcheck_bench.log
fi
MX=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; MX+=(--mtx "$f:${spec##*:}"); done
for f in perf_tests/matrices/*.mtx.gz; do n=$(basename $f .gz); [ -f /tmp/m/$n ] || gunzip -c $f > /tmp/m/$n; MX+=(--mtx /tmp/m/$n); done
i=0
for b in ${ROUNDS:-old new}; do B=$P; [ $b = old ] && B=$O; [ $b = carry ] && B=/tmp/w/q; i=$((i+1))
  s=$(date +%s)
  timeout ${PASS_LIMIT:-270} $B/spmv_bench --suite none --replicate-to 50000000 "${MX[@]}" --kernels plain --repeat 20 --json $R/${b}_${TAG:-1}_$i.json > $R/${b}_${TAG:-1}_$i.log 2>&1; echo "$b $i rc $? $(( $(date +%s)-s )) s"
done
grep -l WRONG $R/*.log
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
