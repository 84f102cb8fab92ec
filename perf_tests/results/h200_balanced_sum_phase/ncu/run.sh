# session 33 lab: Nsight Compute of the raw balanced kernel (256 threads, CSR) on matrices at
# 0.88-0.90 of copy bandwidth and on ones at 0.93-0.95. From the repo root on the GPU machine.
set -u
mkdir -p /tmp/w && tar xJf .device-carry/s33.txz -C /tmp/w || exit 1
P=/tmp/w/p/spmv_bench
R=$OUT/rec; mkdir -p $R /tmp/m
export CUDA_MODULE_LOADING=EAGER
nvidia-smi > $R/gpu.txt 2>&1
for spec in ${SPECS:-sherman2:2166 mhd4800a:489 poly_chain.512:1000 EX5:170 t2d_q9:575 bcsstk16:173 lp_fit2p:995}; do
  n=${spec%%:*}; f=perf_tests/matrices/$n.mtx.gz
  if [ -f $f ]; then gunzip -c $f > /tmp/m/$n.mtx; else cp /tmp/w/m/$n.mtx /tmp/m/$n.mtx; fi
  s=$(date +%s)
  timeout 120 ncu --set full --import-source no --clock-control none --kernel-name-base demangled -k "regex:csr_balanced_kernel<.int.32, .int.256.*CsrColumns.*StoredValues" --launch-skip 3 --launch-count 1 -o $R/$n $P --suite none --mtx /tmp/m/$n.mtx:${spec##*:} --kernels csr --repeat 1 > $R/ncu_$n.log 2>&1; echo "ncu $n rc $? $(( $(date +%s)-s )) s"
  ncu --import $R/$n.ncu-rep --page details > $R/$n.txt 2>&1
  ncu --import $R/$n.ncu-rep --page raw --csv > $R/${n}_raw.csv 2>&1
  gzip $R/${n}_raw.csv
done
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
