# python3 table.py [section]: the tables of README.md from the records in this folder.
#   baseline: the committed code (020fc8b) on the H200, time per vector at 8 and 16 vectors against
#             the rank-1 plain call of the same run, and against KokkosKernels' default (four_vectors/*_bv0)
#   minblocks, fourvectors, chunks32, final: the labs and the final code against the code before
#   laneloads: session 15's lab on the H200 (the chunks' entries loaded by every lane of a group)
#   final15: session 15's final code on an H100, time per vector and against KokkosKernels' default
#   ahead: session 15's lab on an H100 (a step's columns, or columns and values, loaded a step ahead)
#   final16: the code of ff845a3 (columns a step ahead) on an H100 against final15's
#   staged: the code of 3eeb0d6 on the H200 (session 16), and LayoutLeft staged row-major around the plain call
#   stagedplain: session 17's plain call staging column-major X and Y where its first call timed it faster, against staged/
#   chunksminb: session 18's lab, the chunks kernel at 5 blocks a multiprocessor (8 vectors a pass) and 4 (16),
#               against main at ee4ef27, two runs of each alternating, the faster of each pair
#   tileout: session 18's lab, the chunks writing a column-major Y through a tile of rows in shared memory and X alone
#            staged (tile_out/*_new) against the code of 4825b3a (*_old), one call on an H200
import glob, gzip, json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
def load(f):
    return {(r['matrix'], r['kernel']): r for r in json.load(gzip.open(os.path.join(here, f + ".gz"), "rt"))['results'] if r.get('status') == 'ok'}
def per_vector(d, key):
    m, k = key
    return d[key]['seconds'] / d[key]['vectors'] / d[(m, 'kspmv:automatic')]['seconds']
def baseline(files=('four_vectors/real_bv0.json', 'four_vectors/large_bv0.json', 'four_vectors/unseen_bv0.json')):
    print('| matrix | call | us | per vector | vs KK default |\n|---|---|---|---|---|')
    for f in files:
        d = load(f)
        for key, r in d.items():
            m, k = key
            if k.startswith('mv') and k.endswith('kspmv:automatic') and not k.startswith('mv4'):
                kk = d.get((m, k.split(':')[0] + ':kk:default'))
                flag = ' **' if per_vector(d, key) > 0.5 and k.startswith('mv8') else ''
                print(f"| {m} | {k.split(':')[0]} | {r['seconds']*1e6:.0f} | {per_vector(d, key):.3f}{flag} | "
                      f"{kk['seconds']/r['seconds']:.2f}x |" if kk else '')
def ab(before, after, only=None):
    print('| matrix | kernel | before us | after us | after/before | per vector after |\n|---|---|---|---|---|---|')
    for key, r in before.items():
        m, k = key
        if key in after and k.startswith('mv') and (only is None or only(k)):
            print(f"| {m} | {k} | {r['seconds']*1e6:.0f} | {after[key]['seconds']*1e6:.0f} | "
                  f"{after[key]['seconds']/r['seconds']:.3f} | {per_vector(after, key):.3f} |")
def plain_or_chunks(k):
    return k.endswith('kspmv:automatic') or k.endswith('raw_chunks') or k.endswith('raw_balanced')
def lab(folder, prefix, variants, note):
    """A lab's runs of variants (run twice, alternating: the faster of each pair) against variant 0."""
    runs = sorted([f[:-3] for f in glob.glob(os.path.join(here, f'{folder}/real_{prefix}*.json.gz'))], key=lambda f: int(f.split('.')[-2]))
    best = lambda ds: {key: min((d[key] for d in ds), key=lambda r: r['seconds']) for key in ds[0]}
    by = {v: best([load(os.path.relpath(f, here)) for f in runs if f'/real_{prefix}{v}.' in f]) for v in '0' + variants}
    print(note)
    last = variants[-1]
    print(f"| matrix | kernel | 0 us | {' | '.join(variants)} | per vector 0 | per vector {last} |\n|" + '---|' * (len(variants) + 5))
    for key, r in by['0'].items():
        m, k = key
        if k.startswith('mv') and plain_or_chunks(k) and not k.endswith('raw_balanced'):
            print(f"| {m} | {k} | {r['seconds']*1e6:.0f} | " + ' | '.join(f"{by[v][key]['seconds']/r['seconds']:.3f}" for v in variants) +
                  f" | {per_vector(by['0'], key):.3f} | {per_vector(by[last], key):.3f} |")
    for v in variants:
        if os.path.exists(os.path.join(here, f'{folder}/unseen_{prefix}{v}.json.gz')):
            print(f'\nperf_tests/matrices replicated to 50M entries, variant {v} against 0:')
            ab(load(f'{folder}/unseen_{prefix}0.json'), load(f'{folder}/unseen_{prefix}{v}.json'), plain_or_chunks)
section = sys.argv[1] if len(sys.argv) > 1 else 'baseline'
if section == 'baseline':
    baseline()
elif section == 'minblocks':
    for v in ('5', '6'):
        print(f'\nKSPMV_LAB_MINB={v} against 4 (4 = the committed code\'s 64 registers for the balanced kernel):')
        ab(load('min_blocks/real_v4.json'), load(f'min_blocks/real_v{v}.json'), plain_or_chunks)
