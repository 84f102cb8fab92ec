# session 36: DRAM bytes of raw balanced CSR against the CSR byte model on near-threshold matrices.
set -u
mkdir -p /tmp/w && tar xJf .device-carry/s39.txz -C /tmp/w || exit 1
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
for n in ${NCU_MATRICES}; do
  f=$(ls perf_tests/matrices*/$n.mtx.gz 2>/dev/null | head -1)
  if [ -n "$f" ]; then gunzip -c $f > /tmp/m/$n.mtx; else cp /tmp/w/m/$n.mtx /tmp/m/$n.mtx; fi
  s=$(date +%s)
  timeout 120 ncu --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,lts__t_sector_hit_rate.pct,l1tex__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active \
    --kernel-name-base demangled -k "regex:csr_balanced_kernel.*CsrColumns.*StoredValues" --launch-skip 4 --launch-count 1 \
    /tmp/w/p/spmv_bench --suite none --replicate-to 50000000 --mtx /tmp/m/$n.mtx --kernels plain --repeat 3 > $R/ncu_$n.txt 2>&1
  echo "$n rc $? $(( $(date +%s)-s )) s"
done
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
