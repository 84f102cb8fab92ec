#!/usr/bin/env bash
# session 12, call 1: the plain call at 8 vectors beside the row-major kernels forced (--vector-kernels; in LayoutLeft through the row-major copy), with the analysis' structure in each plain call's note: the 7 replicated real matrices and the first half of the 46 of perf_tests/matrices
set -u
mkdir -p /tmp/w && tar xJf .device-pack/pack.txz -C /tmp/w
P=/tmp/w/p; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
RM=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do RM+=(--mtx "$M/${spec%%:*}.mtx:${spec##*:}"); done
a=(); b=(); i=0
for f in perf_tests/matrices/*.mtx.gz; do
  name=$(basename "$f" .gz); gunzip -c "$f" > /tmp/m/$name
  if [ $((i % 2)) -eq 0 ]; then a+=(--mtx /tmp/m/$name); else b+=(--mtx /tmp/m/$name); fi; i=$((i+1))
done
HALF=${HALF:-1}
if [ "$HALF" = 1 ]; then
  s=$(date +%s)
  timeout 130 $P/spmv_bench --suite none "${RM[@]}" --kernels plain --vectors 8 --vector-kernels --repeat 5 --json $R/real8.json > $R/real8.log 2>&1; echo "real rc $? $(( $(date +%s)-s )) s"
  set -- "${a[@]}"
else
  set -- "${b[@]}"
fi
s=$(date +%s)
timeout 420 $P/spmv_bench --suite none --kernels plain --vectors 8 --vector-kernels --replicate-to 50000000 "$@" --repeat 5 --json $R/unseen8_$HALF.json > $R/unseen8_$HALF.log 2>&1; echo "unseen half $HALF rc $? $(( $(date +%s)-s )) s"
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
