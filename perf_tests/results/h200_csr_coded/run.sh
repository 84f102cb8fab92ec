#!/usr/bin/env bash
# session 30 (second): CodedCsrMatrix (an 8-bit code an entry into a table of at most 256 values: the raw
# balanced kernel reading codes), its format candidate beside every CSR kernel in one call (no Plan candidate).
# s30b.txz: p/spmv_bench (this change), t/fmt_tests (test_csr_coded, test_csr_uniform, test_plan,
# test_csr_balanced, test_spmv_complex_mixed), m/cage10.mtx. The tests on Cuda, memcheck of the new
# ones, then the 53 replicated real matrices, --kernels csr, a round each in ROUNDS (n new). From the
# repository root on the GPU machine ($OUT set): ROUNDS=n bash s30b.sh
set -u
mkdir -p /tmp/w && tar xJf .device-carry/s30b.txz -C /tmp/w || exit 1
M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER KSPMV_TEST_DATA_DIR=$PWD/unit_tests/data
nvidia-smi > $R/gpu.txt 2>&1
if [ -z "${SKIP_TESTS:-}" ]; then
timeout 200 /tmp/w/t/fmt_tests > $R/tests.log 2>&1; echo "tests rc $?"; grep -E "PASSED|FAILED" $R/tests.log | head -8
timeout 150 compute-sanitizer --tool memcheck /tmp/w/t/fmt_tests --gtest_filter='*CodedCsr*' > $R/memcheck.log 2>&1; echo "memcheck rc $?"; tail -2 $R/memcheck.log
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
