#!/bin/bash
# bash .device-carry/lab/run6.sh  (from the repo root on the device machine)
set -x
cd .device-carry/lab && gunzip -kf lab_tma.gz && chmod +x lab_tma && cd ../..
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv | tee $OUT/gpu.txt
compute-sanitizer --tool memcheck .device-carry/lab/lab_tma --min-nnz 300000 --repeat 1 .device-carry/real/arrow.mtx.gz .device-carry/real/bcsstk13.mtx.gz 2>&1 | tail -5 | tee $OUT/sanitizer.txt
compute-sanitizer --tool synccheck .device-carry/lab/lab_tma --min-nnz 300000 --repeat 1 .device-carry/real/cage10.mtx.gz 2>&1 | tail -5 | tee -a $OUT/sanitizer.txt
.device-carry/lab/lab_tma --repeat 11 .device-carry/real/*.mtx.gz perf_tests/matrices/*.mtx.gz 2>&1 | tee $OUT/lab_tma.txt
