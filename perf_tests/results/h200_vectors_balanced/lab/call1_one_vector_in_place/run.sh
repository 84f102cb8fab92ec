#!/usr/bin/env bash
# device call 1: multivector balanced kernel tests + real-matrix bench old vs new
set -u
mkdir -p /tmp/w && tar xzf .device-pack/pack.tgz -C /tmp/w
P=/tmp/w/p
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $OUT/gpu.txt 2>&1
timeout 150 $P/mv_tests --gtest_filter='*Multivector*:Launch.*' > $OUT/tests.log 2>&1; echo "tests rc $?" >> $OUT/tests.log
tail -5 $OUT/tests.log
R=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do R+=(--mtx "$P/real/${spec%%:*}.mtx:${spec##*:}"); done
s=$(date +%s)
timeout 240 $P/spmv_bench_new --suite none "${R[@]}" --kernels plain --vectors 4,8,16 --repeat 7 --json $OUT/new_real.json > $OUT/bench_new_real.log 2>&1; echo "new rc $? $(( $(date +%s)-s )) s"
s=$(date +%s)
timeout 200 $P/spmv_bench_old --suite none "${R[@]}" --kernels plain --vectors 4,8,16 --repeat 7 --json $OUT/old_real.json > $OUT/bench_old_real.log 2>&1; echo "old rc $? $(( $(date +%s)-s )) s"
timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool memcheck $P/mv_tests --gtest_filter='*/Cuda.Multivector*' > $OUT/memcheck.log 2>&1; echo "memcheck rc $?"; tail -3 $OUT/memcheck.log
