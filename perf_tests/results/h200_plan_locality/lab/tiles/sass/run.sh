#!/usr/bin/env bash
# session 22: SASS of the raw balanced CSR kernel (double, int, int, CsrColumns, 256 threads,
# beta 0, one launch) of main (f08b058) and of the tiles lab (h200_plan_locality/lab/tiles/
# tiles.patch), compiled here with nvcc -cubin -arch=sm_90: registers, uniform registers and
# instruction counts, to see what the tile loop costs
set -u
mkdir -p /tmp/s $OUT/sass && tar xzf .device-carry/sass.tgz -C /tmp/s || exit 1
F=_ZN5kspmv4impl3raw19csr_balanced_kernelILi32ELi256ELb1ELb1EdiiNS1_10CsrColumnsIiEEdEEvllPKT4_PKT5_T6_PKT7_PKT3_PSF_SI_SI_PiSF_SF_
CO=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
for v in main tiles; do
  $CO -res-usage /tmp/s/$v.cubin 2>&1 | grep -A1 "$F" > $OUT/sass/${v}_res.txt
  $CO -sass -fun "$F" /tmp/s/$v.cubin > $OUT/sass/${v}.sass 2>&1
  echo "$v: $(grep -c '/\*[0-9a-f]*\*/' $OUT/sass/${v}.sass) instructions, UR uses $(grep -o 'UR[0-9]*' $OUT/sass/${v}.sass | wc -l), distinct UR $(grep -o 'UR[0-9]*' $OUT/sass/${v}.sass | sort -u | wc -l), distinct R $(grep -o '\bR[0-9]*\b' $OUT/sass/${v}.sass | sort -u | wc -l), spills $(grep -c 'STL\|LDL' $OUT/sass/${v}.sass)"
  cat $OUT/sass/${v}_res.txt
done
gzip $OUT/sass/*.sass
