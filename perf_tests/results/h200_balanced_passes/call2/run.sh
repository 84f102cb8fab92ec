#!/usr/bin/env bash
# session 25, call 2 (lab): the balanced multivector kernel with 3 vectors a pass (v3, products in
# dynamic shared memory) and with 2 at 5 and 6 blocks a multiprocessor (lb5: 48 registers, lb6:
# 40, __launch_bounds__) against main, alternating twice: the plain call and raw_balanced at 4, 8,
# 16 vectors, both layouts, on rajat01 and arrow replicated and 2 unseen
set -u
mkdir -p /tmp/w && tar xJf .device-carry/s25b.txz -C /tmp/w || exit 1
P=/tmp/w/p
R=/tmp/rec2; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
M=(--mtx unit_tests/data/rajat01.mtx:2000 --mtx unit_tests/data/arrow.mtx:600)
for f in p2p-Gnutella09 lp_d6cube; do gunzip -c perf_tests/matrices/$f.mtx.gz > /tmp/m/$f.mtx; done
M+=(--mtx /tmp/m/p2p-Gnutella09.mtx:1923 --mtx /tmp/m/lp_d6cube.mtx:1327)
for round in 1 2; do
for v in lb5 main v3 lb6; do
  s=$(date +%s)
  timeout 60 $P/${v}_bench --suite none "${M[@]}" --kernels plain --vectors 4,8,16 --repeat 5 --json $R/${v}_$round.json > $R/${v}_$round.log 2>&1; echo "$v rc $? $(( $(date +%s)-s )) s"
done
done
grep -l WRONG $R/*.log
gzip $R/*.json
tar czf $OUT/rec2.tgz -C /tmp rec2
