#!/usr/bin/env bash
# session 23 lab: raw balanced CSR at 1024 threads a block
# where 512 are asked for: KSPMV_LAB_WIDE=1) against 512 (0) in one binary, --kernels csr on 19
# replicated real matrices and 5 graphs more whose gathers miss the cache; rounds 0 1 0
set -u
mkdir -p /tmp/w && tar xJf .device-carry/wide.txz -C /tmp/w || exit 1
P=/tmp/w/p; M=/tmp/w/m
R=/tmp/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
A=()
for spec in bcsstk13:1000 arrow:600 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; A+=(--mtx "$f:${spec##*:}"); done
for n in t2d_q9 dw8192 cti epb1 stocfor3 bcsstk16 fe_4elt2 commanche_dual crack ct2010 bcspwr10 p2p-Gnutella09 ca-CondMat lp_dfl001 wood1p fit2d ca-HepTh cs4 PGPgiantcompo ca-GrQc tech-WHOIS; do f=perf_tests/matrices/$n.mtx.gz; [ -f /tmp/m/$n.mtx ] || gunzip -c $f > /tmp/m/$n.mtx; A+=(--mtx /tmp/m/$n.mtx); done
i=0
for t in ${CSR_ROUNDS:-0 1 0}; do i=$((i+1))
  s=$(date +%s)
  KSPMV_LAB_WIDE=$t timeout ${PASS_LIMIT:-110} $P/spmv_bench --suite none --replicate-to 50000000 "${A[@]}" --kernels csr --repeat 10 --json $R/s${t}_$i.json > $R/s${t}_$i.log 2>&1; echo "csr $t $i rc $? $(( $(date +%s)-s )) s"
done
grep -l WRONG $R/*.log
gzip $R/*.json
tar czf $OUT/rec.tgz -C /tmp rec
