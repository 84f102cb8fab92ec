"""The lab's time over main's, raw balanced CSR at 256 and 512 threads a block and the Plan, per matrix,
sorted by lines of x an entry (the plain call's analysis, ../h200_real46/choices_replicated.txt; the
suite's seven are not in it). Usage: python3 table.py pool/b_2.json.gz pool/a_1.json.gz"""
import gzip, json, re, sys

def load(path):
    with gzip.open(path, 'rt') if path.endswith('.gz') else open(path) as f:
        return {(r['matrix'], r['kernel']): r for r in json.load(f)['results'] if r['status'] == 'ok'}

lines = {}
for line in open('../h200_real46/choices_replicated.txt'):
    m = re.match(r"(\S+) x\d+ \| avg\s+([\d.]+).*lines/entry ([\d.]+)", line)
    if m:
        lines[m.group(1)] = (float(m.group(2)), float(m.group(3)))
base, lab = load(sys.argv[1]), load(sys.argv[2])
rows = []
for (matrix, kernel), r in base.items():
    if kernel != 'kspmv:plan':
        continue
    average, per_entry = lines.get(matrix.split(' ')[0], (float('nan'), float('nan')))
    ratio = lambda k: lab[(matrix, k)]['seconds'] / base[(matrix, k)]['seconds']
    kk = base[(matrix, 'kk:default')]['seconds']
    best_lab = min(lab[(matrix, k)]['seconds'] for k in ('kspmv:raw_csr_balanced', 'kspmv:raw_csr_balanced_512'))
    rows.append((per_entry, matrix, average, ratio('kspmv:raw_csr_balanced'), ratio('kspmv:raw_csr_balanced_512'),
                 kk / r['seconds'], kk / best_lab))
print('| matrix | lines/entry | average row | raw balanced 256: lab/main | 512: lab/main | Plan vs KK default (main) | best lab raw balanced vs KK default |')
print('|---|---|---|---|---|---|---|')
for per_entry, matrix, average, r256, r512, plan, best in sorted(rows, key=lambda t: (t[0] != t[0], t[0])):
    print(f'| {matrix} | {per_entry:.3f} | {average:.1f} | {r256:.3f} | {r512:.3f} | {plan:.3f} | {best:.3f} |')
