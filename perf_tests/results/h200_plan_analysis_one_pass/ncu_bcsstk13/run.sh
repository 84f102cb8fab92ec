#!/usr/bin/env bash
# session 29: Nsight Compute (--set full, --clock-control none) of the raw balanced kernel on CSR and on
# Csr16Matrix, bcsstk13 x1000 (rows of 42 entries: Csr16Matrix 0.99x the time where its bytes are
# 0.84x). n29.txz: p/spmv_bench (5a97aea's kernels). From the repository root on the GPU machine: bash n29.sh
set -u
mkdir -p /tmp/w && tar xJf .device-carry/n29.txz -C /tmp/w p || exit 1
R=$OUT/rec; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER
for cols in CsrColumns Csr16Columns; do
  t=bcsstk13_$cols
  timeout 120 ncu --set full --clock-control none --kernel-name-base demangled -k "regex:csr_balanced_kernel.*256.*$cols" --launch-skip 2 --launch-count 1 -o $R/$t /tmp/w/p/spmv_bench --suite none --mtx unit_tests/data/bcsstk13.mtx:1000 --kernels csr --repeat 3 > $R/ncu_$t.log 2>&1; echo "ncu $t rc $?"
  ncu --import $R/$t.ncu-rep --page details > $R/$t.txt 2>&1
  rm -f $R/$t.ncu-rep
done
grep -E "Duration|DRAM Throughput|L2 Cache Throughput|L1/TEX Cache Throughput|Issue Slots Busy|Registers Per|Achieved Occupancy|Executed Instructions  " $R/*.txt | head -40
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
