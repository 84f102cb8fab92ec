#!/usr/bin/env bash
# session 28 labs, from the repository root on the GPU machine ($OUT set). l28.txz under .device-carry:
# p/spmv_bench built from 672b37f with group_bias.diff, ../h200_vectors_balanced_variants/variants.diff and
# ../h200_entries_occupancy/lab/entries.diff (each inactive unless its variable is set), m/cage10.mtx.
# GB: the raw balanced kernel's group of lanes a row shifted down by KSPMV_LAB_GROUP_BIAS (0: main, 1: half the
# lanes, 2: a quarter, -1: twice, -2: four times), 53 replicated real matrices, --kernels csr; MV: the balanced
# multivector kernel's variants KSPMV_LAB_MV on rajat01, arrow, wiki-Vote, p2p-Gnutella09 at 8 vectors; EN: the
# split entries' variants KSPMV_LAB_ENTRIES on heavy_rows, power_law, uniform_random at 4 and 8 vectors.
#   GB="0 1 2" bash run.sh;  GB="0 -1 -2" bash run.sh;  MV="0 3 7 1 5" bash run.sh;  EN="0 2 6 1" bash run.sh
set -u
mkdir -p /tmp/w && tar xJf .device-carry/l28.txz -C /tmp/w || exit 1
M=/tmp/w/m; P=/tmp/w/p
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
for f in perf_tests/matrices/*.mtx.gz; do n=$(basename $f .gz); [ -f /tmp/m/$n ] || gunzip -c $f > /tmp/m/$n; done
if [ -n "${MV:-}" ]; then
  B=(--mtx unit_tests/data/rajat01.mtx:2000 --mtx unit_tests/data/arrow.mtx:600 --mtx unit_tests/data/wiki-Vote.mtx:1000 --mtx /tmp/m/p2p-Gnutella09.mtx:1923)
  i=0
  for v in $MV; do i=$((i+1)); s=$(date +%s)
    KSPMV_LAB_MV=$v timeout 120 $P/spmv_bench --suite none "${B[@]}" --kernels plain --vectors 8 --repeat 5 --json $R/mv${v}_$i.json > $R/mv${v}_$i.log 2>&1; echo "mv $v $i rc $? $(( $(date +%s)-s )) s"
  done
fi
if [ -n "${GB:-}" ]; then
  A=()
  for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; A+=(--mtx "$f:${spec##*:}"); done
  for f in perf_tests/matrices/*.mtx.gz; do A+=(--mtx /tmp/m/$(basename $f .gz)); done
  i=0
  for g in $GB; do i=$((i+1)); s=$(date +%s)
    KSPMV_LAB_GROUP_BIAS=$g timeout 150 $P/spmv_bench --suite none --replicate-to 50000000 "${A[@]}" --kernels csr --repeat 10 --json $R/g${g}_$i.json > $R/g${g}_$i.log 2>&1; echo "g $g $i rc $? $(( $(date +%s)-s )) s"
  done
fi
if [ -n "${EN:-}" ]; then
  i=0
  for v in $EN; do i=$((i+1)); s=$(date +%s)
    KSPMV_LAB_ENTRIES=$v timeout 150 $P/spmv_bench --suite large --only heavy_rows,power_law,uniform_random --kernels plain --vectors 4,8 --repeat 5 --json $R/en${v}_$i.json > $R/en${v}_$i.log 2>&1; echo "en $v $i rc $? $(( $(date +%s)-s )) s"
  done
fi
grep -l WRONG $R/*.log
gzip $R/*.json
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
