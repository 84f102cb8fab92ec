#!/bin/bash
set -x
cd .device-carry/lab && gunzip -kf lab_persistent.gz && chmod +x lab_persistent && cd ../..
L=.device-carry/lab/lab_persistent
compute-sanitizer --tool memcheck $L --min-nnz 300000 --repeat 1 .device-carry/real/arrow.mtx.gz .device-carry/real/bcsstk13.mtx.gz 2>&1 | tail -4 | tee $OUT/sanitizer.txt
$L --repeat 11 .device-carry/real/*.mtx.gz perf_tests/matrices/*.mtx.gz 2>&1 | tee $OUT/lab_persistent.txt
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section SchedulerStats --section LaunchStats --section MemoryWorkloadAnalysis_Tables"
for m in .device-carry/real/cage10.mtx.gz perf_tests/matrices/t2d_q9.mtx.gz; do
  b=$(basename $m .mtx.gz)
  ncu $S -k csr_balanced_kernel -c 1 $L --only 0 --repeat 1 $m > $OUT/ncu_lib_$b.txt 2>&1
  ncu $S -k exp_balanced_kernel -c 1 $L --only 3 --repeat 1 $m > $OUT/ncu_pp_$b.txt 2>&1
done
ls -la $OUT
