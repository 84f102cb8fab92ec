#!/usr/bin/env python3
"""Per matrix: the new binary's time over the old one's (means of each binary's rounds), for a
kernel, with the average row (../h200_balanced_sum_phase/xloc.json), raw balanced CSR's share
of copy bandwidth in the old and new rounds, and the plain call's notes.

  python3 table.py DIR KERNEL NEW_RUNS OLD_RUNS
  e.g. python3 table.py lab kspmv:raw_csr_balanced p_2,p_3 q_1,q_4
"""
import gzip, json, math, os, sys

here = os.path.dirname(os.path.abspath(__file__))
xloc = json.load(open(os.path.join(here, '..', 'h200_balanced_sum_phase', 'xloc.json')))
folder, kernel, new_runs, old_runs = sys.argv[1], sys.argv[2], sys.argv[3].split(','), sys.argv[4].split(',')


def load(run):
    d = json.load(gzip.open(os.path.join(folder, run + '.json.gz')))
    return {(r['matrix'], r['kernel']): r for r in d['results']}


new = [load(r) for r in new_runs]
old = [load(r) for r in old_runs]


def mean(runs, key, field='seconds'):
    v = [r[key][field] for r in runs if key in r and r[key]['seconds'] > 0]
    return sum(v) / len(v) if v else float('nan')


rows = []
for (matrix, k) in old[0]:
    if k != kernel:
        continue
    t_new, t_old = mean(new, (matrix, k)), mean(old, (matrix, k))
    avg = xloc.get(matrix.split(' ')[0], {}).get('avg_row', float('nan'))
    bal = (matrix, 'kspmv:raw_csr_balanced')
    rows.append((avg, matrix, t_old * 1e6, t_new * 1e6, t_new / t_old, mean(old, bal, 'frac_copy_bw'),
                 mean(new, bal, 'frac_copy_bw'), new[0].get((matrix, 'kspmv:automatic'), {}).get('note', '')[:70]))
rows.sort()
print('| avg row | matrix | old [us] | new [us] | new/old | raw balanced frac old | new | plain call (new) |')
print('|---|---|---|---|---|---|---|---|')
for r in rows:
    print('| %.1f | %s | %.0f | %.0f | %.3f | %.3f | %.3f | %s |' % r)
ratios = [r[4] for r in rows if r[4] == r[4]]
print('\ngeometric mean new/old over %d: %.3f' % (len(ratios), math.exp(sum(map(math.log, ratios)) / len(ratios))))
print('raw balanced CSR >= 0.90 of copy bandwidth: old %d, new %d of %d' %
      (sum(r[5] >= 0.9 for r in rows), sum(r[6] >= 0.9 for r in rows), len(rows)))
