#!/usr/bin/env bash
# session 20 lab: the matrix stream loaded with ld.global.cg (L2 only: __ldcg) instead of .cs (evict-first:
# __ldcs) in every raw kernel (p/spmv_bench of cg.txz) beside 046ecc5 (loc2.txz's p), --kernels csr on 19
# replicated real matrices; ROUNDS: o n n o (o: 046ecc5, n: __ldcg).
# cg.txz: p/spmv_bench built from 046ecc5 with ldcg.patch; loc2.txz: 046ecc5 (and m/cage10.mtx). From the
# repository root on the GPU machine, $OUT set: NCU=1 bash run.sh
set -u
mkdir -p /tmp/w/o && tar xJf .device-carry/cg.txz -C /tmp/w p m || exit 1
tar xJf .device-carry/loc2.txz -C /tmp/w/o p || exit 1
M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
A=()
for spec in bcsstk13:1000 arrow:600 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; A+=(--mtx "$f:${spec##*:}"); done
for n in t2d_q9 dw8192 cti epb1 stocfor3 bcsstk16 fe_4elt2 commanche_dual crack ct2010 bcspwr10 p2p-Gnutella09 ca-CondMat lp_dfl001 wood1p fit2d; do f=perf_tests/matrices/$n.mtx.gz; [ -f /tmp/m/$n.mtx ] || gunzip -c $f > /tmp/m/$n.mtx; A+=(--mtx /tmp/m/$n.mtx); done
i=0
for b in ${ROUNDS:-o n n o}; do i=$((i+1)); P=/tmp/w/p; [ $b = o ] && P=/tmp/w/o/p
  s=$(date +%s)
  timeout ${PASS_LIMIT:-100} $P/spmv_bench --suite none --replicate-to 50000000 "${A[@]}" --kernels csr --repeat 10 --json $R/${b}_$i.json > $R/${b}_$i.log 2>&1; echo "$b $i rc $? $(( $(date +%s)-s )) s"
done
grep -l WRONG $R/*.log
if [ "${NCU:-0}" = 1 ]; then
  for cols in CsrColumns Csr16Columns; do
    t=t2d_q9_$cols
    timeout 120 ncu --set full --clock-control none --kernel-name-base demangled -k "regex:csr_balanced_kernel.*256.*$cols" --launch-skip 2 --launch-count 1 -o $R/$t /tmp/w/p/spmv_bench --suite none --mtx /tmp/m/t2d_q9.mtx:575 --kernels csr --repeat 3 > $R/ncu_$t.log 2>&1; echo "ncu $t rc $?"
    ncu --import $R/$t.ncu-rep --page details > $R/$t.txt 2>&1; rm -f $R/$t.ncu-rep
  done
fi
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
