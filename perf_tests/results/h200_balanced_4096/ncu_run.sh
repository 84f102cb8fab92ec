# session 34: launch shape of the coded and CSR balanced kernels, new (p) and main (q) binaries.
set -u
mkdir -p /tmp/w && tar xJf .device-carry/s35.txz -C /tmp/w p q || exit 1
gunzip -c perf_tests/matrices/cti.mtx.gz > /tmp/cti.mtx
R=$OUT/ncu; mkdir -p $R
for b in p q; do
  timeout 200 ncu --clock-control none --kernel-name regex:"csr_balanced_kernel" --launch-skip 0 --launch-count 40 \
    --metrics launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_config_size,launch__shared_mem_per_block_static,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,gpu__time_duration.sum \
    /tmp/w/$b/spmv_bench --suite none --mtx /tmp/cti.mtx --replicate-to 50000000 --kernels csr --repeat 1 > $R/$b.txt 2>&1
  echo "$b rc $?"
done
tar czf $OUT/ncu.tgz -C $OUT ncu && rm -rf $R
