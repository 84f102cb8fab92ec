#!/usr/bin/env bash
# session 8, device call 7: mode T with three timed candidates (split entries staged or searched, lanes), code warmed on a few rows, two rounds in opposite orders ("new", the working tree) beside 069ef83 ("old"): unit tests, memcheck, run_gpu_transpose.sh for each, the 46 real matrices of perf_tests/matrices replicated to 50M entries for each
set -u
mkdir -p /tmp/w && tar xJf .device-pack/pack.txz -C /tmp/w
P=/tmp/w/p
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
s=$(date +%s)
timeout 100 $P/mv_tests --gtest_filter='*Mode*:Launch.*:*Transpose*' > $R/unit_tests.log 2>&1; echo "tests rc $? $(( $(date +%s)-s )) s" | tee -a $R/unit_tests.log
tail -3 $R/unit_tests.log
s=$(date +%s)
timeout 60 /usr/local/cuda/bin/compute-sanitizer --tool memcheck $P/mv_tests --gtest_filter='*/Cuda.Mode*' > $R/memcheck.log 2>&1; echo "memcheck rc $? $(( $(date +%s)-s )) s"; tail -1 $R/memcheck.log
for v in new old; do
  s=$(date +%s)
  timeout 100 bash perf_tests/run_gpu_transpose.sh $P/$v $P/real $R/$v > $R/run_$v.log 2>&1; echo "$v rc $? $(( $(date +%s)-s )) s"
done
a=(); b=(); i=0
for f in perf_tests/matrices/*.mtx.gz; do
  name=$(basename "$f" .gz); gunzip -c "$f" > /tmp/m/$name
  if [ $((i % 2)) -eq 0 ]; then a+=(--mtx /tmp/m/$name); else b+=(--mtx /tmp/m/$name); fi; i=$((i+1))
done
for v in new old; do
  s=$(date +%s)
  timeout 75 $P/$v/spmv_bench --suite none --kernels transpose --replicate-to 50000000 "${a[@]}" --repeat 5 --json $R/unseen_${v}_1.json > $R/unseen_${v}_1.log 2>&1; echo "$v half 1 rc $? $(( $(date +%s)-s )) s"
  s=$(date +%s)
  timeout 75 $P/$v/spmv_bench --suite none --kernels transpose --replicate-to 50000000 "${b[@]}" --repeat 5 --json $R/unseen_${v}_2.json > $R/unseen_${v}_2.log 2>&1; echo "$v half 2 rc $? $(( $(date +%s)-s )) s"
done
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
