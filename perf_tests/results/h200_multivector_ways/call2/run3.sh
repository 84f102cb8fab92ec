#!/usr/bin/env bash
# session 22, third call (the second's old_* files and unit test log did not come back: too many
# files): the unit tests again and the code before (old_, spmv_bench of f8a875d) as in ways2.sh,
# everything in one archive
set -u
mkdir -p /tmp/w && tar xJf .device-carry/ways2.txz -C /tmp/w || exit 1
P=/tmp/w/p; M=/tmp/w/m
R=/tmp/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu3.txt 2>&1
s=$(date +%s)
timeout 200 $P/mv_tests --gtest_filter='*Multivector*:Launch.*:CsrAnalysisTest*:*Raw*' > $R/unit_tests.log 2>&1; echo "tests rc $? $(( $(date +%s)-s )) s"; tail -1 $R/unit_tests.log
RM=()
for spec in rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 bcsstk13:1000 poly_chain.512:1000 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; RM+=(--mtx "$f:${spec##*:}"); done
UN=()
for f in ego-Facebook email-Eu-core ca-CondMat p2p-Gnutella09 lp_d6cube wood1p tech-WHOIS orani678; do gunzip -c perf_tests/matrices/$f.mtx.gz > /tmp/m/$f.mtx; UN+=(--mtx /tmp/m/$f.mtx); done
B=$P/old_spmv_bench; v=old
s=$(date +%s)
timeout 100 $B --suite none "${RM[@]}" --kernels plain --vectors 4,8,16 --vector-kernels --repeat 7 --json $R/${v}_real.json > $R/${v}_real.log 2>&1; echo "$v real rc $? $(( $(date +%s)-s )) s"
s=$(date +%s)
timeout 60 $B --suite none --replicate-to 50000000 "${UN[@]}" --kernels plain --vectors 4,8 --vector-kernels --repeat 7 --json $R/${v}_unseen.json > $R/${v}_unseen.log 2>&1; echo "$v unseen rc $? $(( $(date +%s)-s )) s"
s=$(date +%s)
timeout 110 $B --suite large --kernels plain --vectors 4,8 --repeat 5 --json $R/${v}_large.json > $R/${v}_large.log 2>&1; echo "$v large rc $? $(( $(date +%s)-s )) s"
grep -l WRONG $R/*.log
gzip $R/*.json
tar czf $OUT/rec3.tgz -C /tmp rec
