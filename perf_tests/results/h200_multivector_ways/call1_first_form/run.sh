#!/usr/bin/env bash
# session 22: the plain call timing the ways of launch.hpp's multivector_ways on A's first call
# (column-major X and Y from 5 vectors on: as they are, staged, the balanced kernel; a row-major X
# below 5 vectors on uneven rows: the chunks); unit tests of several vectors, launch, analysis,
# raw (Cuda, Serial), memcheck of the ways' test, then the plain call at 4, 8, 16 vectors with
# KokkosKernels' default on the suite's 7 replicated real matrices (with the forced kernels), 8
# unseen replicated to 50M entries at 4 and 8 vectors, and the suite's generated large matrices
set -u
mkdir -p /tmp/w && tar xJf .device-carry/ways.txz -C /tmp/w || exit 1
P=/tmp/w/p; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
s=$(date +%s)
timeout 200 $P/mv_tests --gtest_filter='*Multivector*:Launch.*:CsrAnalysisTest*:*Raw*' > $R/unit_tests.log 2>&1; echo "tests rc $? $(( $(date +%s)-s )) s"; tail -3 $R/unit_tests.log
s=$(date +%s)
timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool memcheck $P/mv_tests --gtest_filter='*/Cuda.MultivectorStagedRowMajor' > $R/memcheck.log 2>&1; echo "memcheck rc $? $(( $(date +%s)-s )) s"; tail -1 $R/memcheck.log
RM=()
for spec in rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 bcsstk13:1000 poly_chain.512:1000 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; RM+=(--mtx "$f:${spec##*:}"); done
s=$(date +%s)
timeout 200 $P/spmv_bench --suite none "${RM[@]}" --kernels plain --vectors 4,8,16 --vector-kernels --repeat 7 --json $R/real.json > $R/real.log 2>&1; echo "real rc $? $(( $(date +%s)-s )) s"
UN=()
for f in ego-Facebook email-Eu-core ca-CondMat p2p-Gnutella09 lp_d6cube wood1p tech-WHOIS orani678; do gunzip -c perf_tests/matrices/$f.mtx.gz > /tmp/m/$f.mtx; UN+=(--mtx /tmp/m/$f.mtx); done
s=$(date +%s)
timeout 150 $P/spmv_bench --suite none --replicate-to 50000000 "${UN[@]}" --kernels plain --vectors 4,8 --vector-kernels --repeat 7 --json $R/unseen.json > $R/unseen.log 2>&1; echo "unseen rc $? $(( $(date +%s)-s )) s"
s=$(date +%s)
timeout 200 $P/spmv_bench --suite large --kernels plain --vectors 4,8,16 --repeat 7 --json $R/large.json > $R/large.log 2>&1; echo "large rc $? $(( $(date +%s)-s )) s"
grep -l WRONG $R/*.log
gzip $R/*.json
