#!/usr/bin/env bash
# session 28 (a lab, not kept; x_staged.diff on d11e5d7): the plain call also timing column-major X alone staged row-major (MultivectorWay::x_staged,
# Y written where it is) beside d11e5d7. x28.txz: p/spmv_bench (this change), o/spmv_bench (d11e5d7),
# t/mv_tests (test_spmv_multivector, test_launch), m/cage10.mtx. The tests on Cuda and Serial, memcheck of
# MultivectorStagedRowMajor, then at 8 vectors the suite's 7 real matrices replicated and 9 of
# perf_tests/matrices replicated to 50M entries, the plain call, KokkosKernels' default and the rank-1 call,
# a round each in ROUNDS (n new, o old). From the repository root on the GPU machine ($OUT set): bash run.sh
set -u
mkdir -p /tmp/w && tar xJf .device-carry/x28.txz -C /tmp/w || exit 1
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
timeout 200 /tmp/w/t/mv_tests > $R/tests.log 2>&1; echo "tests rc $?"; grep -E "PASSED|FAILED" $R/tests.log | head -5
timeout 150 compute-sanitizer --tool memcheck /tmp/w/t/mv_tests --gtest_filter='*MultivectorStagedRowMajor*' > $R/memcheck.log 2>&1; echo "memcheck rc $?"; tail -2 $R/memcheck.log
A=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=/tmp/w/m/$n.mtx; A+=(--mtx "$f:${spec##*:}"); done
U=()
for n in orani678 email-Eu-core tech-WHOIS ca-CondMat ego-Facebook wood1p p2p-Gnutella09 lp_d6cube ca-HepTh; do gunzip -c perf_tests/matrices/$n.mtx.gz > /tmp/m/$n.mtx; U+=(--mtx /tmp/m/$n.mtx); done
i=0
for b in ${ROUNDS:-n o}; do i=$((i+1)); s=$(date +%s)
  B=/tmp/w/$( [ $b = o ] && echo o || echo p )/spmv_bench
  timeout 100 $B --suite none "${A[@]}" --kernels plain --vectors 8 --repeat 5 --json $R/${b}_real_$i.json > $R/${b}_real_$i.log 2>&1; echo "$b real $i rc $? $(( $(date +%s)-s )) s"
  s=$(date +%s)
  timeout 100 $B --suite none --replicate-to 50000000 "${U[@]}" --kernels plain --vectors 8 --repeat 5 --json $R/${b}_unseen_$i.json > $R/${b}_unseen_$i.log 2>&1; echo "$b unseen $i rc $? $(( $(date +%s)-s )) s"
done
grep -l WRONG $R/*.log
gzip $R/*.json
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
