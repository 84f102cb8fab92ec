#!/usr/bin/env bash
# session 29: the Plan's analysis in one pass over the row offsets (plan_model.hpp:
# launch_row_length_summary, staged in scratch on GPUs), the Csr16Matrix sample and the diagonal
# sample launched behind it, one wait, no View headers; Csr16Matrix's conversion in one pass where no
# block is wide, its arrays in one allocation; beside 259e961 in one call. s29.txz: p/spmv_bench (this
# change), o/spmv_bench (259e961), t/fmt_tests (test_plan, test_csr16, test_convert, test_dia),
# c/clab (clab.cpp: the parts timed), m/cage10.mtx. The tests on Cuda, memcheck of the
# analysis and Csr16Matrix tests, then the 53 replicated real matrices, --kernels csr, a round each in
# ROUNDS (n new, o old). From the repository root on the GPU machine ($OUT set): bash s29.sh
set -u
mkdir -p /tmp/w && tar xJf .device-carry/s29.txz -C /tmp/w || exit 1
M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
if [ -z "${SKIP_TESTS:-}" ]; then
timeout 150 /tmp/w/t/fmt_tests > $R/tests.log 2>&1; echo "tests rc $?"; grep -E "PASSED|FAILED" $R/tests.log | head -5
timeout 150 compute-sanitizer --tool memcheck /tmp/w/t/fmt_tests --gtest_filter='*AnalysisCounts*:*Csr16*:*Diagonal*' > $R/memcheck.log 2>&1; echo "memcheck rc $?"; tail -2 $R/memcheck.log
fi
if [ -z "${SKIP_LAB:-}" ]; then
for n in Franz6_id1959_aug commanche_dual luxembourg_osm lp_nug20; do gunzip -c perf_tests/matrices/$n.mtx.gz > /tmp/m/$n.mtx; done
timeout 200 /tmp/w/c/clab /tmp/m/Franz6_id1959_aug.mtx 1032 /tmp/m/commanche_dual.mtx 1579 /tmp/m/luxembourg_osm.mtx 209 /tmp/m/lp_nug20.mtx 165 unit_tests/data/bcsstk13.mtx 1000 unit_tests/data/arrow.mtx 600 > $R/clab.log 2>&1; echo "clab rc $?"
fi
A=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; A+=(--mtx "$f:${spec##*:}"); done
for f in perf_tests/matrices/*.mtx.gz; do n=$(basename $f .gz); [ -f /tmp/m/$n ] || gunzip -c $f > /tmp/m/$n; A+=(--mtx /tmp/m/$n); done
i=0
for b in ${ROUNDS:-n o}; do i=$((i+1))
  s=$(date +%s)
  timeout ${PASS_LIMIT:-160} /tmp/w/$( [ $b = o ] && echo o || echo p )/spmv_bench --suite none --replicate-to 50000000 "${A[@]}" --kernels csr --repeat 10 --json $R/${b}_$i.json > $R/${b}_$i.log 2>&1; echo "$b $i rc $? $(( $(date +%s)-s )) s"
done
grep -l WRONG $R/*.log
gzip $R/*.json
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
