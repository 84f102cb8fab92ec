# session 36: every kernel's duration in one spmv_bench pass over fast0507 (the Plan's analysis: 978 us there).
set -u
mkdir -p /tmp/w && tar xJf .device-carry/s39.txz -C /tmp/w || exit 1
R=$OUT/rec; mkdir -p $R /tmp/d
export CUDA_MODULE_LOADING=EAGER
for n in ${NCU_MATRICES:-fast0507}; do
  gunzip -c perf_tests/matrices_fourth/$n.mtx.gz > /tmp/d/$n.mtx
  s=$(date +%s)
  timeout 300 ncu --metrics gpu__time_duration.sum --print-summary per-kernel \
    /tmp/w/p/spmv_bench --suite none --replicate-to 50000000 --mtx /tmp/d/$n.mtx --kernels csr --repeat 2 > $R/ncu_$n.txt 2>&1
  echo "$n rc $? $(( $(date +%s)-s )) s"
done
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
