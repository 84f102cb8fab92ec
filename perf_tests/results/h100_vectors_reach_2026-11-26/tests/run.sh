#!/usr/bin/env bash
# session 11, call 4: the multivector, analysis and launch unit tests on Cuda and Serial (test_main, test_spmv, test_launch, test_csr_analysis linked alone), and compute-sanitizer memcheck of the scattered-X copy test
set -u
mkdir -p /tmp/w && tar xJf .device-pack/pack.txz -C /tmp/w
P=/tmp/w/p
R=$OUT/rec; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER KSPMV_TEST_DATA_DIR=$PWD/unit_tests/data
nvidia-smi > $R/gpu.txt 2>&1
s=$(date +%s)
timeout 200 $P/mv_tests --gtest_filter='*Multivector*:Launch.*:CsrAnalysisTest*' > $R/unit_tests.log 2>&1; echo "tests rc $? $(( $(date +%s)-s )) s"
tail -3 $R/unit_tests.log; grep -E "FAILED|Failure" $R/unit_tests.log | head -5
s=$(date +%s)
timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool memcheck $P/mv_tests --gtest_filter='*/Cuda.MultivectorRowMajorCopyOfScatteredX' > $R/memcheck.log 2>&1; echo "memcheck rc $? $(( $(date +%s)-s )) s"; tail -1 $R/memcheck.log
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
