#!/usr/bin/env bash
# session 23 lab: raw balanced CSR on the rows sorted by (row / W, smallest column), each sum
# written to y at its row of A (lab:row_order, KSPMV_LAB_ORDER=W), beside the plain call and
# KokkosKernels' default in the same process; 15 real matrices replicated to 50M entries
set -u
mkdir -p /tmp/w && tar xJf .device-carry/roworder.txz -C /tmp/w || exit 1
R=/tmp/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
A=()
for n in ca-CondMat ca-HepTh ca-GrQc PGPgiantcompo tech-WHOIS cs4 lp_dfl001 email-Enron ct2010 p2p-Gnutella09 bcspwr10 crack t2d_q9; do gunzip -c perf_tests/matrices/$n.mtx.gz > /tmp/m/$n.mtx; A+=(--mtx /tmp/m/$n.mtx); done
A+=(--mtx unit_tests/data/wiki-Vote.mtx --mtx unit_tests/data/rajat01.mtx)
i=0
for w in ${WINDOWS:-0 16384}; do i=$((i+1))
  s=$(date +%s)
  KSPMV_LAB_ORDER=$w timeout 200 /tmp/w/spmv_bench --suite none --replicate-to 50000000 "${A[@]}" --kernels plain --repeat 10 --json $R/w${w}_$i.json > $R/w${w}_$i.log 2>&1; echo "w $w $i rc $? $(( $(date +%s)-s )) s"
done
grep WRONG $R/*.log | head
gzip $R/*.json
tar czf $OUT/rec.tgz -C /tmp rec
