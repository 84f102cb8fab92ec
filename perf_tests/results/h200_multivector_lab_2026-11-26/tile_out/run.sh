#!/usr/bin/env bash
# session 18, the chunks writing a column-major Y through a tile of rows in shared memory, X alone
# staged row-major for LayoutLeft (new: p/spmv_bench) beside the code of 4825b3a (old:
# o/spmv_bench, staging X and Y) in one call: unit tests of several vectors, launch, analysis,
# raw (Cuda, Serial), memcheck of the chunks' and the staged tests; the plain call at 8 and 16
# vectors on the suite's 7 replicated real matrices and 8 of perf_tests/matrices replicated to
# 50M entries; part 2 ($1 = large): the generated large matrices
set -u
mkdir -p /tmp/w && tar xJf .device-carry/pack.txz -C /tmp/w && tar xJf .device-carry/tests.txz -C /tmp/w || exit 1
[ -d /tmp/w/o ] || { mkdir -p /tmp/w/o && tar xJf .device-carry/old.txz -C /tmp/w/o; }
P=/tmp/w/p; O=/tmp/w/o/p; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
if [ "${1:-}" = large ]; then
  for b in new old; do B=$P; [ $b = old ] && B=$O
    s=$(date +%s)
    timeout 280 $B/spmv_bench --suite large --kernels plain --vectors 8,16 --repeat 5 --json $R/large_$b.json > $R/large_$b.log 2>&1; echo "large $b rc $? $(( $(date +%s)-s )) s"
  done
else
  s=$(date +%s)
  timeout 200 $P/mv_tests --gtest_filter='*Multivector*:Launch.*:CsrAnalysisTest*:*Raw*' > $R/unit_tests.log 2>&1; echo "tests rc $? $(( $(date +%s)-s )) s"; tail -3 $R/unit_tests.log
  s=$(date +%s)
  timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool memcheck $P/mv_tests --gtest_filter='*/Cuda.MultivectorStagedRowMajor:*/Cuda.MultivectorRowLanesAndChunks' > $R/memcheck.log 2>&1; echo "memcheck rc $? $(( $(date +%s)-s )) s"; tail -1 $R/memcheck.log
  RM=()
  for spec in rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 bcsstk13:1000 poly_chain.512:1000 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; RM+=(--mtx "$f:${spec##*:}"); done
  UN=()
  for f in ego-Facebook email-Eu-core ca-CondMat p2p-Gnutella09 lp_d6cube wood1p tech-WHOIS orani678; do gunzip -c perf_tests/matrices/$f.mtx.gz > /tmp/m/$f.mtx; UN+=(--mtx /tmp/m/$f.mtx); done
  for b in new old; do B=$P; [ $b = old ] && B=$O
    s=$(date +%s)
    timeout 150 $B/spmv_bench --suite none "${RM[@]}" --kernels plain --vectors 8,16 --repeat 5 --json $R/real_$b.json > $R/real_$b.log 2>&1; echo "real $b rc $? $(( $(date +%s)-s )) s"
    s=$(date +%s)
    timeout 120 $B/spmv_bench --suite none --replicate-to 50000000 "${UN[@]}" --kernels plain --vectors 8 --repeat 5 --json $R/unseen_$b.json > $R/unseen_$b.log 2>&1; echo "unseen $b rc $? $(( $(date +%s)-s )) s"
  done
fi
grep -l WRONG $R/*.log
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
