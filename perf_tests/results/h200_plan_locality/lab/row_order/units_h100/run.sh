#!/usr/bin/env bash
# session 23 lab: lab:row_order with units of U consecutive rows moved together (KSPMV_LAB_UNIT),
# so that y's sectors are written whole; W = 1 (rows as they are, through the map) and W = 16384
# with U = 4, 16, 64; 4 graphs replicated to 50M entries, the plain call beside it
set -u
mkdir -p /tmp/w && tar xJf .device-carry/units.txz -C /tmp/w || exit 1
R=/tmp/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
A=()
for n in ca-CondMat ca-HepTh cs4 ct2010; do gunzip -c perf_tests/matrices/$n.mtx.gz > /tmp/m/$n.mtx; A+=(--mtx /tmp/m/$n.mtx); done
for spec in 1:1 16384:4 16384:16 16384:64; do w=${spec%%:*}; u=${spec##*:}
  s=$(date +%s)
  KSPMV_LAB_ORDER=$w KSPMV_LAB_UNIT=$u timeout 120 /tmp/w/spmv_bench --suite none --replicate-to 50000000 "${A[@]}" --kernels plain --repeat 10 --json $R/w${w}_u${u}.json > $R/w${w}_u${u}.log 2>&1; echo "w $w u $u rc $? $(( $(date +%s)-s )) s"
done
grep WRONG $R/*.log | head
gzip $R/*.json
tar czf $OUT/rec.tgz -C /tmp rec
