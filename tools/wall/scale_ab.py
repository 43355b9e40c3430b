#!/usr/bin/env python3
"""Paired A/B of the 10,000-instance scale example: two builds, or one build with and without
an environment setting (such as the heap in 2 MiB pages).

usage: python3 tools/wall/scale_ab.py REPS SCALE_A SCALE_B [INSTANCES]
       python3 tools/wall/scale_ab.py REPS SCALE --env GLIBC_TUNABLES=glibc.malloc.hugetlb=1
e.g.:  cargo build --release -p spine-anim --example scale
       python3 tools/wall/scale_ab.py 7 target/release/examples/scale \\
           --env GLIBC_TUNABLES=glibc.malloc.hugetlb=1

Runs A and B alternately (order swapped every repetition), pinned to cores 0 and 1, 60 frames
each, and prints per side the serial and the parallel ns per instance-frame of every run and
the median of the per-repetition ratios B/A (below 1: B is faster). With --env, A is the
binary as is and B the same binary with VAR=VALUE added to its environment. The corpus is read
from ../shared/fixtures (or SKEL_CORPUS).
"""
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.environ.get("SKEL_CORPUS", os.path.join(HERE, "..", "..", "..", "shared", "fixtures"))

args = sys.argv[1:]
if len(args) < 3:
    sys.exit(__doc__)
reps = int(args[0])
if args[2] == "--env":
    var, value = args[3].split("=", 1)
    sides = [(args[1], {}), (args[1], {var: value})]
    instances = args[4] if len(args) > 4 else "10000"
else:
    sides = [(args[1], {}), (args[2], {})]
    instances = args[3] if len(args) > 3 else "10000"


def run(binary, extra):
    env = dict(os.environ, SKEL_CORPUS=CORPUS, **extra)
    out = subprocess.check_output(["taskset", "-c", "0,1", binary, instances, "60"], env=env)
    text = out.decode()
    serial = re.search(r"\((\d+) ns/instance\), parallel", text)
    parallel = re.search(r"parallel [\d.]+ ms/frame \((\d+) ns", text)
    if not serial or not parallel:
        sys.exit(f"unexpected output of {binary}: {text!r}")
    return int(serial.group(1)), int(parallel.group(1))


runs = {0: [], 1: []}
for i in range(reps):
    for k in ((0, 1) if i % 2 == 0 else (1, 0)):
        runs[k].append(run(*sides[k]))
for j, name in ((0, "serial"), (1, "parallel")):
    a = [r[j] for r in runs[0]]
    b = [r[j] for r in runs[1]]
    ratio = statistics.median(y / x for x, y in zip(a, b))
    print(f"{name:8} A {a} ns  B {b} ns  paired B/A {ratio:.3f}")
