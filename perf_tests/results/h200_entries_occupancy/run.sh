#!/usr/bin/env bash
# session 28: the split-entries multivector kernel held to 64 registers (4 blocks of 256 threads a
# multiprocessor) beside main (672b37f). r28.txz: p/spmv_bench (this change), o/spmv_bench (672b37f),
# t/mv_tests (test_spmv_multivector, test_launch), m/cage10.mtx. The tests on Cuda, memcheck of the
# test running the split entries at 8 vectors, then the suite's large matrices (6 generated, 7 real
# replicated) at 8 vectors, the plain call and KokkosKernels' default, a round each in ROUNDS (n new, o old).
set -u
mkdir -p /tmp/w && tar xJf .device-carry/r28.txz -C /tmp/w || exit 1
R=$OUT/rec; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
timeout 200 /tmp/w/t/mv_tests > $R/tests.log 2>&1; echo "tests rc $?"; grep -E "PASSED|FAILED" $R/tests.log | head -5
timeout 200 compute-sanitizer --tool memcheck /tmp/w/t/mv_tests --gtest_filter='*MultivectorRowMajorCopyOfScatteredX*' > $R/memcheck.log 2>&1; echo "memcheck rc $?"; tail -3 $R/memcheck.log
A=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=/tmp/w/m/$n.mtx; A+=(--mtx "$f:${spec##*:}"); done
i=0
for b in ${ROUNDS:-n o}; do i=$((i+1)); s=$(date +%s)
  B=/tmp/w/$( [ $b = o ] && echo o || echo p )/spmv_bench
  timeout 150 $B --suite large --kernels plain --vectors 8 --repeat 5 --json $R/${b}_large_$i.json > $R/${b}_large_$i.log 2>&1; echo "$b large $i rc $? $(( $(date +%s)-s )) s"
  s=$(date +%s)
  timeout 100 $B --suite none "${A[@]}" --kernels plain --vectors 8 --repeat 5 --json $R/${b}_real_$i.json > $R/${b}_real_$i.log 2>&1; echo "$b real $i rc $? $(( $(date +%s)-s )) s"
done
grep -l WRONG $R/*.log
gzip $R/*.json
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
