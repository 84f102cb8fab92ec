#!/usr/bin/env bash
# session 15, call 4: the chunks kernel (16-byte pieces) with a step's columns loaded a step ahead (KSPMV_LAB_AHEAD=1),
# columns and values a step ahead (2), against the committed kernel (0), one binary: plain calls at
# 8 and 16 vectors with the multivector kernels
# forced (--vector-kernels) on the suite's replicated real matrices, and the plain call at 8 and 16 on
# 8 of perf_tests/matrices replicated to 50M entries; results checked against the host reference
set -u
mkdir -p /tmp/w && tar xJf .device-carry/pack.txz -C /tmp/w || exit 1
P=/tmp/w/p; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
cuobjdump --dump-resource-usage $P/spmv_bench 2>/dev/null | grep -A1 -E "multivector_chunks_kernel.*Edii" > $R/regs.txt
RM=()
for spec in rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 bcsstk13:1000 poly_chain.512:1000 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; RM+=(--mtx "$f:${spec##*:}"); done
UN=()
for f in ego-Facebook email-Eu-core ca-CondMat p2p-Gnutella09 lp_d6cube wood1p tech-WHOIS orani678; do gunzip -c perf_tests/matrices/$f.mtx.gz > /tmp/m/$f.mtx; UN+=(--mtx /tmp/m/$f.mtx); done
for v in 0 1 2 0 1 2; do
  s=$(date +%s)
  KSPMV_LAB_AHEAD=$v timeout 100 $P/spmv_bench --suite none "${RM[@]}" --kernels plain --vectors 8,16 --vector-kernels --repeat 7 --json $R/real_a$v.$s.json > $R/real_a$v.$s.log 2>&1; echo "real a$v rc $? $(( $(date +%s)-s )) s"
done
for v in 0 1 2; do
  s=$(date +%s)
  KSPMV_LAB_AHEAD=$v timeout 100 $P/spmv_bench --suite none --replicate-to 50000000 "${UN[@]}" --kernels plain --vectors 8,16 --repeat 7 --json $R/unseen_a$v.json > $R/unseen_a$v.log 2>&1; echo "unseen a$v rc $? $(( $(date +%s)-s )) s"
done
grep -l WRONG $R/*.log
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
