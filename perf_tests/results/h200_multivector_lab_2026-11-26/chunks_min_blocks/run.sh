#!/usr/bin/env bash
# session 18 lab: the chunks kernel with __launch_bounds__(256, 5) at up to 8 vectors a pass and
# (256, 4) at 16 (lab: p/spmv_bench) beside main's (o/spmv_bench, main at ee4ef27) in
# one call, two runs of each alternating: the plain call at 8 and 16 vectors, LayoutRight and
# LayoutLeft, on the suite's 7 replicated real matrices and 8 of perf_tests/matrices replicated
set -u
mkdir -p /tmp/w && tar xJf .device-carry/pack.txz -C /tmp/w || exit 1
[ -d /tmp/w/o ] || { mkdir -p /tmp/w/o && tar xJf .device-carry/old.txz -C /tmp/w/o; }
P=/tmp/w/p; O=/tmp/w/o/p; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
RM=()
for spec in rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 bcsstk13:1000 poly_chain.512:1000 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; RM+=(--mtx "$f:${spec##*:}"); done
UN=()
for f in ego-Facebook email-Eu-core ca-CondMat p2p-Gnutella09 lp_d6cube wood1p tech-WHOIS orani678; do gunzip -c perf_tests/matrices/$f.mtx.gz > /tmp/m/$f.mtx; UN+=(--mtx /tmp/m/$f.mtx); done
for round in 1 2; do
  for b in old lab; do B=$P; [ $b = old ] && B=$O
    s=$(date +%s)
    timeout 120 $B/spmv_bench --suite none "${RM[@]}" --kernels plain --vectors 8,16 --repeat 5 --json $R/real_${b}_$round.json > $R/real_${b}_$round.log 2>&1; echo "real $b $round rc $? $(( $(date +%s)-s )) s"
    s=$(date +%s)
    timeout 90 $B/spmv_bench --suite none --replicate-to 50000000 "${UN[@]}" --kernels plain --vectors 8 --repeat 5 --json $R/unseen_${b}_$round.json > $R/unseen_${b}_$round.log 2>&1; echo "unseen $b $round rc $? $(( $(date +%s)-s )) s"
  done
done
grep -l WRONG $R/*.log
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
