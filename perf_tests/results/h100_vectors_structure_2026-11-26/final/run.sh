#!/usr/bin/env bash
# session 12, call 6 (final code): the plain call on the 6 generated large matrices at 2, 4, 8, 16 vectors, the 7 replicated real at 4, 8, 16, the 46 of perf_tests/matrices at 4; then (PART=tests, another pack) the multivector, launch and analysis unit tests on Cuda and memcheck
set -u
mkdir -p /tmp/w && tar xJf .device-pack/pack.txz -C /tmp/w
P=/tmp/w/p; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER KSPMV_TEST_DATA_DIR=$PWD/unit_tests/data
nvidia-smi > $R/gpu.txt 2>&1
if [ "${PART:-bench}" = tests ]; then
  s=$(date +%s)
  timeout 240 $P/mv_tests --gtest_filter='*Multivector*:Launch.*:CsrAnalysisTest*' > $R/unit_tests.log 2>&1; echo "tests rc $? $(( $(date +%s)-s )) s"
  tail -3 $R/unit_tests.log; grep -E "FAILED|Failure" $R/unit_tests.log | head -5
  s=$(date +%s)
  timeout 200 /usr/local/cuda/bin/compute-sanitizer --tool memcheck $P/mv_tests --gtest_filter='*/Cuda.MultivectorRowMajorCopyOfScatteredX:*/Cuda.MultivectorRowLanesAndChunks:*/Cuda.MultivectorEveryCase' > $R/memcheck.log 2>&1; echo "memcheck rc $? $(( $(date +%s)-s )) s"; tail -1 $R/memcheck.log
else
  RM=()
  for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do RM+=(--mtx "$M/${spec%%:*}.mtx:${spec##*:}"); done
  a=()
  for f in perf_tests/matrices/*.mtx.gz; do name=$(basename "$f" .gz); gunzip -c "$f" > /tmp/m/$name; a+=(--mtx /tmp/m/$name); done
  s=$(date +%s)
  timeout 200 $P/spmv_bench --suite large --kernels plain --vectors 2,4,8,16 --repeat 5 --json $R/large.json > $R/large.log 2>&1; echo "large rc $? $(( $(date +%s)-s )) s"
  s=$(date +%s)
  timeout 100 $P/spmv_bench --suite none "${RM[@]}" --kernels plain --vectors 4,8,16 --repeat 5 --json $R/real.json > $R/real.log 2>&1; echo "real rc $? $(( $(date +%s)-s )) s"
  s=$(date +%s)
  timeout 200 $P/spmv_bench --suite none --kernels plain --vectors 4 --replicate-to 50000000 "${a[@]}" --repeat 5 --json $R/unseen4.json > $R/unseen4.log 2>&1; echo "unseen 4 rc $? $(( $(date +%s)-s )) s"
fi
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
