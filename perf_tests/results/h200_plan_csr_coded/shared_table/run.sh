# session 31: the plan model's Csr16Matrix rates by row regime and its conversion charge, then
# CodedCsrMatrix as a Plan candidate, beside main before them. s31.txz: p/spmv_bench (this
# change), mid/spmv_bench (36fe1c2 with CodedCsrMatrix's new conversion), o/spmv_bench (9c54543),
# t/fmt_tests (the CUDA tests of the change), m/cage10.mtx, u/*.mtx.gz (real matrices not in the 53).
# ROUNDS tokens: n/m/o/q = new/mid/old/q (793ffb1: CodedCsrMatrix a Plan candidate) on the 53
# replicated real matrices, N/M/O/Q on the unseen set.
# From the repository root on the GPU machine ($OUT set): ROUNDS="..." bash .device-carry/s31.sh
set -u
mkdir -p /tmp/w && tar xJf .device-carry/s31.txz -C /tmp/w || exit 1
M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m /tmp/u
export CUDA_MODULE_LOADING=EAGER KSPMV_TEST_DATA_DIR=$PWD/unit_tests/data
nvidia-smi > $R/gpu.txt 2>&1
if [ -z "${SKIP_TESTS:-}" ]; then
timeout 150 /tmp/w/t/fmt_tests > $R/tests.log 2>&1; echo "tests rc $?"; grep -E "PASSED|FAILED" $R/tests.log | head -8
fi
if [ -n "${MEMCHECK:-}" ]; then
timeout 150 compute-sanitizer --tool memcheck /tmp/w/t/fmt_tests --gtest_filter="$MEMCHECK" > $R/memcheck.log 2>&1; echo "memcheck rc $?"; tail -2 $R/memcheck.log
fi
A=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; A+=(--mtx "$f:${spec##*:}"); done
for f in perf_tests/matrices/*.mtx.gz; do n=$(basename $f .gz); [ -f /tmp/m/$n ] || gunzip -c $f > /tmp/m/$n; A+=(--mtx /tmp/m/$n); done
U=()
for f in /tmp/w/u/*.mtx.gz; do n=$(basename $f .gz); [ -f /tmp/u/$n ] || gunzip -c $f > /tmp/u/$n; U+=(--mtx /tmp/u/$n); done
i=0
for b in ${ROUNDS:-n o}; do i=$((i+1))
  s=$(date +%s)
  case $b in n|N) bin=/tmp/w/p/spmv_bench;; m|M) bin=/tmp/w/mid/spmv_bench;; q|Q) bin=/tmp/w/q/spmv_bench;; *) bin=/tmp/w/o/spmv_bench;; esac
  case $b in n|m|o|q) set=("${A[@]}");; *) set=("${U[@]}");; esac
  timeout ${PASS_LIMIT:-170} $bin --suite none --replicate-to 50000000 "${set[@]}" --kernels csr --repeat 10 --json $R/${b}_$i.json > $R/${b}_$i.log 2>&1; echo "$b $i rc $? $(( $(date +%s)-s )) s"
done
grep -l WRONG $R/*.log
gzip $R/*.json
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
