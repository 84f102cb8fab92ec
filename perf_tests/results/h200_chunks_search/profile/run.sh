#!/usr/bin/env bash
# session 24, call 1: (a) branch empty-runs on the GPU (crowd.sh); (b) Nsight Compute of the
# multivector kernels the plain call runs at 8 vectors where per-vector time > 0.5 of rank-1
set -u
mkdir -p /tmp/w && tar xJf .device-carry/crowd.txz -C /tmp/w || exit 1
R=/tmp/rec; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
s=$(date +%s)
timeout 100 /tmp/w/p/mv_tests --gtest_filter='CsrAnalysisTest*:Launch.*' > $R/unit_tests.log 2>&1; echo "tests rc $? $(( $(date +%s)-s )) s"; tail -3 $R/unit_tests.log
for v in new old new old; do
  B=/tmp/w/p/spmv_bench; [ $v = old ] && B=/tmp/w/p/old_spmv_bench
  s=$(date +%s)
  timeout 40 $B --suite none --mtx /tmp/w/m/runs.mtx:100 --kernels plain --repeat 10 --json $R/${v}_runs.json >> $R/${v}_runs.log 2>&1; echo "$v rc $? $(( $(date +%s)-s )) s"
  grep "runs.mtx" $R/${v}_runs.log | tail -2
done
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
echo "ncu: $NCU"
B=/tmp/w/p/spmv_bench
prof() {  # name matrix-args kernel-regex skip
  local name=$1 mat=$2 rx=$3 skip=$4
  s=$(date +%s)
  timeout 150 $NCU --set full --import-source no -k "regex:$rx" --launch-skip $skip --launch-count 1 -o $R/$name -f \
    $B --suite none --mtx $mat --kernels plain --vectors 8 --repeat 3 > $R/$name.log 2>&1
  echo "$name rc $? $(( $(date +%s)-s )) s"
  $NCU --import $R/$name.ncu-rep --page details --print-details all > $R/$name.details.txt 2>&1
  $NCU --import $R/$name.ncu-rep --page raw --csv > $R/$name.raw.csv 2>&1
  $NCU --import $R/$name.ncu-rep --page source --csv --print-source sass > $R/$name.sass.csv 2>&1 || true
  grep -E "Duration|DRAM Throughput|L2 Cache Throughput|Achieved Occupancy|Registers Per" $R/$name.details.txt | head -8
}
prof rajat01_chunks unit_tests/data/rajat01.mtx:2000 multivector_chunks_kernel 6
prof rajat01_balanced unit_tests/data/rajat01.mtx:2000 multivector_balanced_kernel 6
prof arrow_chunks unit_tests/data/arrow.mtx:600 multivector_chunks_kernel 6
prof wikivote_chunks unit_tests/data/wiki-Vote.mtx:1000 multivector_chunks_kernel 6
grep -l WRONG $R/*.log
ls -la $R
tar czf $OUT/rec.tgz -C /tmp rec
