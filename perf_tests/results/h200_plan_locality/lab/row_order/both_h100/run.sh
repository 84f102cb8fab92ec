#!/usr/bin/env bash
# session 23 lab, one machine: (a) the plain call on 5 graphs as written (orig) and with rows
# sorted by their smallest column in the file (minrows: y comes out in that order); (b) the
# row-order candidate, y written through the map: W=1 (rows as they are, map read and applied)
# and W=16384 (rows sorted within windows of 16384)
set -u
mkdir -p /tmp/o /tmp/w && tar xJf .device-carry/order.txz -C /tmp/o && tar xJf .device-carry/roworder.txz -C /tmp/w || exit 1
R=/tmp/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
G="ca-CondMat ca-HepTh cs4 ct2010 PGPgiantcompo"
for v in orig minrows; do
  A=(); for n in $G; do A+=(--mtx /tmp/o/o/$n.$v.mtx); done
  s=$(date +%s)
  timeout 100 /tmp/o/spmv_bench --suite none --replicate-to 50000000 "${A[@]}" --kernels plain --repeat 10 --json $R/f_${v}.json > $R/f_${v}.log 2>&1; echo "file $v rc $? $(( $(date +%s)-s )) s"
done
A=(); for n in $G; do A+=(--mtx /tmp/o/o/$n.orig.mtx); done
for w in 1 16384; do
  s=$(date +%s)
  KSPMV_LAB_ORDER=$w timeout 150 /tmp/w/spmv_bench --suite none --replicate-to 50000000 "${A[@]}" --kernels plain --repeat 10 --json $R/w${w}.json > $R/w${w}.log 2>&1; echo "w $w rc $? $(( $(date +%s)-s )) s"
done
grep WRONG $R/*.log | head
gzip $R/*.json
tar czf $OUT/rec.tgz -C /tmp rec
