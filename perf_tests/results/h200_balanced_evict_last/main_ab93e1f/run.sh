# session 36 (main with the evict_last gathers): rounds of spmv_bench --kernels csr. Tokens <binary><set>: binary p (the change) or
# q (main); set a = the 53 replicated real matrices, b = the 25 held out (matrices_unseen), c =
# the third set (perf_tests/matrices_third), d = the fourth (perf_tests/matrices_fourth), e = the fifth (perf_tests/matrices_fifth). From the repository root on the GPU machine ($OUT set).
set -u
mkdir -p /tmp/w && tar xJf .device-carry/s44.txz -C /tmp/w || exit 1
M=/tmp/w/m
R=$OUT/rec; mkdir -p $R /tmp/m /tmp/u /tmp/c /tmp/d /tmp/e
export CUDA_MODULE_LOADING=EAGER KSPMV_TEST_DATA_DIR=$PWD/unit_tests/data
nvidia-smi > $R/gpu.txt 2>&1
if [ -n "${TESTS:-}" ]; then
  timeout 300 /tmp/w/t/plan_tests > $R/tests.log 2>&1; echo "tests rc $?"; grep -E "PASSED|FAILED" $R/tests.log | head -12
fi
if [ -n "${MEMCHECK:-}" ]; then
  timeout 200 compute-sanitizer --tool memcheck /tmp/w/t/plan_tests --gtest_filter="$MEMCHECK" > $R/memcheck.log 2>&1; echo "memcheck rc $?"; grep -E "PASSED|FAILED|ERROR SUMMARY" $R/memcheck.log | head -5
fi
A=()
for spec in bcsstk13:1000 rajat01:2000 wiki-Vote:1000 arrow:600 Groebner_id2003_aug:500 poly_chain.512:1000 cage10:600; do n=${spec%%:*}; f=unit_tests/data/$n.mtx; [ -f $f ] || f=$M/$n.mtx; A+=(--mtx "$f:${spec##*:}"); done
for f in perf_tests/matrices/*.mtx.gz; do n=$(basename $f .gz); [ -f /tmp/m/$n ] || gunzip -c $f > /tmp/m/$n; A+=(--mtx /tmp/m/$n); done
U=()
for f in perf_tests/matrices_unseen/*.mtx.gz; do n=$(basename $f .gz); [ -f /tmp/u/$n ] || gunzip -c $f > /tmp/u/$n; U+=(--mtx /tmp/u/$n); done
C=()
for f in perf_tests/matrices_third/*.mtx.gz; do n=$(basename $f .gz); [ -f /tmp/c/$n ] || gunzip -c $f > /tmp/c/$n; C+=(--mtx /tmp/c/$n); done
D=()
for f in perf_tests/matrices_fourth/*.mtx.gz; do n=$(basename $f .gz); [ -f /tmp/d/$n ] || gunzip -c $f > /tmp/d/$n; D+=(--mtx /tmp/d/$n); done
E=()
for f in perf_tests/matrices_fifth/*.mtx.gz; do n=$(basename $f .gz); [ -f /tmp/e/$n ] || gunzip -c $f > /tmp/e/$n; E+=(--mtx /tmp/e/$n); done
i=0
for b in ${ROUNDS:-qa}; do i=$((i+1))
  s=$(date +%s)
  case $b in p*) bin=/tmp/w/p/spmv_bench;; l*) bin=/tmp/w/l/spmv_bench;; *) bin=/tmp/w/q/spmv_bench;; esac
  case $b in ?a) set=("${A[@]}");; ?b) set=("${U[@]}");; ?d) set=("${D[@]}");; ?e) set=("${E[@]}");; *) set=("${C[@]}");; esac
  timeout ${PASS_LIMIT:-170} $bin --replicate-to 50000000 --suite none "${set[@]}" --kernels ${KERNELS:-csr} --repeat 10 --json $R/${b}_$i.json > $R/${b}_$i.log 2>&1; echo "$b $i rc $? $(( $(date +%s)-s )) s"
done
gzip $R/*.json
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
