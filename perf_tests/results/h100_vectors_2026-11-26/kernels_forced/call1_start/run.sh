#!/usr/bin/env bash
# session 10, call 1: the row-major multivector kernels forced beside the plain call (4, 8 vectors) on the large suite and 4 uneven real matrices; Nsight Compute of the chunks (8 R) and balanced (8 L) kernels on rajat01 x2000 and arrow x600
set -u
mkdir -p /tmp/w && tar xJf .device-pack/pack.txz -C /tmp/w
P=/tmp/w/p
R=$OUT/rec; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
for spec in rajat01:2000:chunks arrow:600:chunks rajat01:2000:balanced; do
  IFS=: read m r kern <<< "$spec"
  s=$(date +%s)
  timeout 120 $NCU --kernel-name regex:csr_multivector_${kern}_kernel --launch-count 1 --set full -o $R/ncu_${m}_${kern} \
    $P/spmv_bench --suite none --mtx $P/real/$m.mtx:$r --kernels plain --vectors 8 --repeat 1 > $R/ncu_${m}_${kern}.log 2>&1
  echo "ncu $m $kern rc $? $(( $(date +%s)-s )) s"
  $NCU -i $R/ncu_${m}_${kern}.ncu-rep --page details > $R/ncu_${m}_${kern}.txt 2>&1
done
RM=()
for spec in rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500; do RM+=(--mtx "$P/real/${spec%%:*}.mtx:${spec##*:}"); done
s=$(date +%s)
timeout 120 $P/spmv_bench --suite none "${RM[@]}" --kernels plain --vectors 8 --vector-kernels --repeat 5 --json $R/real.json > $R/real.log 2>&1; echo "real rc $? $(( $(date +%s)-s )) s"
s=$(date +%s)
timeout 240 $P/spmv_bench --suite large --kernels plain --vectors 4,8 --vector-kernels --repeat 5 --json $R/large.json > $R/large.log 2>&1; echo "large rc $? $(( $(date +%s)-s )) s"
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
