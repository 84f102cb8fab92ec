#!/usr/bin/env bash
# session 16, call A: the unit tests of several vectors, launch and analysis on Cuda and Serial (the
# chunks' row-lanes fallback for unaligned entries), compute-sanitizer memcheck of the chunks' and
# row lanes' tests, and the suite's 7 replicated real matrices at 8 and 16 vectors with the
# multivector kernels forced and LayoutLeft staged row-major (kspmv:staged_row_major)
set -u
mkdir -p /tmp/w && tar xJf .device-carry/pack.txz -C /tmp/w && tar xJf .device-carry/tests.txz -C /tmp/w || exit 1
P=/tmp/w/p; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
s=$(date +%s)
timeout 200 $P/mv_tests --gtest_filter='*Multivector*:Launch.*:CsrAnalysisTest*:*Raw*' > $R/unit_tests.log 2>&1; echo "tests rc $? $(( $(date +%s)-s )) s"; tail -3 $R/unit_tests.log
s=$(date +%s)
timeout 200 /usr/local/cuda/bin/compute-sanitizer --tool memcheck $P/mv_tests --gtest_filter='*/Cuda.MultivectorRowLanesAndChunks:*/Cuda.MultivectorEveryCase' > $R/memcheck.log 2>&1; echo "memcheck rc $? $(( $(date +%s)-s )) s"; tail -1 $R/memcheck.log
RM=()
for spec in rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 bcsstk13:1000 poly_chain.512:1000 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; RM+=(--mtx "$f:${spec##*:}"); done
s=$(date +%s)
timeout 150 $P/spmv_bench --suite none "${RM[@]}" --kernels plain --vectors 8,16 --vector-kernels --repeat 7 --json $R/real.json > $R/real.log 2>&1; echo "real rc $? $(( $(date +%s)-s )) s"
grep -l WRONG $R/*.log
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
