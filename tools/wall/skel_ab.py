#!/usr/bin/env python3
"""Paired A/B of one `skel bench` figure between two builds of `skel`.

usage: python3 tools/wall/skel_ab.py REPS SKEL_A SKEL_B CASE METRIC
  CASE:   sb | sbj | mm | mmj | cc | tank (the six cases of tools/cpp-bench/compare.sh)
  METRIC: load_us | frame_ns | commands_ns
e.g.:  python3 tools/wall/skel_ab.py 11 /tmp/skel.old target/release/skel mm load_us

Runs `skel bench --json` of A and of B alternately (order swapped every repetition), each
pinned to core 1 with a 150 ms budget per figure, and prints the medians of the figure and
the median of the per-repetition ratios B/A (below 1: B is faster). The corpus is read from
../shared/fixtures (or SKEL_CORPUS). Ratios within about 1 % of 1 are noise at 11 repetitions.
"""
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.environ.get("SKEL_CORPUS", os.path.join(HERE, "..", "..", "..", "shared", "fixtures"))
C = os.path.join(CORPUS, "spine", "4.2")
CASES = {
    "sb": ("spineboy/spineboy-pro.skel", "spineboy/spineboy.atlas", "run", None),
    "sbj": ("spineboy/spineboy-pro.json", "spineboy/spineboy.atlas", "run", None),
    "mm": ("mix-and-match/mix-and-match-pro.skel", "mix-and-match/mix-and-match.atlas", "walk",
           "skin-base"),
    "mmj": ("mix-and-match/mix-and-match-pro.json", "mix-and-match/mix-and-match.atlas", "walk",
            "skin-base"),
    "cc": ("celestial-circus/celestial-circus-pro.skel", "celestial-circus/celestial-circus.atlas",
           "swing", None),
    "tank": ("tank/tank-pro.skel", "tank/tank.atlas", "drive", None),
}

reps, bins, case, metric = int(sys.argv[1]), sys.argv[2:4], sys.argv[4], sys.argv[5]
skel, atlas, anim, skin = CASES[case]


def run(binary):
    cmd = ["taskset", "-c", "1", binary, "bench", os.path.join(C, skel), "--atlas",
           os.path.join(C, atlas), "--anim", anim, "--budget-ms", "150", "--json"]
    if skin:
        cmd += ["--skin", skin]
    return json.loads(subprocess.check_output(cmd))[metric]


t = {0: [], 1: []}
for i in range(reps):
    for k in ((0, 1) if i % 2 == 0 else (1, 0)):
        t[k].append(run(bins[k]))
ratios = [b / a for a, b in zip(t[0], t[1])]
print(f"{case} {metric}: A {statistics.median(t[0]):.1f} B {statistics.median(t[1]):.1f} "
      f"paired B/A {statistics.median(ratios):.4f}")
