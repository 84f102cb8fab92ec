#!/usr/bin/env bash
# session 25, call 5 (lab): the split-entries multivector kernel moving a carried row's sum held by
# the last lane alone with one shuffle (carry_) against 2c56d38's kernel (pieces_), alternating
# twice: the plain call at 4 and 8 vectors on the suite's heavy_rows and power_law; the
# multivector tests of carry (Cuda, Serial)
set -u
mkdir -p /tmp/w && tar xJf .device-carry/s25d.txz -C /tmp/w || exit 1
P=/tmp/w/p
R=/tmp/rec5; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
s=$(date +%s)
timeout 90 $P/carry_tests --gtest_filter='*Multivector*' > $R/carry_unit_tests.log 2>&1; echo "tests rc $? $(( $(date +%s)-s )) s"; tail -1 $R/carry_unit_tests.log
for round in 1 2; do
for v in carry pieces; do
  s=$(date +%s)
  timeout 80 $P/${v}_bench --suite large --only heavy_rows,power_law --kernels plain --vectors 4,8 --repeat 5 --json $R/${v}_hp_$round.json > $R/${v}_hp_$round.log 2>&1; echo "$v hp rc $? $(( $(date +%s)-s )) s"
done
done
grep -l WRONG $R/*.log
gzip $R/*.json
tar czf $OUT/rec5.tgz -C /tmp rec5
