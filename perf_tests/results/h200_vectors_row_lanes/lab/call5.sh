#!/usr/bin/env bash
# session 9, call 5: lab 3 (k = 4: lanes one-pass vs general vs row lanes; uniform random, bcsstk13, lp_dfl001, ca-CondMat), then run21.sh (46 unseen at 8 vectors)
set -u
mkdir -p /tmp/w && tar xJf .device-pack/pack.txz -C /tmp/w
P=/tmp/w/p
mkdir -p $OUT/rec
s=$(date +%s)
timeout 120 $P/mv_lab urand:16 $P/real/bcsstk13.mtx:1000 perf_tests/matrices/lp_dfl001.mtx.gz:0 perf_tests/matrices/ca-CondMat.mtx.gz:0 > $OUT/rec/mv_lab_3.log 2>&1; echo "lab rc $? $(( $(date +%s)-s )) s"
cp -r $OUT/rec /tmp/rec_lab
bash .device-pack/run21.sh
mkdir -p $OUT/rec && cp /tmp/rec_lab/* $OUT/rec/ && tar xzf $OUT/rec.tgz -C $OUT && tar czf $OUT/rec.tgz -C $OUT rec
