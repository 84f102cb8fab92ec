# python3 make_runs.py OUT.mtx [LONG]: 20000 rows of 24 entries, then a run of 60000 empty rows,
# square (80000 x 80000): a matrix whose balanced partition gives one block the whole run; run.sh
# replicates it 100 times (8 million rows, 48 million entries). With LONG, the first row holds LONG
# entries instead of 24 (columns spread over all 80000), too long for the lanes kernels.
import sys
rows_full, per, empty = 20000, 24, 60000
long_row = int(sys.argv[2]) if len(sys.argv) > 2 else per
m = rows_full + empty
with open(sys.argv[1], 'w') as f:
    f.write('%%MatrixMarket matrix coordinate real general\n')
    f.write('%d %d %d\n' % (m, m, rows_full * per - per + long_row))
    for i in range(rows_full):
        if i == 0 and long_row != per:
            for k in range(long_row):
                f.write('%d %d %d\n' % (1, (k * m) // long_row + 1, 1 + k % 5))
            continue
        for k in range(per):
            f.write('%d %d %d\n' % (i + 1, (i + 37 * k) % rows_full + 1, 1 + (i + k) % 5))
