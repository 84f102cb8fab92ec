#!/usr/bin/env bash
# device call 4 (the record): rank-2 at HEAD (new) and 5dd1e24 (old), large suite and 7 replicated real; tests and sanitizers
set -u
mkdir -p /tmp/w && tar xJf .device-pack/pack.txz -C /tmp/w
P=/tmp/w/p
R=$OUT/rec; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
timeout 150 $P/mv_tests --gtest_filter='*Multivector*:Launch.*' > $R/unit_tests.log 2>&1; echo "tests rc $?" >> $R/unit_tests.log
tail -4 $R/unit_tests.log
/usr/local/cuda/bin/cuobjdump -res-usage $P/spmv_bench_new 2>/dev/null | grep -A1 "multivector_balanced_kernel" > $R/resource_usage.txt
RM=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do RM+=(--mtx "$P/real/${spec%%:*}.mtx:${spec##*:}"); done
for v in new old; do
s=$(date +%s)
timeout 80 $P/spmv_bench_$v --suite none "${RM[@]}" --kernels plain --vectors 4,8,16 --repeat 7 --json $R/${v}_real.json > $R/bench_${v}_real.log 2>&1; echo "$v real rc $? $(( $(date +%s)-s )) s"
s=$(date +%s)
timeout 190 $P/spmv_bench_$v --suite large --kernels plain --vectors 4,8,16 --repeat 7 --json $R/${v}_large.json > $R/bench_${v}_large.log 2>&1; echo "$v large rc $? $(( $(date +%s)-s )) s"
done
timeout 50 /usr/local/cuda/bin/compute-sanitizer --tool memcheck $P/mv_tests --gtest_filter='*/Cuda.Multivector*' > $R/memcheck.log 2>&1; echo "memcheck rc $?"; tail -1 $R/memcheck.log
timeout 50 /usr/local/cuda/bin/compute-sanitizer --tool racecheck $P/mv_tests --gtest_filter='*/Cuda.MultivectorEveryCase:*/Cuda.MultivectorStridedViews' > $R/racecheck.log 2>&1; echo "racecheck rc $?"; tail -1 $R/racecheck.log
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
