#!/usr/bin/env bash
# session 30: UniformCsrMatrix (CSR holding one value: the raw balanced kernel without value loads)
# and the Plan's candidate for it, beside main (5a97aea's kernels and analysis) in one call.
# s30.txz: p/spmv_bench (this change), o/spmv_bench (main before it), t/fmt_tests (test_csr_uniform,
# test_plan, test_csr16, test_csr_balanced, test_raw, test_spmv_complex_mixed), m/cage10.mtx. The
# tests on Cuda, memcheck of the new ones, then the 53 replicated real matrices, --kernels csr, a
# round each in ROUNDS (n new, o old). From the repository root on the GPU machine ($OUT set): bash s30.sh
set -u
mkdir -p /tmp/w && tar xJf .device-carry/s30.txz -C /tmp/w || exit 1
M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER KSPMV_TEST_DATA_DIR=$PWD/unit_tests/data
nvidia-smi > $R/gpu.txt 2>&1
if [ -z "${SKIP_TESTS:-}" ]; then
timeout 200 /tmp/w/t/fmt_tests > $R/tests.log 2>&1; echo "tests rc $?"; grep -E "PASSED|FAILED" $R/tests.log | head -8
timeout 150 compute-sanitizer --tool memcheck /tmp/w/t/fmt_tests --gtest_filter='*UniformCsr*:*OneValueInEveryEntry*' > $R/memcheck.log 2>&1; echo "memcheck rc $?"; tail -2 $R/memcheck.log
fi
A=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; A+=(--mtx "$f:${spec##*:}"); done
for f in perf_tests/matrices/*.mtx.gz; do n=$(basename $f .gz); [ -f /tmp/m/$n ] || gunzip -c $f > /tmp/m/$n; A+=(--mtx /tmp/m/$n); done
i=0
for b in ${ROUNDS:-n o}; do i=$((i+1))
  s=$(date +%s)
  timeout ${PASS_LIMIT:-170} /tmp/w/$( [ $b = o ] && echo o || echo p )/spmv_bench --suite none --replicate-to 50000000 "${A[@]}" --kernels csr --repeat 10 --json $R/${b}_$i.json > $R/${b}_$i.log 2>&1; echo "$b $i rc $? $(( $(date +%s)-s )) s"
done
grep -l WRONG $R/*.log
gzip $R/*.json
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
