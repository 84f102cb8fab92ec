#!/usr/bin/env bash
# lab: the gather form of the balanced multivector kernel (raw_balanced_g4/g8/g84) beside the
# kernel of main (raw_balanced) and the plain call, one H200 call
set -u
mkdir -p /tmp/w && tar xJf .device-carry/mvb.txz -C /tmp/w || exit 1
P=/tmp/w/p; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
RM=()
for spec in rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 bcsstk13:1000 poly_chain.512:1000 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; RM+=(--mtx "$f:${spec##*:}"); done
s=$(date +%s)
timeout 250 $P/spmv_bench --suite none "${RM[@]}" --kernels plain --vectors 4,8,16 --vector-kernels --repeat 5 --json $R/real.json > $R/real.log 2>&1; echo "real rc $? $(( $(date +%s)-s )) s"
UN=()
for f in ego-Facebook email-Eu-core ca-CondMat p2p-Gnutella09 lp_d6cube wood1p tech-WHOIS orani678; do gunzip -c perf_tests/matrices/$f.mtx.gz > /tmp/m/$f.mtx; UN+=(--mtx /tmp/m/$f.mtx); done
s=$(date +%s)
timeout 170 $P/spmv_bench --suite none --replicate-to 50000000 "${UN[@]}" --kernels plain --vectors 8 --vector-kernels --repeat 5 --json $R/unseen.json > $R/unseen.log 2>&1; echo "unseen rc $? $(( $(date +%s)-s )) s"
s=$(date +%s)
timeout 140 $P/spmv_bench --suite large --only heavy_rows,power_law --kernels plain --vectors 8 --vector-kernels --repeat 5 --json $R/large.json > $R/large.log 2>&1; echo "large rc $? $(( $(date +%s)-s )) s"
grep -l WRONG $R/*.log
gzip $R/*.json
