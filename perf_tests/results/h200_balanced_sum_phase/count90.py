#!/usr/bin/env python3
"""The plain call (kspmv:automatic) at >= 90% of copy bandwidth by the CSR byte model, on the
matrices over 200 MB of CSR, in each run given.  python3 count90.py RUN.json.gz..."""
import gzip, json, sys
for path in sys.argv[1:]:
    fr = [r['frac_copy_bw'] for r in json.load(gzip.open(path))['results']
          if r['kernel'] == 'kspmv:automatic' and r['nnz'] * 12 > 200e6 and r.get('frac_copy_bw')]
    print(f"{path}: {sum(1 for f in fr if f >= 0.9)} of {len(fr)}")
