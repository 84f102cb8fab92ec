#!/usr/bin/env bash
# session 18: the column-major X copied before the chunks run on it (spmv.hpp), test
# MultivectorChunksOnRowMajorCopyOfScatteredX with the fix (mv_tests) and with the spmv.hpp of
# 4825b3a (mv_tests_old: expected to fail on Y LayoutRight); the unit tests of several vectors,
# launch, analysis, raw; memcheck of the new test
set -u
mkdir -p /tmp/w && tar xJf .device-carry/tests.txz -C /tmp/w || exit 1
P=/tmp/w/p; R=$OUT/rec; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
s=$(date +%s)
timeout 240 $P/mv_tests --gtest_filter='*Multivector*:Launch.*:CsrAnalysisTest*:*Raw*' > $R/unit_tests.log 2>&1; echo "tests rc $? $(( $(date +%s)-s )) s"; tail -3 $R/unit_tests.log
s=$(date +%s)
timeout 120 $P/mv_tests_old --gtest_filter='*/Cuda.MultivectorChunksOnRowMajorCopyOfScatteredX' > $R/old_code.log 2>&1; echo "old code rc $? $(( $(date +%s)-s )) s"; grep -E "Failure|LayoutRight|LayoutLeft|PASSED|FAILED" $R/old_code.log | head -12
s=$(date +%s)
timeout 200 /usr/local/cuda/bin/compute-sanitizer --tool memcheck $P/mv_tests --gtest_filter='*/Cuda.MultivectorChunksOnRowMajorCopyOfScatteredX' > $R/memcheck.log 2>&1; echo "memcheck rc $? $(( $(date +%s)-s )) s"; tail -1 $R/memcheck.log
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
