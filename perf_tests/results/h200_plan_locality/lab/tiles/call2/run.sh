#!/usr/bin/env bash
# session 21 lab: main's raw balanced kernel (m = loc2.txz's p/spmv_bench, 046ecc5: the kernels of main)
# beside the tiles lab (t = tiles.txz: KSPMV_LAB_TILES consecutive tiles a block, 60-64 registers;
# c = tilescap.txz: the same capped at 32 registers, spilling), 19 replicated real matrices, --kernels csr.
# ROUNDS: binary:T pairs.
set -u
for b in m:loc2 t:tiles c:tilescap; do mkdir -p /tmp/w/${b%%:*} && tar xJf .device-carry/${b##*:}.txz -C /tmp/w/${b%%:*} || exit 1; done
M=/tmp/w/m/m
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
A=()
for spec in bcsstk13:1000 arrow:600 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; A+=(--mtx "$f:${spec##*:}"); done
for n in t2d_q9 dw8192 cti epb1 stocfor3 bcsstk16 fe_4elt2 commanche_dual crack ct2010 bcspwr10 p2p-Gnutella09 ca-CondMat lp_dfl001 wood1p fit2d; do f=perf_tests/matrices/$n.mtx.gz; [ -f /tmp/m/$n.mtx ] || gunzip -c $f > /tmp/m/$n.mtx; A+=(--mtx /tmp/m/$n.mtx); done
i=0
for r in ${ROUNDS:-m:1 t:4 c:4 c:1 c:1 c:4 t:4 m:1}; do i=$((i+1)); b=${r%%:*}; t=${r##*:}
  s=$(date +%s)
  KSPMV_LAB_TILES=$t timeout ${PASS_LIMIT:-100} /tmp/w/$b/p/spmv_bench --suite none --replicate-to 50000000 "${A[@]}" --kernels csr --repeat 10 --json $R/${b}${t}_$i.json > $R/${b}${t}_$i.log 2>&1; echo "$r $i rc $? $(( $(date +%s)-s )) s"
done
grep -l WRONG $R/*.log
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
