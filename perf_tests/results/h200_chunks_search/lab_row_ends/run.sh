#!/usr/bin/env bash
# session 24, call 2 (lab): the chunks kernel with its search voting as a whole wave (new1_) and
# with rows ending in a step summed once per end (new2_: new1 plus the walk's row ends) against
# main's (old_, 98ad514); the multivector tests of new1 and new2 (Cuda, Serial); the plain call and
# the forced kernels at 8 vectors, both layouts, on 4 replicated suite matrices, heavy_rows and 4 unseen
set -u
mkdir -p /tmp/w && tar xJf .device-carry/s24b.txz -C /tmp/w || exit 1
P=/tmp/w/p
R=/tmp/rec2; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
for v in new2; do
  s=$(date +%s)
  timeout 150 $P/${v}_tests --gtest_filter='*Multivector*' > $R/${v}_unit_tests.log 2>&1; echo "$v tests rc $? $(( $(date +%s)-s )) s"; tail -1 $R/${v}_unit_tests.log
done
RM=()
for spec in rajat01:2000 wiki-Vote:1000 arrow:600 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=/tmp/w/m/$n.mtx; RM+=(--mtx "$f:${spec##*:}"); done
UN=()
for f in ca-CondMat p2p-Gnutella09 lp_d6cube email-Eu-core; do gunzip -c perf_tests/matrices/$f.mtx.gz > /tmp/m/$f.mtx; UN+=(--mtx /tmp/m/$f.mtx); done
for round in 1 2; do
for v in new1 new2 old; do
  s=$(date +%s)
  timeout 80 $P/${v}_bench --suite none "${RM[@]}" --kernels plain --vectors 8 --vector-kernels --repeat 5 --json $R/${v}_real_$round.json > $R/${v}_real_$round.log 2>&1; echo "$v real rc $? $(( $(date +%s)-s )) s"
  s=$(date +%s)
  timeout 60 $P/${v}_bench --suite none --replicate-to 50000000 "${UN[@]}" --kernels plain --vectors 8 --vector-kernels --repeat 5 --json $R/${v}_unseen_$round.json > $R/${v}_unseen_$round.log 2>&1; echo "$v unseen rc $? $(( $(date +%s)-s )) s"
  s=$(date +%s)
  timeout 40 $P/${v}_bench --suite large --only heavy_rows --kernels plain --vectors 8 --vector-kernels --repeat 5 --json $R/${v}_heavy_$round.json > $R/${v}_heavy_$round.log 2>&1; echo "$v heavy rc $? $(( $(date +%s)-s )) s"
done
done
grep -l WRONG $R/*.log
gzip $R/*.json
tar czf $OUT/rec2.tgz -C /tmp rec2
