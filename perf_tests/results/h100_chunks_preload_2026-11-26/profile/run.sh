#!/usr/bin/env bash
# session 13, call 1: Nsight Compute (full set, SASS source page) of the chunks kernel at 8 vectors in R on arrow x600 and wiki-Vote x1000, and the balanced kernel at 8 in L on rajat01 x2000 and wiki-Vote x1000 (the three cases above half a rank-1 call per vector)
set -u
mkdir -p /tmp/w && tar xJf .device-pack/pack.txz -C /tmp/w
P=/tmp/w/p; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
for spec in arrow:600:chunks:1 wiki-Vote:1000:chunks:1 rajat01:2000:balanced:0 wiki-Vote:1000:balanced:0; do
  IFS=: read m r kern skip <<< "$spec"
  s=$(date +%s)
  timeout 150 $NCU --clock-control none --kernel-name regex:csr_multivector_${kern}_kernel --launch-skip $skip --launch-count 1 --set full --import-source no -o $R/ncu_${m}_${kern} \
    $P/spmv_bench --suite none --mtx $M/$m.mtx:$r --kernels plain --vectors 8 --repeat 1 > $R/ncu_${m}_${kern}.log 2>&1
  echo "ncu $m $kern rc $? $(( $(date +%s)-s )) s"
  $NCU -i $R/ncu_${m}_${kern}.ncu-rep --page details > $R/ncu_${m}_${kern}.txt 2>&1
  $NCU -i $R/ncu_${m}_${kern}.ncu-rep --page source --csv --print-source sass > $R/ncu_${m}_${kern}_sass.csv 2>&1 || echo "source page failed"
  head -c 300 $R/ncu_${m}_${kern}_sass.csv; echo
  rm -f $R/ncu_${m}_${kern}.ncu-rep
done
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
