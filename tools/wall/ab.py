#!/usr/bin/env python3
"""Wall-time A/B of two builds of the same program on this noisy VM.

usage: python3 tools/wall/ab.py REPS BIN_A BIN_B -- ARGS...
e.g.:  python3 tools/wall/ab.py 21 /tmp/frame_profile.old target/release/examples/frame_profile \
           -- spineboy spineboy-pro.skel - run 100000

Runs A and B alternately (order swapped every repetition), each pinned to core 1, and prints
the medians and minima of the process times and the median of the per-repetition ratios B/A.
The VM switches between fast and slow states from one process to the next (20-50 %); the
paired ratio cancels most of it, the minima show the fast state. Differences below ~2 % are
noise at 21 repetitions.
"""
import statistics
import subprocess
import sys
import time

reps = int(sys.argv[1])
bins = sys.argv[2:4]
args = sys.argv[5:] if sys.argv[4] == "--" else sys.argv[4:]
t = {0: [], 1: []}
for i in range(reps):
    for k in ((0, 1) if i % 2 == 0 else (1, 0)):
        s = time.perf_counter()
        subprocess.run(["taskset", "-c", "1", bins[k]] + args, stdout=subprocess.DEVNULL, check=True)
        t[k].append(time.perf_counter() - s)
r = [b / a for a, b in zip(t[0], t[1])]
print(f"A median {statistics.median(t[0]):.4f} s, min {min(t[0]):.4f} s | "
      f"B median {statistics.median(t[1]):.4f} s, min {min(t[1]):.4f} s | "
      f"B/A paired median {statistics.median(r):.3f}, ratio of minima {min(t[1]) / min(t[0]):.3f}")
