#!/usr/bin/env bash
# session 28 lab: the Plan's analysis by parts (alab.cpp built as README.md says, stripped, in a28.txz under .device-carry as a/alab), 4 replicated real matrices, one H200. From the repository root on the GPU machine ($OUT set): bash run.sh
set -u
mkdir -p /tmp/w /tmp/m && tar xJf .device-carry/a28.txz -C /tmp/w || exit 1
R=$OUT/rec; mkdir -p $R
nvidia-smi > $R/gpu.txt 2>&1
for n in Franz6_id1959_aug commanche_dual luxembourg_osm; do gunzip -c perf_tests/matrices/$n.mtx.gz > /tmp/m/$n.mtx; done
timeout 120 /tmp/w/a/alab /tmp/m/Franz6_id1959_aug.mtx 1032 /tmp/m/commanche_dual.mtx 1579 /tmp/m/luxembourg_osm.mtx 209 unit_tests/data/bcsstk13.mtx 1000 > $R/alab.log 2>&1; echo "rc $?"; cat $R/alab.log | grep -v "^Kokkos" | tail -8
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
