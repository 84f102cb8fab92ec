#!/usr/bin/env bash
# session 24, call 6 (lab): the chunks kernel's chunk 16 * Group entries instead of 8 * Group
# (c16_) against main (8aa0da5, main_), alternating twice: the plain call and the forced kernels
# at 8 and 16 vectors, both layouts, on 4 replicated suite matrices and 4 unseen
set -u
mkdir -p /tmp/w && tar xJf .device-carry/s24f.txz -C /tmp/w || exit 1
P=/tmp/w/p
R=/tmp/rec6; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
RM=()
for spec in rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500; do n=${spec%%:*}; RM+=(--mtx "unit_tests/data/$n.mtx:${spec##*:}"); done
UN=()
for f in ca-CondMat p2p-Gnutella09 lp_d6cube email-Eu-core; do gunzip -c perf_tests/matrices/$f.mtx.gz > /tmp/m/$f.mtx; UN+=(--mtx /tmp/m/$f.mtx); done
for round in 1 2; do
for v in c16 main; do
  s=$(date +%s)
  timeout 70 $P/${v}_bench --suite none "${RM[@]}" --kernels plain --vectors 8,16 --vector-kernels --repeat 5 --json $R/${v}_real_$round.json > $R/${v}_real_$round.log 2>&1; echo "$v real rc $? $(( $(date +%s)-s )) s"
  s=$(date +%s)
  timeout 60 $P/${v}_bench --suite none --replicate-to 50000000 "${UN[@]}" --kernels plain --vectors 8,16 --vector-kernels --repeat 5 --json $R/${v}_unseen_$round.json > $R/${v}_unseen_$round.log 2>&1; echo "$v unseen rc $? $(( $(date +%s)-s )) s"
done
done
grep -l WRONG $R/*.log
gzip $R/*.json
tar czf $OUT/rec6.tgz -C /tmp rec6
