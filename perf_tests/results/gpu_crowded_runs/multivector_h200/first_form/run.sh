#!/usr/bin/env bash
# session 24, call 4: several vectors where a run of empty rows is too long for one balanced block
# (launch.hpp: multivector_kernel, row_major_multivector_kernel, multivector_ways with
# crowded_rows): the multivector and launch tests (Cuda, Serial); the plain call and the forced
# kernels at 4, 8, 16 vectors on runs.mtx x100 and runs_long.mtx x100 (make_runs.py; the long
# one's first row of 60000 entries), this code (new_) and d0b9c38 (old_), alternating twice
set -u
mkdir -p /tmp/w && tar xJf .device-carry/s24d.txz -C /tmp/w || exit 1
P=/tmp/w/p
R=/tmp/rec4; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
s=$(date +%s)
timeout 90 $P/new_tests --gtest_filter='*Multivector*:Launch.*' > $R/unit_tests.log 2>&1; echo "tests rc $? $(( $(date +%s)-s )) s"; tail -1 $R/unit_tests.log
for round in 1 2; do
for v in new old; do
  s=$(date +%s)
  timeout 90 $P/${v}_bench --suite none --mtx /tmp/w/m/runs.mtx:100 --mtx /tmp/w/m/runs_long.mtx:100 --kernels plain --vectors 4,8,16 --vector-kernels --repeat 7 --json $R/${v}_runs_$round.json > $R/${v}_runs_$round.log 2>&1; echo "$v rc $? $(( $(date +%s)-s )) s"
  grep -E "automatic" $R/${v}_runs_$round.log | head -14
done
done
grep -l WRONG $R/*.log
gzip $R/*.json
tar czf $OUT/rec4.tgz -C /tmp rec4
