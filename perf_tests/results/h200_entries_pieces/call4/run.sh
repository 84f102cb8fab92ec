#!/usr/bin/env bash
# session 25, call 4 (lab): the split-entries multivector kernel gathering a row of a row-major X
# in 16-byte pieces (pieces_) against main, alternating twice: the plain call at 4 and 8 vectors
# on the suite's heavy_rows and power_law (call 3 again without 16 vectors, and without the tests
# and uniform_random, done there)
set -u
mkdir -p /tmp/w && tar xJf .device-carry/s25c.txz -C /tmp/w || exit 1
P=/tmp/w/p
R=/tmp/rec4; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
for round in 1 2; do
for v in pieces main; do
  s=$(date +%s)
  timeout 110 $P/${v}_bench --suite large --only heavy_rows,power_law --kernels plain --vectors 4,8 --repeat 5 --json $R/${v}_hp_$round.json > $R/${v}_hp_$round.log 2>&1; echo "$v hp rc $? $(( $(date +%s)-s )) s"
done
done
grep -l WRONG $R/*.log
gzip $R/*.json
tar czf $OUT/rec4.tgz -C /tmp rec4
