#!/usr/bin/env bash
# session 15, final code 2 (the chunks' entries in 16-byte pieces, a step's columns a step ahead in one pass of
# groups of at most 4 lanes), call B: the suite's 7 replicated real matrices at 8 and 16 vectors with the
# multivector kernels forced, 8 of perf_tests/matrices replicated to 50M entries at 8 and 16, the
# suite's generated large matrices at 4, 8, 16 vectors (plain call and KokkosKernels' default), and
# no Nsight Compute this time
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
grep -l WRONG $R/*.log
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
