import sys, json, collections, statistics
d = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    parts = line.split(' ', 2)
    if len(parts) < 3: continue
    f, who, js = parts
    try: v = json.loads(js)
    except Exception: continue
    for k in ('load_us', 'frame_ns', 'commands_ns'):
        d[(f, k)][who].append(v[k])
print("| case | metric | spine-cpp median / min | ours median / min | ratio of medians | ratio of minima |")
print("|---|---|---:|---:|---:|---:|")
for (f, k), w in d.items():
    c = statistics.median(w['cpp']); o = statistics.median(w['ours'])
    cm = min(w['cpp']); om = min(w['ours'])
    print(f"| {f} | {k} | {c:.1f} / {cm:.1f} | {o:.1f} / {om:.1f} | {o/c:.2f} | {om/cm:.2f} |")
