#!/usr/bin/env bash
# The plan model with the locality of the gathers of x (p/spmv_bench of PACK: loc2.txz for model/, built
# from the commit adding this folder; loc.txz for model_first/, its first form) and the code before
# (o/spmv_bench: plan.txz's p/spmv_bench, 0157672, the same kernels), --kernels csr on the 53 replicated
# real matrices, in two halves each; the packs hold m/cage10.mtx too. On the GPU machine from the
# repository root, $OUT set: PACK=loc2.txz bash run.sh. ROUNDS: new old (default).
set -u
mkdir -p /tmp/w/o && tar xJf .device-carry/${PACK:-loc.txz} -C /tmp/w p m || exit 1
tar xJf .device-carry/plan.txz -C /tmp/w/o p || exit 1
M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
A=(); B=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; A+=(--mtx "$f:${spec##*:}"); done
i=0
for f in perf_tests/matrices/*.mtx.gz; do n=$(basename $f .gz); [ -f /tmp/m/$n ] || gunzip -c $f > /tmp/m/$n; i=$((i+1)); if [ $i -le 20 ]; then A+=(--mtx /tmp/m/$n); else B+=(--mtx /tmp/m/$n); fi; done
for b in ${ROUNDS:-new old}; do P=/tmp/w/p; [ $b = old ] && P=/tmp/w/o/p
  s=$(date +%s)
  timeout ${LIMIT:-150} $P/spmv_bench --suite none --replicate-to 50000000 "${A[@]}" --kernels csr --repeat 10 --json $R/${b}_a.json > $R/${b}_a.log 2>&1; echo "$b a rc $? $(( $(date +%s)-s )) s"
  s=$(date +%s)
  timeout ${LIMIT:-150} $P/spmv_bench --suite none --replicate-to 50000000 "${B[@]}" --kernels csr --repeat 10 --json $R/${b}_b.json > $R/${b}_b.log 2>&1; echo "$b b rc $? $(( $(date +%s)-s )) s"
done
grep -l WRONG $R/*.log
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
