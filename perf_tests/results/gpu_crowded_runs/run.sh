#!/usr/bin/env bash
# session 23: runs of rows too long for one balanced block (raw::RowStatistics::crowded_rows):
# unit tests of the analysis and the launch rules (Cuda, Serial); then the plain call on a matrix
# of 20000 rows of 24 entries and a run of 60000 empty rows, replicated 100 times, this code
# (new_) and the code before (old_, spmv_bench of f8a875d: the same rank-1 kernels as 3e1145e)
set -u
mkdir -p /tmp/w && tar xJf .device-carry/crowd.txz -C /tmp/w || exit 1
R=/tmp/rec; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
s=$(date +%s)
timeout 100 /tmp/w/p/mv_tests --gtest_filter='CsrAnalysisTest*:Launch.*' > $R/unit_tests.log 2>&1; echo "tests rc $? $(( $(date +%s)-s )) s"; tail -3 $R/unit_tests.log
for v in new old new old; do
  B=/tmp/w/p/spmv_bench; [ $v = old ] && B=/tmp/w/p/old_spmv_bench
  s=$(date +%s)
  timeout 40 $B --suite none --mtx /tmp/w/m/runs.mtx:100 --kernels plain --repeat 10 --json $R/${v}_runs.json >> $R/${v}_runs.log 2>&1; echo "$v rc $? $(( $(date +%s)-s )) s"
  grep "runs.mtx" $R/${v}_runs.log | tail -2
done
grep -l WRONG $R/*.log
tar czf $OUT/rec.tgz -C /tmp rec
