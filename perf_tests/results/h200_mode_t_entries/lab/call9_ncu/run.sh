#!/usr/bin/env bash
# session 8, device call 9: Nsight Compute of mode T's staged and searched split entries (594a3b5's spmv_bench, forced csr_balanced and the plain call) and the lab's block-scan kernel, luxembourg_osm and stocfor3 replicated
set -u
mkdir -p /tmp/w && tar xJf .device-pack/pack.txz -C /tmp/w
P=/tmp/w/p; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m
nvidia-smi > $R/gpu.txt 2>&1
for f in luxembourg_osm stocfor3; do gunzip -c $M/$f.mtx.gz > /tmp/m/$f.mtx; done
MET=gpu__time_duration.sum,launch__block_size,launch__grid_size,launch__registers_per_thread,launch__shared_mem_per_block_dynamic,sm__warps_active.avg.pct_of_peak_sustained_active,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_op_red.sum,smsp__inst_executed.sum,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_lg_throttle.ratio,smsp__average_warp_latency_issue_stalled_barrier.ratio
for f in luxembourg_osm stocfor3; do
  s=$(date +%s)
  timeout 150 /usr/local/cuda/bin/ncu --kernel-name-base demangled -k 'regex:CsrTranspose|csrmv|transpose' --launch-count 12 --csv --metrics $MET \
    $P/spmv_bench --suite none --kernels transpose --mtx /tmp/m/$f.mtx --replicate-to 50000000 --repeat 1 > $R/ncu_bench_$f.csv 2> $R/ncu_bench_$f.err; echo "bench $f rc $? $(( $(date +%s)-s )) s"
  s=$(date +%s)
  timeout 100 /usr/local/cuda/bin/ncu -k 'regex:entries_scan|entries_search|lanes_kernel' --launch-count 6 --csv --metrics $MET \
    $P/t_lab4 $M/$f.mtx.gz:0 > $R/ncu_lab_$f.csv 2> $R/ncu_lab_$f.err; echo "lab $f rc $? $(( $(date +%s)-s )) s"
done
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
