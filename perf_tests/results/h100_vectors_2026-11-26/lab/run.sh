#!/usr/bin/env bash
# session 10, call 4: the plain call with the row-major copy kept (4, 8 vectors; forced kernels beside); lab: the lanes kernel at 4 vectors, occupancy capped, other forms
set -u
mkdir -p /tmp/w && tar xJf .device-pack/pack.txz -C /tmp/w
P=/tmp/w/p; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
RM=()
for spec in rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 bcsstk13:1000 poly_chain.512:1000 cage10:600; do RM+=(--mtx "$M/${spec%%:*}.mtx:${spec##*:}"); done
s=$(date +%s)
timeout 100 $P/spmv_bench --suite none "${RM[@]}" --kernels plain --vectors 8 --vector-kernels --repeat 5 --json $R/new_real.json > $R/new_real.log 2>&1; echo "real rc $? $(( $(date +%s)-s )) s"
s=$(date +%s)
timeout 120 $P/spmv_bench --suite large --kernels plain --vectors 4,8 --vector-kernels --repeat 5 --json $R/new_large.json > $R/new_large.log 2>&1; echo "large rc $? $(( $(date +%s)-s )) s"
s=$(date +%s)
timeout 200 $P/mv_lab4 poisson7:300 poisson27:200 $M/cage10.mtx:600 $M/bcsstk13.mtx:1000 $M/poly_chain.512.mtx:1000 \
  $M/luxembourg_osm.mtx.gz:0 $M/delaunay_n14.mtx.gz:0 $M/fe_4elt2.mtx.gz:0 $M/ct2010.mtx.gz:0 $M/t2d_q9.mtx.gz:0 $M/dw8192.mtx.gz:0 > $R/lab4.log 2>&1
echo "lab rc $? $(( $(date +%s)-s )) s"
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
