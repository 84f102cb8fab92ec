# session 32: the Plan at main (793ffb1 code; q/spmv_bench) on the 25 held-out real matrices of
# perf_tests/matrices_unseen (first run, before anything is fitted on them), and later changes
# (p/spmv_bench) beside it. s32.txz: q/, p/ (when built), t/fmt_tests (when built), m/cage10.mtx.
# ROUNDS tokens: lower case = the 53 replicated real matrices, upper case = the 25 held out;
# q/Q = main, p/P = the change.
# From the repository root on the GPU machine ($OUT set): ROUNDS="..." bash .device-carry/s32.sh
set -u
mkdir -p /tmp/w && tar xJf .device-carry/s32.txz -C /tmp/w || exit 1
M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m /tmp/u
export CUDA_MODULE_LOADING=EAGER KSPMV_TEST_DATA_DIR=$PWD/unit_tests/data
nvidia-smi > $R/gpu.txt 2>&1
if [ -z "${SKIP_TESTS:-}" ] && [ -x /tmp/w/t/fmt_tests ]; then
timeout 150 /tmp/w/t/fmt_tests > $R/tests.log 2>&1; echo "tests rc $?"; grep -E "PASSED|FAILED" $R/tests.log | head -8
fi
A=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; A+=(--mtx "$f:${spec##*:}"); done
for f in perf_tests/matrices/*.mtx.gz; do n=$(basename $f .gz); [ -f /tmp/m/$n ] || gunzip -c $f > /tmp/m/$n; A+=(--mtx /tmp/m/$n); done
U=()
for f in perf_tests/matrices_unseen/*.mtx.gz; do n=$(basename $f .gz); [ -f /tmp/u/$n ] || gunzip -c $f > /tmp/u/$n; U+=(--mtx /tmp/u/$n); done
i=0
for b in ${ROUNDS:-Q}; do i=$((i+1))
  s=$(date +%s)
  case $b in p|P) bin=/tmp/w/p/spmv_bench;; *) bin=/tmp/w/q/spmv_bench;; esac
  case $b in [a-z]) set=("${A[@]}");; *) set=("${U[@]}");; esac
  timeout ${PASS_LIMIT:-170} $bin --suite none --replicate-to 50000000 "${set[@]}" --kernels csr --repeat 10 --json $R/${b}_$i.json > $R/${b}_$i.log 2>&1; echo "$b $i rc $? $(( $(date +%s)-s )) s"
done
grep -l WRONG $R/*.log
gzip $R/*.json
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
