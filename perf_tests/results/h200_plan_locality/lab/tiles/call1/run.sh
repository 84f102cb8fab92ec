#!/usr/bin/env bash
# session 21 lab: the raw balanced kernel walking KSPMV_LAB_TILES consecutive tiles of its partition a block
# (1 = the kernel of main) on 19 replicated real matrices, --kernels csr (raw balanced CSR 256/512, Csr16Matrix,
# the Plan, KokkosKernels' default). PACK: the binary's archive (p/spmv_bench); ROUNDS: values of T.
set -u
mkdir -p /tmp/w && tar xJf .device-carry/${PACK:-tiles.txz} -C /tmp/w || exit 1
tar xJf .device-carry/loc2.txz -C /tmp/w m || exit 1
P=/tmp/w/p; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
A=()
for spec in bcsstk13:1000 arrow:600 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; A+=(--mtx "$f:${spec##*:}"); done
for n in t2d_q9 dw8192 cti epb1 stocfor3 bcsstk16 fe_4elt2 commanche_dual crack ct2010 bcspwr10 p2p-Gnutella09 ca-CondMat lp_dfl001 wood1p fit2d; do f=perf_tests/matrices/$n.mtx.gz; [ -f /tmp/m/$n.mtx ] || gunzip -c $f > /tmp/m/$n.mtx; A+=(--mtx /tmp/m/$n.mtx); done
i=0
for t in ${ROUNDS:-1 2 4 8 8 4 2 1}; do i=$((i+1))
  s=$(date +%s)
  KSPMV_LAB_TILES=$t timeout ${PASS_LIMIT:-100} $P/spmv_bench --suite none --replicate-to 50000000 "${A[@]}" --kernels csr --repeat 10 --json $R/${TAG:-t}${t}_$i.json > $R/${TAG:-t}${t}_$i.log 2>&1; echo "$t $i rc $? $(( $(date +%s)-s )) s"
done
grep -l WRONG $R/*.log
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
