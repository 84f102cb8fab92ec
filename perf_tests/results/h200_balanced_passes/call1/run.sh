#!/usr/bin/env bash
# session 25, call 1 (lab): the balanced multivector kernel with 3 (v3: failed at launch, 48 KB without the opt-in attribute) and 4 (v4) vectors a pass
# (products in dynamic shared memory) against main (2), alternating twice: the plain call and
# raw_balanced at 4, 8, 16 vectors, both layouts, on 3 replicated suite matrices and 5 unseen;
# the multivector tests of v4; Nsight Compute of v4's kernel on rajat01 x2000 at 8 vectors L
set -u
mkdir -p /tmp/w && tar xJf .device-carry/s25a.txz -C /tmp/w || exit 1
P=/tmp/w/p
R=/tmp/rec1; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
s=$(date +%s)
timeout 60 $P/v4_tests --gtest_filter='*Multivector*' > $R/v4_unit_tests.log 2>&1; echo "tests rc $? $(( $(date +%s)-s )) s"; tail -1 $R/v4_unit_tests.log
RM=()
for spec in rajat01:2000 wiki-Vote:1000 arrow:600; do n=${spec%%:*}; RM+=(--mtx "unit_tests/data/$n.mtx:${spec##*:}"); done
UN=()
for f in p2p-Gnutella09 lp_d6cube email-Eu-core orani678 ca-CondMat; do gunzip -c perf_tests/matrices/$f.mtx.gz > /tmp/m/$f.mtx; UN+=(--mtx /tmp/m/$f.mtx); done
for round in 1 2; do
for v in v4 main v3; do
  s=$(date +%s)
  timeout 60 $P/${v}_bench --suite none "${RM[@]}" --kernels plain --vectors 4,8,16 --repeat 5 --json $R/${v}_real_$round.json > $R/${v}_real_$round.log 2>&1; echo "$v real rc $? $(( $(date +%s)-s )) s"
  s=$(date +%s)
  timeout 60 $P/${v}_bench --suite none --replicate-to 50000000 "${UN[@]}" --kernels plain --vectors 4,8,16 --repeat 5 --json $R/${v}_unseen_$round.json > $R/${v}_unseen_$round.log 2>&1; echo "$v unseen rc $? $(( $(date +%s)-s )) s"
done
done
grep -l WRONG $R/*.log
s=$(date +%s)
timeout 100 /usr/local/cuda/bin/ncu --set full -k regex:csr_multivector_balanced_kernel -c 1 -o $R/v4_rajat01_L $P/v4_bench --suite none --mtx unit_tests/data/rajat01.mtx:2000 --kernels plain --vectors 8 --repeat 1 > $R/ncu.log 2>&1; echo "ncu rc $? $(( $(date +%s)-s )) s"
[ -f $R/v4_rajat01_L.ncu-rep ] && /usr/local/cuda/bin/ncu --import $R/v4_rajat01_L.ncu-rep --page details > $R/v4_rajat01_L.details.txt 2>&1 && /usr/local/cuda/bin/ncu --import $R/v4_rajat01_L.ncu-rep --page source --csv --print-source sass > $R/v4_rajat01_L.sass.csv 2>&1
rm -f $R/*.ncu-rep
gzip $R/*.json $R/*.csv $R/*.details.txt
tar czf $OUT/rec1.tgz -C /tmp rec1
