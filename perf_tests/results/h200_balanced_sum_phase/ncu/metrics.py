#!/usr/bin/env python3
"""Key counters of the raw balanced kernel's profiles in this folder (NAME_raw.csv.gz, ncu --page raw --csv).
python3 metrics.py > metrics.txt"""
import csv, gzip
names = 'sherman2 mhd4800a poly_chain.512 EX5 t2d_q9 bcsstk16 lp_fit2p'.split()
rows = [('gpu__time_duration.sum', 'duration'), ('gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed', 'DRAM % of peak'),
        ('dram__bytes_read.sum', 'DRAM read'), ('lts__throughput.avg.pct_of_peak_sustained_elapsed', 'L2 % of peak'),
        ('l1tex__throughput.avg.pct_of_peak_sustained_active', 'L1 % of peak'),
        ('l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum', 'shared load wavefronts'),
        ('l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum', 'shared store wavefronts'),
        ('l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum', 'shared load bank conflicts'),
        ('smsp__inst_executed.sum', 'warp instructions'), ('sm__warps_active.avg.pct_of_peak_sustained_active', 'occupancy %'),
        ('smsp__average_warp_latency_per_inst_issued.ratio', 'cycles between issues a warp'),
        ('smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio', '  of them long scoreboard'),
        ('smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio', '  short scoreboard'),
        ('smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio', '  barrier')]
data = {}
for n in names:
    r = list(csv.reader(gzip.open(n + '_raw.csv.gz', 'rt')))
    data[n] = {h: (v, u) for h, u, v in zip(r[0], r[1], r[-1])}
print('| counter | ' + ' | '.join(names) + ' |')
print('|---' * (len(names) + 1) + '|')
for key, label in rows:
    print(f'| {label} | ' + ' | '.join(' '.join(data[n].get(key, ('-', ''))) for n in names) + ' |')
