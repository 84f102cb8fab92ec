# session 34: tests, then rounds of spmv_bench. Tokens: p/P = this change's binary, q/Q = main's;
# lower case = the 53 replicated real matrices, upper case = the 25 held out, gp/gq = the suite's
# 6 generated large matrices (--kernels plain). KERNELS (default csr). From the repository root on
# the GPU machine ($OUT set).
set -u
mkdir -p /tmp/w && tar xJf .device-carry/s35.txz -C /tmp/w || exit 1
M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m /tmp/u
export CUDA_MODULE_LOADING=EAGER KSPMV_TEST_DATA_DIR=$PWD/unit_tests/data
nvidia-smi > $R/gpu.txt 2>&1
if [ -n "${TESTS:-}" ] && [ -x /tmp/w/t/fmt_tests ]; then
  timeout 200 /tmp/w/t/fmt_tests > $R/tests.log 2>&1; echo "tests rc $?"; grep -E "PASSED|FAILED" $R/tests.log | head -12
fi
if [ -n "${MEMCHECK:-}" ] && [ -x /tmp/w/t/fmt_tests ]; then
  timeout 150 compute-sanitizer --tool memcheck /tmp/w/t/fmt_tests --gtest_filter="$MEMCHECK" > $R/memcheck.log 2>&1; echo "memcheck rc $?"; grep -E "PASSED|FAILED|ERROR SUMMARY" $R/memcheck.log | head -5
fi
A=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; A+=(--mtx "$f:${spec##*:}"); done
for f in perf_tests/matrices/*.mtx.gz; do n=$(basename $f .gz); [ -f /tmp/m/$n ] || gunzip -c $f > /tmp/m/$n; A+=(--mtx /tmp/m/$n); done
U=()
for f in perf_tests/matrices_unseen/*.mtx.gz; do n=$(basename $f .gz); [ -f /tmp/u/$n ] || gunzip -c $f > /tmp/u/$n; U+=(--mtx /tmp/u/$n); done
i=0
for b in ${ROUNDS:-q}; do i=$((i+1))
  s=$(date +%s)
  t=${b#g}
  case $t in [pP]*) bin=/tmp/w/p/spmv_bench;; *) bin=/tmp/w/q/spmv_bench;; esac
  case $b in g*) set=(--suite large); kernels=plain;; [a-z]*) set=(--suite none "${A[@]}"); kernels=${KERNELS:-csr};; *) set=(--suite none "${U[@]}"); kernels=${KERNELS:-csr};; esac
  timeout ${PASS_LIMIT:-170} $bin --replicate-to 50000000 "${set[@]}" --kernels $kernels --repeat 10 --json $R/${b}_$i.json > $R/${b}_$i.log 2>&1; echo "$b $i rc $? $(( $(date +%s)-s )) s"
done
gzip $R/*.json
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
