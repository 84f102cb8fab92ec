#!/usr/bin/env bash
# session 8, device calls 1-3: mode T labs 2-4; LAB=t_lab2, t_lab3 or t_lab4 (the binary packed under p/)
set -u
LAB=${1:?t_lab2, t_lab3 or t_lab4}
mkdir -p /tmp/w && tar xJf .device-pack/pack.txz -C /tmp/w
P=/tmp/w/p; M=/tmp/w/m
R=$OUT/rec; mkdir -p $R
nvidia-smi > $R/gpu.txt 2>&1
s=$(date +%s)
timeout 400 $P/$LAB $M/bcsstk13.mtx:1000 $M/poly_chain.512.mtx:1000 $M/cage10.mtx:600 $M/Groebner_id2003_aug.mtx:500 $M/wiki-Vote.mtx:1000 $M/rajat01.mtx:2000 \
  $M/lp_fit2p.mtx.gz:0 $M/ScaleMicrogrid_Jacobian_N1000.mtx.gz:0 $M/cti.mtx.gz:0 $M/luxembourg_osm.mtx.gz:0 $M/stocfor3.mtx.gz:0 $M/bayer10.mtx.gz:0 \
  $M/sherman2.mtx.gz:0 $M/mhd4800a.mtx.gz:0 $M/EX5.mtx.gz:0 $M/add32.mtx.gz:0 $M/pilot87.mtx.gz:0 $M/dw8192.mtx.gz:0 $M/lp_nug20.mtx.gz:0 poisson27:200 > $R/${LAB}_run1.log 2>&1
echo "rc $? $(( $(date +%s)-s )) s"
tail -5 $R/${LAB}_run1.log
tar czf $OUT/rec.tgz -C $OUT rec && rm -rf $R
