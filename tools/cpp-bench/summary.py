"""Summarises compare.sh output: medians and minima of both runtimes per case and metric,
their ratios, and the paired median (the median of the per-repetition ratios, each ours /
the spine-cpp run just before it, which cancels most of the VM's drift between processes).

usage: python3 tools/cpp-bench/summary.py out.txt
"""
import collections
import json
import statistics
import sys

METRICS = ('load_us', 'frame_ns', 'commands_ns')
d = collections.defaultdict(lambda: collections.defaultdict(list))
paired = collections.defaultdict(list)
last = {}
for line in open(sys.argv[1]):
    parts = line.split(' ', 2)
    if len(parts) < 3:
        continue
    f, who, js = parts
    try:
        v = json.loads(js)
    except Exception:
        continue
    for k in METRICS:
        if k in v:
            d[(f, k)][who].append(v[k])
    if who == 'cpp':
        last[f] = v
    elif f in last:
        for k in METRICS:
            if k in v and k in last[f]:
                paired[(f, k)].append(v[k] / last[f][k])
print("| case | metric | spine-cpp median / min | ours median / min | ratio of medians "
      "| ratio of minima | paired median |")
print("|---|---|---:|---:|---:|---:|---:|")
for (f, k), w in d.items():
    if not w['cpp'] or not w['ours']:
        continue
    c = statistics.median(w['cpp'])
    o = statistics.median(w['ours'])
    cm = min(w['cpp'])
    om = min(w['ours'])
    p = paired.get((f, k))
    ps = f"{statistics.median(p):.3f}" if p else "–"
    print(f"| {f} | {k} | {c:.1f} / {cm:.1f} | {o:.1f} / {om:.1f} | {o/c:.2f} | {om/cm:.2f} | {ps} |")
