#!/usr/bin/env bash
# device call 6: mode T with the split entries where row lengths vary more than their mean (new) beside 13a2b8e (old), run_gpu_transpose.sh for each; tests
set -u
mkdir -p /tmp/w && tar xJf .device-pack/pack.txz -C /tmp/w
P=/tmp/w/p
R=$OUT/rec; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
timeout 200 $P/mv_tests --gtest_filter='*Mode*:Launch.*' > $R/unit_tests.log 2>&1; echo "tests rc $?" >> $R/unit_tests.log
tail -3 $R/unit_tests.log
for v in new old; do
  s=$(date +%s)
  timeout 200 bash perf_tests/run_gpu_transpose.sh $P/$v $P/real $R/$v > $R/run_$v.log 2>&1; echo "$v rc $? $(( $(date +%s)-s )) s"
done
timeout 80 /usr/local/cuda/bin/compute-sanitizer --tool memcheck $P/mv_tests --gtest_filter='*/Cuda.Mode*' > $R/memcheck.log 2>&1; echo "memcheck rc $?"; tail -1 $R/memcheck.log
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
