#!/usr/bin/env bash
# session 8, device call 8: the committed code (with the scratch fallback): unit tests, memcheck of the mode tests, run_gpu_transpose.sh once more
set -u
mkdir -p /tmp/w && tar xJf .device-pack/pack.txz -C /tmp/w
P=/tmp/w/p
R=$OUT/rec; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
s=$(date +%s)
timeout 100 $P/mv_tests --gtest_filter='*Mode*:Launch.*:*Transpose*:*Multivector*' > $R/unit_tests.log 2>&1; echo "tests rc $? $(( $(date +%s)-s )) s" | tee -a $R/unit_tests.log
tail -3 $R/unit_tests.log
s=$(date +%s)
timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool memcheck $P/mv_tests --gtest_filter='*/Cuda.Mode*' > $R/memcheck.log 2>&1; echo "memcheck rc $? $(( $(date +%s)-s )) s"; tail -1 $R/memcheck.log
s=$(date +%s)
timeout 100 bash perf_tests/run_gpu_transpose.sh $P/final $P/real $R/final > $R/run_final.log 2>&1; echo "final rc $? $(( $(date +%s)-s )) s"
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
