#!/usr/bin/env bash
# session 10, call 9: unit tests (multivector, launch) and compute-sanitizer memcheck of the final tree
set -u
mkdir -p /tmp/w && tar xJf .device-pack/pack.txz -C /tmp/w
P=/tmp/w/p
R=$OUT/rec; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
s=$(date +%s)
timeout 200 $P/mv_tests --gtest_filter='*Multivector*:Launch.*' > $R/unit_tests.log 2>&1; echo "tests rc $? $(( $(date +%s)-s )) s"
tail -3 $R/unit_tests.log; grep -E "FAILED|Failure" $R/unit_tests.log | head -5
s=$(date +%s)
timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool memcheck $P/mv_tests --gtest_filter='*/Cuda.MultivectorRowLanesAndChunks:*/Cuda.MultivectorStridedViews:*/Cuda.MultivectorEveryCase:*/Cuda.MultivectorRowMajorCopyOfScatteredX' > $R/memcheck.log 2>&1; echo "memcheck rc $? $(( $(date +%s)-s )) s"; tail -1 $R/memcheck.log
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
