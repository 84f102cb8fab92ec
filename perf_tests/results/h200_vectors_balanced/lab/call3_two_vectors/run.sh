#!/usr/bin/env bash
# device call 3: balanced multivector kernel, 1 (v1) and 2 (v2) vectors a pass, against 5dd1e24 (old), real matrices; tests and sanitizers of v2
set -u
mkdir -p /tmp/w && tar xJf .device-pack/pack.txz -C /tmp/w
P=/tmp/w/p
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $OUT/gpu.txt 2>&1
timeout 150 $P/mv_tests --gtest_filter='*Multivector*:Launch.*' > $OUT/tests.txt 2>&1; echo "tests rc $?" >> $OUT/tests.txt
tail -4 $OUT/tests.txt
/usr/local/cuda/bin/cuobjdump -res-usage $P/spmv_bench_v2 2>/dev/null | grep -A1 "multivector_balanced_kernelILi32ELi2ELb1EdiiE\|multivector_balanced_kernel" | head -8 > $OUT/res_v2.txt
/usr/local/cuda/bin/cuobjdump -res-usage $P/spmv_bench_v1 2>/dev/null | grep -A1 "multivector_balanced_kernel" | head -8 > $OUT/res_v1.txt
R=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do R+=(--mtx "$P/real/${spec%%:*}.mtx:${spec##*:}"); done
for v in old v1 v2; do
s=$(date +%s)
timeout 100 $P/spmv_bench_$v --suite none "${R[@]}" --kernels plain --vectors 4,8,16 --repeat 7 --json $OUT/${v}_real.json > $OUT/bench_${v}_real.log 2>&1; echo "$v real rc $? $(( $(date +%s)-s )) s"
done
timeout 60 /usr/local/cuda/bin/compute-sanitizer --tool memcheck $P/mv_tests --gtest_filter='*/Cuda.Multivector*' > $OUT/memcheck.txt 2>&1; echo "memcheck rc $?"; tail -2 $OUT/memcheck.txt
timeout 60 /usr/local/cuda/bin/compute-sanitizer --tool racecheck $P/mv_tests --gtest_filter='*/Cuda.MultivectorEveryCase:*/Cuda.MultivectorStridedViews' > $OUT/racecheck.txt 2>&1; echo "racecheck rc $?"; tail -2 $OUT/racecheck.txt
