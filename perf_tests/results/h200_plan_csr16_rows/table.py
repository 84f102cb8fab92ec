#!/usr/bin/env python3
"""The Plan of two builds on the same matrices (setup amortised over 100 uses, as summarize.py):
against KokkosKernels' default (geometric mean, lowest), against the run's best kspmv kernel
(every kspmv candidate but the Plan and the plain call, its setup amortised too: how many within
5%), what each chose where they differ, and Csr16Matrix against raw balanced CSR a call.
Usage: python3 table.py NEW.json[.gz] OLD.json[.gz] [NEW2 OLD2 ...]   (pairs of the same matrices)"""
import gzip, json, math, sys

def load(path):
    op = gzip.open if path.endswith('.gz') else open
    by = {}
    for r in json.load(op(path, 'rt'))['results']:
        if r['status'] == 'ok':
            by.setdefault(r['matrix'], {})[r['kernel']] = r
    return by

def geo(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float('nan')

def amortised(r, uses=100):
    return r['seconds'] + r.get('setup_seconds', 0.0) / uses

def best(k):
    return min((amortised(r), n) for n, r in k.items()
               if n.startswith('kspmv:') and n not in ('kspmv:plan', 'kspmv:automatic'))

def chose(k):
    return k['kspmv:plan']['note'].split(';')[0].replace('chose ', '')

def main():
    args = sys.argv[1:]
    for new_path, old_path in zip(args[0::2], args[1::2]):
        new, old = load(new_path), load(old_path)
        ms = [m for m in new if m in old and 'kspmv:plan' in new[m] and 'kspmv:plan' in old[m]]
        print(f"## {new_path.split('/')[-1]} (new) against {old_path.split('/')[-1]} (old): {len(ms)} matrices")
        for name, run in (('new', new), ('old', old)):
            vs_kk = [run[m]['kk:default']['seconds'] / amortised(run[m]['kspmv:plan']) for m in ms]
            vs_best = [(amortised(run[m]['kspmv:plan']) / best(run[m])[0], m) for m in ms]
            within = sum(1 for x, _ in vs_best if x <= 1.05)
            worst = max(vs_best)
            print(f"  {name}: Plan {geo(vs_kk):.3f}x KK default (lowest {min(vs_kk):.2f}x), within 5% of the best kspmv "
                  f"kernel on {within} of {len(ms)} (worst {worst[0]:.3f}x, {worst[1]})")
            for x, m in sorted(vs_best, reverse=True):
                if x > 1.05:
                    print(f"      beyond 5%: {m} {x:.3f}x (best {best(run[m])[1]}, Plan chose {chose(run[m])})")
        ratios = [new[m]['kspmv:csr16']['seconds'] / new[m]['kspmv:raw_csr_balanced']['seconds'] for m in ms
                  if 'kspmv:csr16' in new[m] and 'kspmv:raw_csr_balanced' in new[m]]
        print(f"  Csr16Matrix a call / raw balanced CSR's (new): geometric mean {geo(ratios):.3f}, {min(ratios):.3f}-{max(ratios):.3f}")
        print()
        print("| matrix | entries a row | old chose | new chose | old Plan [us a use] | new Plan [us a use] | new/old | new vs best kspmv | new vs KK default |")
        print("|---|---|---|---|---|---|---|---|---|")
        for m in ms:
            a, b = old[m]['kspmv:plan'], new[m]['kspmv:plan']
            if chose(old[m]) != chose(new[m]):
                print(f"| {m} | {b['nnz']/b['rows']:.1f} | {chose(old[m])} | {chose(new[m])} | {amortised(a)*1e6:.1f} | "
                      f"{amortised(b)*1e6:.1f} | {amortised(b)/amortised(a):.3f} | {amortised(b)/best(new[m])[0]:.3f}x | "
                      f"{new[m]['kk:default']['seconds']/amortised(b):.2f}x |")
        print()


if __name__ == '__main__':
    main()
