#!/usr/bin/env bash
# session 16, branch staged-left: its several-vector unit tests (staged row-major forced on and off,
# and timed) on Cuda and Serial, and compute-sanitizer memcheck of the staged test
set -u
mkdir -p /tmp/w && tar xJf .device-carry/staged_tests.txz -C /tmp/w || exit 1
P=/tmp/w/p
R=$OUT/rec; mkdir -p $R
nvidia-smi > $R/gpu.txt 2>&1
s=$(date +%s)
timeout 200 $P/mv_staged --gtest_filter='SpmvMultivector*' > $R/unit_tests.log 2>&1; echo "tests rc $? $(( $(date +%s)-s )) s"; grep -E "PASSED|FAILED" $R/unit_tests.log | head
s=$(date +%s)
timeout 200 /usr/local/cuda/bin/compute-sanitizer --tool memcheck $P/mv_staged --gtest_filter='*/Cuda.MultivectorStagedRowMajor' > $R/memcheck.log 2>&1; echo "memcheck rc $? $(( $(date +%s)-s )) s"; tail -1 $R/memcheck.log
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
