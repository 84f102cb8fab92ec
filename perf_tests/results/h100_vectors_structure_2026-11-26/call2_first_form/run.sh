#!/usr/bin/env bash
# session 12, calls 2-4 (PART=1: tests, real at 4/8/16, the 46 at 8; PART=2: the 46 at 16, large at 4/8; TAG new|old names the binary's files): the new multivector rules (2 lanes from 4 vectors, the copy from 0.25 lines an entry for the row lanes, the chunks where rows vary on a row-major Y, the balanced kernel where scattered gathers hit the cache): unit tests on Cuda; the plain call on the 7 replicated real matrices at 4, 8, 16 vectors, on the 46 of perf_tests/matrices at 8 and 16, on the 6 generated large at 4 and 8
set -u
mkdir -p /tmp/w && tar xJf .device-pack/pack.txz -C /tmp/w
P=/tmp/w/p; M=/tmp/w/m
B=${BENCH:-$P/spmv_bench}
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER KSPMV_TEST_DATA_DIR=$PWD/unit_tests/data
nvidia-smi > $R/gpu.txt 2>&1
if [ -x $P/mv_tests ]; then
  s=$(date +%s)
  timeout 200 $P/mv_tests --gtest_filter='*Multivector*:Launch.*:CsrAnalysisTest*' > $R/unit_tests.log 2>&1; echo "tests rc $? $(( $(date +%s)-s )) s"
  tail -3 $R/unit_tests.log; grep -E "FAILED|Failure" $R/unit_tests.log | head -5
fi
RM=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do RM+=(--mtx "$M/${spec%%:*}.mtx:${spec##*:}"); done
a=()
for f in perf_tests/matrices/*.mtx.gz; do name=$(basename "$f" .gz); gunzip -c "$f" > /tmp/m/$name; a+=(--mtx /tmp/m/$name); done
T=${TAG:-new}
if [ "${PART:-1}" = 1 ]; then
  s=$(date +%s)
  timeout 120 $B --suite none "${RM[@]}" --kernels plain --vectors 4,8,16 --repeat 5 --json $R/real_$T.json > $R/real_$T.log 2>&1; echo "real rc $? $(( $(date +%s)-s )) s"
  s=$(date +%s)
  timeout 250 $B --suite none --kernels plain --vectors 8 --replicate-to 50000000 "${a[@]}" --repeat 5 --json $R/unseen8_$T.json > $R/unseen8_$T.log 2>&1; echo "unseen 8 rc $? $(( $(date +%s)-s )) s"
else
  s=$(date +%s)
  timeout 250 $B --suite none --kernels plain --vectors 16 --replicate-to 50000000 "${a[@]}" --repeat 5 --json $R/unseen16_$T.json > $R/unseen16_$T.log 2>&1; echo "unseen 16 rc $? $(( $(date +%s)-s )) s"
  s=$(date +%s)
  timeout 250 $B --suite large --kernels plain --vectors 4,8 --repeat 5 --json $R/large_$T.json > $R/large_$T.log 2>&1; echo "large rc $? $(( $(date +%s)-s )) s"
fi
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
