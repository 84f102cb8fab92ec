#!/usr/bin/env bash
# session 11, call 1: the analysis' unit tests on Cuda (row statistics with the reach, concurrent first calls); the plain call at 2 and 4 vectors on uniform random beside the lanes kernel forced at every width (the code before this change took the lanes kernel at 4 lanes a row there: raw_lanes4)
set -u
mkdir -p /tmp/w && tar xJf .device-pack/pack.txz -C /tmp/w
P=/tmp/w/p
R=$OUT/rec; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER KSPMV_TEST_DATA_DIR=$PWD/unit_tests/data
nvidia-smi > $R/gpu.txt 2>&1
s=$(date +%s)
timeout 120 $P/mv_tests --gtest_filter='CsrAnalysisTest/Cuda.*' > $R/unit_tests.log 2>&1; echo "tests rc $? $(( $(date +%s)-s )) s"
tail -3 $R/unit_tests.log; grep -E "FAILED|Failure" $R/unit_tests.log | head -5
s=$(date +%s)
timeout 150 $P/spmv_bench --suite large --only uniform_random --kernels plain --vectors 2,4 --repeat 7 --json $R/uniform.json > $R/bench_uniform.log 2>&1; echo "bench rc $? $(( $(date +%s)-s )) s"
grep "mv" $R/bench_uniform.log | grep -v raw_balanced
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
