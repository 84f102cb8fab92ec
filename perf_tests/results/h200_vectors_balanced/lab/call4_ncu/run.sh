#!/usr/bin/env bash
# device call 5 (lab): Nsight Compute of the balanced multivector kernel at 8 vectors, LayoutLeft, on rajat01 x2000 and wiki-Vote x1000
set -u
mkdir -p /tmp/w && tar xJf .device-pack/pack.txz -C /tmp/w
P=/tmp/w/p
R=$OUT/ncu; mkdir -p $R
for spec in rajat01:2000 wiki-Vote:1000; do
  m=${spec%%:*}
  timeout 200 /usr/local/cuda/bin/ncu --kernel-name regex:multivector_balanced_kernel --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section MemoryWorkloadAnalysis --section SchedulerStats --section WarpStateStats --section LaunchStats \
    $P/spmv_bench_new --suite none --mtx "$P/real/$m.mtx:${spec##*:}" --kernels plain --vectors 8 --repeat 1 > $R/ncu_${m}.txt 2>&1
  echo "$m rc $?"; grep -E "Duration|DRAM Throughput|Memory Throughput|Achieved Occupancy|L1/TEX Hit|L2 Hit|Issued Warp|No Eligible|Stall" $R/ncu_${m}.txt | head -20
done
tar czf $OUT/ncu.tgz -C $OUT ncu && rm -rf $R
