#!/usr/bin/env bash
# session 27: raw balanced CSR with the least shared memory that holds its resident blocks, and 7 blocks of
# 256 threads instead of 8 where windows gather 0.4-0.75 lines of x an entry (SpmvOptions::resident_blocks,
# launch.hpp: raw_balanced_resident_blocks), beside 668df0b in one call. res.txz: p/spmv_bench and t/mv_tests
# (test_raw, test_csr16, test_csr_balanced, test_spmv, test_launch, test_plan) of this commit, o/spmv_bench of
# 668df0b (h200_balanced_carveout's binary, KSPMV_LAB_CARVEOUT unset: 668df0b's launches), m/cage10.mtx.
# The unit tests on Cuda, then the 53 replicated real matrices, --kernels csr, a round each in ROUNDS
# (n: this commit, o: 668df0b). From the repository root on the GPU machine ($OUT set): bash run.sh
set -u
mkdir -p /tmp/w && tar xJf .device-carry/res.txz -C /tmp/w || exit 1
M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
timeout 150 /tmp/w/t/mv_tests > $R/tests.log 2>&1; echo "tests rc $?"; grep -E "PASSED|FAILED" $R/tests.log | head -5
A=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; A+=(--mtx "$f:${spec##*:}"); done
for f in perf_tests/matrices/*.mtx.gz; do n=$(basename $f .gz); [ -f /tmp/m/$n ] || gunzip -c $f > /tmp/m/$n; A+=(--mtx /tmp/m/$n); done
i=0
for b in ${ROUNDS:-n o n}; do i=$((i+1))
  s=$(date +%s)
  timeout ${PASS_LIMIT:-140} /tmp/w/$( [ $b = o ] && echo o || echo p )/spmv_bench --suite none --replicate-to 50000000 "${A[@]}" --kernels csr --repeat 10 --json $R/${b}_$i.json > $R/${b}_$i.log 2>&1; echo "$b $i rc $? $(( $(date +%s)-s )) s"
done
grep -l WRONG $R/*.log
gzip $R/*.json
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
