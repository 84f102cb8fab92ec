#!/usr/bin/env bash
# session 27 lab (issue 16): the balanced multivector kernel (64 registers, 34 KB of shared memory a block of 256
# threads: 4 blocks a multiprocessor) with the L1/shared-memory split asked of the driver (KSPMV_LAB_MVCARVE,
# percent of the largest shared memory; mvcarve.diff on 8b2466a) in one binary (mvc.txz: p/spmv_bench,
# m/cage10.mtx): the plain call at 8 vectors, both layouts, on rajat01 x2000, wiki-Vote x1000 and arrow x600,
# a round each in ROUNDS (d: the driver's own choice; 61: 164 KB, 4 blocks; 46: 132 KB, 3 blocks), then
# Nsight Compute's launch statistics under d and 61. From the repository root on the GPU machine ($OUT set):
# bash run.sh
set -u
mkdir -p /tmp/w && tar xJf .device-carry/mvc.txz -C /tmp/w || exit 1
P=/tmp/w/p
R=$OUT/rec; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
A=(--mtx unit_tests/data/rajat01.mtx:2000 --mtx unit_tests/data/wiki-Vote.mtx:1000 --mtx unit_tests/data/arrow.mtx:600)
i=0
for b in ${ROUNDS:-d 61 46}; do i=$((i+1))
  s=$(date +%s)
  unset KSPMV_LAB_MVCARVE; [ $b = d ] || export KSPMV_LAB_MVCARVE=$b
  timeout 60 $P/spmv_bench --suite none "${A[@]}" --kernels plain --vectors 8 --repeat 7 --json $R/v${b}_$i.json > $R/v${b}_$i.log 2>&1; echo "$b $i rc $? $(( $(date +%s)-s )) s"
done
for b in d 61; do
  unset KSPMV_LAB_MVCARVE; [ $b = d ] || export KSPMV_LAB_MVCARVE=$b
  timeout 40 ncu --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis -k "regex:csr_multivector_balanced_kernel" --launch-count 2 $P/spmv_bench --suite none --mtx unit_tests/data/wiki-Vote.mtx:1000 --kernels plain --vectors 8 --repeat 2 > $R/ncu_$b.txt 2>&1; echo "ncu $b rc $?"
done
unset KSPMV_LAB_MVCARVE
grep -l WRONG $R/*.log
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
