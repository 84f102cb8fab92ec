#!/bin/bash
set -x
cd .device-carry/lab && gunzip -kf lab_segmented.gz && chmod +x lab_segmented && cd ../..
L=.device-carry/lab/lab_segmented
compute-sanitizer --tool memcheck $L --min-nnz 300000 --repeat 1 .device-carry/real/arrow.mtx.gz .device-carry/real/cage10.mtx.gz .device-carry/real/wiki-Vote.mtx.gz 2>&1 | tail -8 | tee $OUT/sanitizer.txt
compute-sanitizer --tool racecheck $L --only 2 --min-nnz 100000 --repeat 1 .device-carry/real/cage10.mtx.gz .device-carry/real/rajat01.mtx.gz 2>&1 | tail -4 | tee -a $OUT/sanitizer.txt
$L --repeat 11 .device-carry/real/*.mtx.gz perf_tests/matrices/*.mtx.gz 2>&1 | tee $OUT/lab_segmented.txt
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section SchedulerStats --section MemoryWorkloadAnalysis_Tables"
for m in .device-carry/real/cage10.mtx.gz; do
  b=$(basename $m .mtx.gz)
  ncu $S -k exp_balanced_kernel -c 1 $L --only 2 --repeat 1 $m > $OUT/ncu_seg_$b.txt 2>&1
done
