#!/usr/bin/env bash
# Every CSR kernel, Csr16Matrix and the Plan (--kernels csr, KokkosKernels beside) on the 53
# replicated real matrices, in two halves, one call each: PACK=pdl.txz bash run.sh (before/: the
# code of dbdf3fe), PACK=plan.txz bash run.sh (after/: the plan model of the commit adding this
# folder); on the GPU machine from the repository root, $OUT set, LIMIT=250 (before/), 200 (after/).
set -u
# PACK: .device-carry/pdl.txz (before/) or plan.txz (after/): p/spmv_bench, m/cage10.mtx
mkdir -p /tmp/w && tar xJf .device-carry/${PACK:-pdl.txz} -C /tmp/w p m || exit 1
P=/tmp/w/p; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
A=(); B=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; A+=(--mtx "$f:${spec##*:}"); done
i=0
for f in perf_tests/matrices/*.mtx.gz; do n=$(basename $f .gz); [ -f /tmp/m/$n ] || gunzip -c $f > /tmp/m/$n; i=$((i+1)); if [ $i -le 20 ]; then A+=(--mtx /tmp/m/$n); else B+=(--mtx /tmp/m/$n); fi; done
s=$(date +%s)
timeout ${LIMIT:-250} $P/spmv_bench --suite none --replicate-to 50000000 "${A[@]}" --kernels csr --repeat 10 --json $R/csr_a.json > $R/csr_a.log 2>&1; echo "a rc $? $(( $(date +%s)-s )) s"
s=$(date +%s)
timeout ${LIMIT:-250} $P/spmv_bench --suite none --replicate-to 50000000 "${B[@]}" --kernels csr --repeat 10 --json $R/csr_b.json > $R/csr_b.log 2>&1; echo "b rc $? $(( $(date +%s)-s )) s"
grep -l WRONG $R/*.log
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
