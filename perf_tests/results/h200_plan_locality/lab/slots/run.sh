#!/usr/bin/env bash
# session 23 lab: blocks in slot-major order (KSPMV_LAB_SLOTS: 0 = blockIdx order as main; -1 =
# as many slots as multiprocessors), raw balanced CSR, Csr16Matrix, the chunks and the balanced
# multivector kernel; one binary (slots.txz: p/spmv_bench, p/probe, m/cage10.mtx). First the
# probe of which multiprocessor runs each block; then --kernels csr on 19 replicated real
# matrices, rounds 0 -1 -1 0; then the plain call at 8 vectors (forced kernels) on the suite's 7
# replicated real matrices and 8 unseen, rounds 0 -1.
set -u
mkdir -p /tmp/w && tar xJf .device-carry/slots.txz -C /tmp/w || exit 1
P=/tmp/w/p; M=/tmp/w/m
R=/tmp/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
$P/probe > $R/probe.txt 2>&1; cat $R/probe.txt
A=()
for spec in bcsstk13:1000 arrow:600 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; A+=(--mtx "$f:${spec##*:}"); done
for n in t2d_q9 dw8192 cti epb1 stocfor3 bcsstk16 fe_4elt2 commanche_dual crack ct2010 bcspwr10 p2p-Gnutella09 ca-CondMat lp_dfl001 wood1p fit2d; do f=perf_tests/matrices/$n.mtx.gz; [ -f /tmp/m/$n.mtx ] || gunzip -c $f > /tmp/m/$n.mtx; A+=(--mtx /tmp/m/$n.mtx); done
i=0
for t in ${CSR_ROUNDS:-0 -1 -1 0}; do i=$((i+1))
  s=$(date +%s)
  KSPMV_LAB_SLOTS=$t timeout ${PASS_LIMIT:-110} $P/spmv_bench --suite none --replicate-to 50000000 "${A[@]}" --kernels csr --repeat 10 --json $R/s${t}_$i.json > $R/s${t}_$i.log 2>&1; echo "csr $t $i rc $? $(( $(date +%s)-s )) s"
done
RM=()
for spec in rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 bcsstk13:1000 poly_chain.512:1000 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; RM+=(--mtx "$f:${spec##*:}"); done
UN=()
for f in ego-Facebook email-Eu-core ca-CondMat p2p-Gnutella09 lp_d6cube wood1p tech-WHOIS orani678; do [ -f /tmp/m/$f.mtx ] || gunzip -c perf_tests/matrices/$f.mtx.gz > /tmp/m/$f.mtx; UN+=(--mtx /tmp/m/$f.mtx); done
for t in ${MV_ROUNDS:-0 -1}; do
  s=$(date +%s)
  KSPMV_LAB_SLOTS=$t timeout 100 $P/spmv_bench --suite none "${RM[@]}" --kernels plain --vectors 8 --vector-kernels --repeat 7 --json $R/v${t}_real.json > $R/v${t}_real.log 2>&1; echo "mv real $t rc $? $(( $(date +%s)-s )) s"
  s=$(date +%s)
  KSPMV_LAB_SLOTS=$t timeout 60 $P/spmv_bench --suite none --replicate-to 50000000 "${UN[@]}" --kernels plain --vectors 8 --vector-kernels --repeat 7 --json $R/v${t}_unseen.json > $R/v${t}_unseen.log 2>&1; echo "mv unseen $t rc $? $(( $(date +%s)-s )) s"
done
grep -l WRONG $R/*.log
gzip $R/*.json
tar czf $OUT/rec.tgz -C /tmp rec
