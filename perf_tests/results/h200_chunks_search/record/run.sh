#!/usr/bin/env bash
# session 24, call 3 (record): the chunks kernel's search voting as a whole wave (new_) against
# main's (old_, 98ad514) in one call: the multivector tests (Cuda, Serial) and memcheck of the
# chunks' test (new); the 7 replicated real suite matrices at 4, 8, 16 vectors with the forced
# kernels and the suite's generated large matrices at 4 and 8 (new and old, alternating); 8 unseen
# replicated to 50M entries at 4 and 8 with the forced kernels (new)
set -u
mkdir -p /tmp/w && tar xJf .device-carry/s24c.txz -C /tmp/w || exit 1
P=/tmp/w/p
R=/tmp/rec3; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
s=$(date +%s)
timeout 60 $P/new1_tests --gtest_filter='*Multivector*' > $R/unit_tests.log 2>&1; echo "tests rc $? $(( $(date +%s)-s )) s"; tail -1 $R/unit_tests.log
s=$(date +%s)
timeout 90 /usr/local/cuda/bin/compute-sanitizer --tool memcheck $P/new1_tests --gtest_filter='*/Cuda.MultivectorRowLanesAndChunks' > $R/memcheck.log 2>&1; echo "memcheck rc $? $(( $(date +%s)-s )) s"; tail -1 $R/memcheck.log
RM=()
for spec in rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 bcsstk13:1000 poly_chain.512:1000 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=/tmp/w/m/$n.mtx; RM+=(--mtx "$f:${spec##*:}"); done
UN=()
for f in ego-Facebook email-Eu-core ca-CondMat p2p-Gnutella09 lp_d6cube wood1p tech-WHOIS orani678; do gunzip -c perf_tests/matrices/$f.mtx.gz > /tmp/m/$f.mtx; UN+=(--mtx /tmp/m/$f.mtx); done
for v in new old; do
  B=$P/new1_bench; [ $v = old ] && B=$P/old_bench
  s=$(date +%s)
  timeout 80 $B --suite none "${RM[@]}" --kernels plain --vectors 4,8,16 --vector-kernels --repeat 7 --json $R/${v}_real.json > $R/${v}_real.log 2>&1; echo "$v real rc $? $(( $(date +%s)-s )) s"
done
for v in new old; do
  B=$P/new1_bench; [ $v = old ] && B=$P/old_bench
  s=$(date +%s)
  timeout 100 $B --suite large --kernels plain --vectors 4,8 --repeat 5 --json $R/${v}_large.json > $R/${v}_large.log 2>&1; echo "$v large rc $? $(( $(date +%s)-s )) s"
done
s=$(date +%s)
timeout 60 $P/new1_bench --suite none --replicate-to 50000000 "${UN[@]}" --kernels plain --vectors 4,8 --vector-kernels --repeat 7 --json $R/new_unseen.json > $R/new_unseen.log 2>&1; echo "new unseen rc $? $(( $(date +%s)-s )) s"
grep -l WRONG $R/*.log
gzip $R/*.json
tar czf $OUT/rec3.tgz -C /tmp rec3
