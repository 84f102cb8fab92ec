# python3 make_runs.py OUT.mtx: 20000 rows of 24 entries, then a run of 60000 empty rows, square
# (80000 x 80000): a matrix whose balanced partition gives one block the whole run; run.sh
# replicates it 100 times (8 million rows, 48 million entries).
import sys
rows_full, per, empty = 20000, 24, 60000
m = rows_full + empty
with open(sys.argv[1], 'w') as f:
    f.write('%%MatrixMarket matrix coordinate real general\n')
    f.write('%d %d %d\n' % (m, m, rows_full * per))
    for i in range(rows_full):
        for k in range(per):
            f.write('%d %d %d\n' % (i + 1, (i + 37 * k) % rows_full + 1, 1 + (i + k) % 5))
