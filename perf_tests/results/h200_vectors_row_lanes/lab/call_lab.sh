#!/usr/bin/env bash
# session 9: several-vector lab (mv_lab.cu); args: matrices
set -u
mkdir -p /tmp/w && tar xJf .device-pack/pack.txz -C /tmp/w
P=/tmp/w/p; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R
nvidia-smi > $R/gpu.txt 2>&1
s=$(date +%s)
timeout ${T:-540} $P/mv_lab "$@" > $R/mv_lab_${TAG:-run}.log 2>&1
echo "rc $? $(( $(date +%s)-s )) s"
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
