#!/usr/bin/env bash
# session 14, the code of a293676: the port of KokkosKernels' spmv unit tests (kspmv_kokkoskernels_port_tests)
# on Cuda and Serial, on the H200
set -u
mkdir -p /tmp/w && tar xJf .device-carry/tests.txz -C /tmp/w || exit 1
P=/tmp/w/p
R=$OUT/rec; mkdir -p $R
export CUDA_MODULE_LOADING=EAGER KSPMV_TEST_DATA_DIR=$PWD/unit_tests/data
nvidia-smi > $R/gpu.txt 2>&1
s=$(date +%s)
timeout 400 $P/kspmv_kokkoskernels_port_tests > $R/kokkoskernels_port_tests.log 2>&1; echo "port rc $? $(( $(date +%s)-s )) s"
tail -3 $R/kokkoskernels_port_tests.log

grep -E "FAILED|Failure" $R/*.log | head -5
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
