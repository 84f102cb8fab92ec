#!/usr/bin/env bash
# session 15, final code (the chunks' entries loaded by every lane of a group in 16-byte pieces, x's
# row stride 32-bit), call B: the suite's 7 replicated real matrices at 8 and 16 vectors with the
# multivector kernels forced, 8 of perf_tests/matrices replicated to 50M entries at 8 and 16, the
# suite's generated large matrices at 4, 8, 16 vectors (plain call and KokkosKernels' default), and
# Nsight Compute of the chunks kernel on rajat01 x2000 at 8 vectors in LayoutRight
set -u
mkdir -p /tmp/w && tar xJf .device-carry/pack.txz -C /tmp/w || exit 1
P=/tmp/w/p; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
cuobjdump --dump-resource-usage $P/spmv_bench 2>/dev/null | grep -A1 -E "multivector_chunks_kernel.*Edii" > $R/regs.txt
RM=()
for spec in rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 bcsstk13:1000 poly_chain.512:1000 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; RM+=(--mtx "$f:${spec##*:}"); done
UN=()
for f in ego-Facebook email-Eu-core ca-CondMat p2p-Gnutella09 lp_d6cube wood1p tech-WHOIS orani678; do gunzip -c perf_tests/matrices/$f.mtx.gz > /tmp/m/$f.mtx; UN+=(--mtx /tmp/m/$f.mtx); done
s=$(date +%s)
timeout 100 $P/spmv_bench --suite none "${RM[@]}" --kernels plain --vectors 8,16 --vector-kernels --repeat 7 --json $R/real.json > $R/real.log 2>&1; echo "real rc $? $(( $(date +%s)-s )) s"
s=$(date +%s)
timeout 100 $P/spmv_bench --suite none --replicate-to 50000000 "${UN[@]}" --kernels plain --vectors 8,16 --repeat 7 --json $R/unseen.json > $R/unseen.log 2>&1; echo "unseen rc $? $(( $(date +%s)-s )) s"
s=$(date +%s)
timeout 220 $P/spmv_bench --suite large --kernels plain --vectors 4,8,16 --repeat 7 --json $R/large.json > $R/large.log 2>&1; echo "large rc $? $(( $(date +%s)-s )) s"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
s=$(date +%s)
timeout 150 $NCU --clock-control none --kernel-name regex:'csr_multivector_chunks_kernel' --launch-count 1 --set full --import-source no -o /tmp/chunks \
  $P/spmv_bench --suite none --mtx unit_tests/data/rajat01.mtx:2000 --kernels plain --vectors 8 --repeat 1 > $R/ncu_rajat01_chunks.log 2>&1
echo "ncu rc $? $(( $(date +%s)-s )) s"
$NCU --import /tmp/chunks.ncu-rep --page details > $R/ncu_rajat01_chunks.txt 2>&1
$NCU --import /tmp/chunks.ncu-rep --page source --csv --print-source sass > /tmp/chunks_sass.csv 2>/dev/null && gzip -c /tmp/chunks_sass.csv > $R/ncu_rajat01_chunks_sass.csv.gz
grep -l WRONG $R/*.log
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
