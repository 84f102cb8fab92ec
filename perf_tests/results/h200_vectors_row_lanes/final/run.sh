#!/usr/bin/env bash
# session 9, call 6 (the record, final tree): unit tests (multivector, launch), memcheck of the new kernels' test, the plain call with 4/8/16 vectors (new)
set -u
mkdir -p /tmp/w && tar xJf .device-pack/pack.txz -C /tmp/w
P=/tmp/w/p
R=$OUT/rec; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
s=$(date +%s)
timeout 200 $P/mv_tests --gtest_filter='*Multivector*:Launch.*' > $R/unit_tests.log 2>&1; echo "tests rc $? $(( $(date +%s)-s )) s"
tail -3 $R/unit_tests.log; grep -E "FAILED|Failure" $R/unit_tests.log | head -5
s=$(date +%s)
timeout 90 /usr/local/cuda/bin/compute-sanitizer --tool memcheck $P/mv_tests --gtest_filter='*/Cuda.MultivectorRowLanesAndChunks:*/Cuda.MultivectorEveryCase' > $R/memcheck.log 2>&1; echo "memcheck rc $? $(( $(date +%s)-s )) s"; tail -1 $R/memcheck.log
RM=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do RM+=(--mtx "$P/real/${spec%%:*}.mtx:${spec##*:}"); done
s=$(date +%s)
timeout 90 $P/spmv_bench_new --suite none "${RM[@]}" --kernels plain --vectors 4,8,16 --repeat 7 --json $R/new_real.json > $R/bench_new_real.log 2>&1; echo "new real rc $? $(( $(date +%s)-s )) s"
s=$(date +%s)
timeout 200 $P/spmv_bench_new --suite large --kernels plain --vectors 4,8,16 --repeat 7 --json $R/new_large.json > $R/bench_new_large.log 2>&1; echo "new large rc $? $(( $(date +%s)-s )) s"
s=$(date +%s)
s=$(date +%s)
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