elif section == 'fourvectors':
    ab(load('four_vectors/real_bv0.json'), load('four_vectors/real_bv4.json'), plain_or_chunks)
    ab(load('four_vectors/unseen_bv0.json'), load('four_vectors/unseen_bv4.json'), plain_or_chunks)
elif section == 'chunks32':
    runs = sorted([f[:-3] for f in glob.glob(os.path.join(here, 'chunks32/real_c*.json.gz'))], key=lambda f: int(f.split('.')[-2]))
    old = [load(os.path.relpath(f, here)) for f in runs if '/real_c0' in f]
    new = [load(os.path.relpath(f, here)) for f in runs if '/real_c1' in f]
    print('(two runs of each, alternating; the faster of each pair)')
    best = lambda ds: {key: min((d[key] for d in ds), key=lambda r: r['seconds']) for key in ds[0]}
    ab(best(old), best(new), plain_or_chunks)
    ab(load('chunks32/unseen_c0.json'), load('chunks32/unseen_c1.json'), plain_or_chunks)
elif section == 'final':
    runs = sorted([f[:-3] for f in glob.glob(os.path.join(here, 'chunks32/real_c0*.json.gz'))])
    ab(load(os.path.relpath(runs[0], here)), load('final/real.json'), plain_or_chunks)
    ab(load('chunks32/unseen_c0.json'), load('final/unseen.json'), plain_or_chunks)
    ab(load('four_vectors/large_bv0.json'), load('final/large.json'), plain_or_chunks)
elif section == 'laneloads':
    lab('lane_loads', 'l', '123', "(KSPMV_LAB_LOADS 0: shuffles, the code before; 1: one load an entry; 2: 16-byte pieces; 3: pieces and\n"
        " a 32-bit row stride; 0 and 3 run twice, alternating, the faster of each pair; time / variant 0's)")
elif section == 'final15':
    baseline(('final15/real.json', 'final15/large.json', 'final15/unseen.json'))
elif section == 'final16':
    for f in ('real', 'unseen', 'large'):
        ab(load(f'final15/{f}.json'), load(f'final16/{f}.json'), plain_or_chunks)
    baseline(('final16/real.json', 'final16/large.json', 'final16/unseen.json'))
elif section == 'ahead':
    lab('ahead', 'a', '12', "(KSPMV_LAB_AHEAD 0: the committed kernel; 1: columns a step ahead; 2: columns and values; each run\n"
        " twice, alternating, the faster of each pair; time / variant 0's)")
elif section == 'staged':
    print('The code of 3eeb0d6 on the H200 (time per vector against the rank-1 plain call, against KokkosKernels\' default):')
    baseline(('staged/real.json', 'staged/large.json', 'staged/unseen.json'))
    print('\nLayoutLeft staged row-major around the plain call (kspmv:staged_row_major) against the plain call:')
    print('| matrix | vectors | plain us | staged us | staged/plain | per vector plain | per vector staged |\n|---|---|---|---|---|---|---|')
    for f in ('staged/real.json', 'staged/unseen.json'):
        d = load(f)
        for (m, k), r in d.items():
            if k.endswith('L:kspmv:staged_row_major'):
                plain = (m, k.split(':')[0] + ':kspmv:automatic')
                print(f"| {m} | {k.split(':')[0]} | {d[plain]['seconds']*1e6:.0f} | {r['seconds']*1e6:.0f} | "
                      f"{r['seconds']/d[plain]['seconds']:.3f} | {per_vector(d, plain):.3f} | {per_vector(d, (m, k)):.3f} |")
elif section == 'stagedplain':
    print('The plain call staging column-major X and Y where timed faster (staged_plain/) against the code of 3eeb0d6 (staged/):')
    for f in ('real', 'large', 'unseen'):
        ab(load(f'staged/{f}.json'), load(f'staged_plain/{f}.json'), lambda k: k.endswith('kspmv:automatic'))
    print()
    baseline(('staged_plain/real.json', 'staged_plain/large.json', 'staged_plain/unseen.json'))
elif section == 'tileout':
    print('The chunks writing a column-major Y through a tile of rows in shared memory, X alone staged (new), against 4825b3a (old):')
    print('(the new code\'s LayoutLeft calls on ca-CondMat and p2p-Gnutella09 gave wrong results: the chunks ran on X as given)')
    for f in ('real', 'unseen'):
        ab(load(f'tile_out/{f}_old.json'), load(f'tile_out/{f}_new.json'), lambda k: k.endswith('kspmv:automatic'))
elif section == 'chunksminb':
    best = lambda ds: {key: min((d[key] for d in ds), key=lambda r: r['seconds']) for key in ds[0] if all(key in d for d in ds)}
    for f in ('real', 'unseen'):
        ab(best([load(f'chunks_min_blocks/{f}_old_{i}.json') for i in (1, 2)]),
           best([load(f'chunks_min_blocks/{f}_lab_{i}.json') for i in (1, 2)]), lambda k: k.endswith('kspmv:automatic'))
