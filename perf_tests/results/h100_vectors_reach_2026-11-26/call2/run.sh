#!/usr/bin/env bash
# session 11, call 2: unit tests (the analysis on Cuda, the launch rules); the plain call at 2 vectors on uniform random and at 4 vectors on the 6 generated large matrices, beside the lanes kernel forced at every width (on uniform random raw_lanes2 is the choice before this change)
set -u
mkdir -p /tmp/w && tar xJf .device-pack/pack.txz -C /tmp/w
P=/tmp/w/p
R=$OUT/rec; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER KSPMV_TEST_DATA_DIR=$PWD/unit_tests/data
nvidia-smi > $R/gpu.txt 2>&1
s=$(date +%s)
timeout 120 $P/mv_tests --gtest_filter='CsrAnalysisTest/Cuda.*:Launch.*' > $R/unit_tests.log 2>&1; echo "tests rc $? $(( $(date +%s)-s )) s"
tail -3 $R/unit_tests.log; grep -E "FAILED|Failure" $R/unit_tests.log | head -5
s=$(date +%s)
timeout 100 $P/spmv_bench --suite large --only uniform_random --kernels plain --vectors 2 --repeat 7 --json $R/uniform2.json > $R/bench_uniform2.log 2>&1; echo "bench 2 rc $? $(( $(date +%s)-s )) s"
grep "mv" $R/bench_uniform2.log | grep -v raw_balanced
s=$(date +%s)
timeout 240 $P/spmv_bench --suite large --kernels plain --vectors 4 --repeat 7 --json $R/large4.json > $R/bench_large4.log 2>&1; echo "bench 4 rc $? $(( $(date +%s)-s )) s"
grep "mv4.:kspmv:automatic\|mv4.:kk\|uniform" $R/bench_large4.log | grep -v raw_balanced
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
