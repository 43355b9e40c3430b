"""Per-call instruction counts of the same work in spine-cpp 4.2 and in `skel bench`.

usage: python3 instructions.py CPP_CALLGRIND_OUT OURS_CALLGRIND_OUT

Reads two callgrind outputs (see README.md: one of the C++ harness, one of `skel bench`, same
case), takes each listed function's inclusive instruction count from `callgrind_annotate
--inclusive=yes` and divides it by the number of calls recorded in the file, and prints
load / frame / commands per call for both runtimes and their ratio. Instruction counts do not
drift with the VM's fast and slow states the way wall time does.
"""
import collections
import re
import subprocess
import sys

# Work item -> (spine-cpp functions, our functions), exact names; a frame is the sum of its four calls.
ITEMS = {
    "load": (["spine::SkeletonBinary::readSkeletonDataFile(spine::String const&)",
              "spine::SkeletonJson::readSkeletonDataFile(spine::String const&)",
              "spine::Atlas::Atlas(spine::String const&, spine::TextureLoader*, bool)"],
             ["skel::pose::load_rig"]),
    "frame": (["spine::AnimationState::update(float)", "spine::AnimationState::apply(spine::Skeleton&)",
               "spine::Skeleton::update(float)", "spine::Skeleton::updateWorldTransform(spine::Physics)"],
              ["spine_anim::state::AnimationState::update", "spine_anim::state::AnimationState::apply",
               "spine_anim::skeleton::Skeleton::update", "spine_anim::skeleton::Skeleton::update_world_transform"]),
    "commands": (["spine::SkeletonRenderer::render(spine::Skeleton&)"],
                 ["spine_anim::render::SkeletonRenderer::render"]),
}


def calls(path):
    """Calls per function name, summed over every call site in the file."""
    names, counts, cfn = {}, collections.Counter(), None
    for line in open(path):
        m = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?$", line.strip())
        if m:
            kind, i, name = m.groups()
            if name:
                names[i] = name
            if kind == "cfn":
                cfn = i
            continue
        m = re.match(r"^calls=(\d+)", line)
        if m and cfn:
            counts[cfn] += int(m.group(1))
    return {names[i]: c for i, c in counts.items() if i in names}


def inclusive(path):
    """Inclusive instructions per function name (largest entry when a name repeats)."""
    out = subprocess.run(["callgrind_annotate", "--inclusive=yes", path],
                         capture_output=True, text=True, check=True).stdout
    cost = {}
    for line in out.splitlines():
        m = re.match(r"^\s*([\d,]+) \([^)]*\)\s+(?:[^:]*:)?(.*?)(?: \[.*\])?$", line)
        if m:
            n = int(m.group(1).replace(",", ""))
            name = m.group(2)
            cost[name] = max(cost.get(name, 0), n)
    return cost


def per_call(path, names):
    c, inc = calls(path), inclusive(path)
    total = 0.0
    for name in names:
        k = c.get(name, 0)
        if k:  # absent when inlined into its caller (ours: `Skeleton::update`, a clock step)
            total += inc.get(name, 0) / k
    return total


cpp, ours = sys.argv[1], sys.argv[2]
print("| work | spine-cpp 4.2 instr/call | ours instr/call | ratio |")
print("|---|---:|---:|---:|")
for item, (cp, op) in ITEMS.items():
    a, b = per_call(cpp, cp), per_call(ours, op)
    ratio = f"{b / a:.2f}" if a else "–"
    print(f"| {item} | {a:,.0f} | {b:,.0f} | {ratio} |")
