#!/usr/bin/env bash
# session 15, final code 2 (columns a step ahead), call A: the multivector, launch and
# analysis unit tests on Cuda (and Serial) and compute-sanitizer memcheck of the chunks' tests
set -u
mkdir -p /tmp/w && tar xJf .device-carry/tests.txz -C /tmp/w || exit 1
P=/tmp/w/p
R=$OUT/rec; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER KSPMV_TEST_DATA_DIR=$PWD/unit_tests/data
nvidia-smi > $R/gpu.txt 2>&1
s=$(date +%s)
timeout 300 $P/mv_tests --gtest_filter='*Multivector*:Launch.*:CsrAnalysisTest*' > $R/unit_tests.log 2>&1; echo "tests rc $? $(( $(date +%s)-s )) s"
tail -3 $R/unit_tests.log; grep -E "FAILED|Failure" $R/unit_tests.log | head -5
s=$(date +%s)
timeout 240 /usr/local/cuda/bin/compute-sanitizer --tool memcheck $P/mv_tests --gtest_filter='*/Cuda.MultivectorRowMajorCopyOfScatteredX:*/Cuda.MultivectorRowLanesAndChunks:*/Cuda.MultivectorEveryCase' > $R/memcheck.log 2>&1; echo "memcheck rc $? $(( $(date +%s)-s )) s"; tail -1 $R/memcheck.log
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
