#!/usr/bin/env bash
# session 20 lab: Nsight Compute (--set full, --clock-control none: the clocks of the runs) of the raw balanced kernel on CSR and on Csr16Matrix (unpaired)
# pair.txz: p/spmv_bench built from 641c9de with ../pairs/pairs.patch, run with KSPMV_LAB_UNPAIRED=1: the
# kernel of 641c9de (and of 046ecc5). From the repository root on the GPU machine, $OUT set: bash run.sh
set -u
mkdir -p /tmp/w && tar xJf .device-carry/pair.txz -C /tmp/w p || exit 1
P=/tmp/w/p
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER KSPMV_LAB_UNPAIRED=1
for n in t2d_q9 ca-CondMat; do gunzip -c perf_tests/matrices/$n.mtx.gz > /tmp/m/$n.mtx; done
for spec in /tmp/m/t2d_q9.mtx:575 /tmp/m/ca-CondMat.mtx:274; do
  for cols in CsrColumns Csr16Columns; do
    t=$(basename ${spec%%.mtx*})_$cols
    timeout 120 ncu --set full --clock-control none --kernel-name-base demangled -k "regex:csr_balanced_kernel.*256.*$cols" --launch-skip 2 --launch-count 1 -o $R/$t $P/spmv_bench --suite none --mtx $spec --kernels csr --repeat 3 > $R/ncu_$t.log 2>&1; echo "ncu $t rc $?"
    ncu --import $R/$t.ncu-rep --page details > $R/$t.txt 2>&1
  done
done
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
