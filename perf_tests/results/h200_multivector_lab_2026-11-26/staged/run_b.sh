#!/usr/bin/env bash
# session 16, call B: 8 of perf_tests/matrices replicated to 50M entries at 8 vectors with the
# multivector kernels forced and LayoutLeft staged row-major, and the suite's generated large
# matrices at 4, 8, 16 vectors (plain call and KokkosKernels' default)
set -u
mkdir -p /tmp/w && tar xJf .device-carry/pack.txz -C /tmp/w || exit 1
P=/tmp/w/p; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
UN=()
for f in ego-Facebook email-Eu-core ca-CondMat p2p-Gnutella09 lp_d6cube wood1p tech-WHOIS orani678; do gunzip -c perf_tests/matrices/$f.mtx.gz > /tmp/m/$f.mtx; UN+=(--mtx /tmp/m/$f.mtx); done
s=$(date +%s)
timeout 200 $P/spmv_bench --suite none --replicate-to 50000000 "${UN[@]}" --kernels plain --vectors 8 --vector-kernels --repeat 7 --json $R/unseen.json > $R/unseen.log 2>&1; echo "unseen rc $? $(( $(date +%s)-s )) s"
s=$(date +%s)
timeout 250 $P/spmv_bench --suite large --kernels plain --vectors 4,8,16 --repeat 7 --json $R/large.json > $R/large.log 2>&1; echo "large rc $? $(( $(date +%s)-s )) s"
grep -l WRONG $R/*.log
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
