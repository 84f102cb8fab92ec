#!/usr/bin/env bash
# session 22, fourth call: the balanced kernel no longer timed where the gathers miss the cache
# (launch.hpp: multivector_ways); unit tests (several vectors, launch; Cuda, Serial), then the
# plain call at 4 and 8 vectors on the suite's three generated matrices whose gathers miss the
# cache, this code (new_) and b5c27ee (prev_, call2's binary) one after the other
set -u
mkdir -p /tmp/w /tmp/v && tar xJf .device-carry/ways2.txz -C /tmp/w && tar xJf .device-carry/ways4.txz -C /tmp/v || exit 1
R=/tmp/rec4; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
s=$(date +%s)
timeout 200 /tmp/v/p/mv_tests --gtest_filter='*Multivector*:Launch.*' > $R/unit_tests.log 2>&1; echo "tests rc $? $(( $(date +%s)-s )) s"; tail -1 $R/unit_tests.log
for v in new prev; do
  B=/tmp/v/p/spmv_bench; [ $v = prev ] && B=/tmp/w/p/spmv_bench
  s=$(date +%s)
  timeout 120 $B --suite large --only uniform_random,power_law,heavy_rows --kernels plain --vectors 4,8 --repeat 5 --json $R/${v}_large.json > $R/${v}_large.log 2>&1; echo "$v large rc $? $(( $(date +%s)-s )) s"
done
grep -l WRONG $R/*.log
gzip $R/*.json
tar czf $OUT/rec4.tgz -C /tmp rec4
