#!/usr/bin/env python3
"""Writes the seed inputs of fuzz/regressions/<target>/ from the project's own fixtures
(crates/skel-cli/demo, fixtures/spine-4.3; never the licensed corpus). Inputs a fuzz run finds are
added beside them by hand (`cp fuzz/artifacts/<target>/crash-… fuzz/regressions/<target>/
<what-it-found>`); this script only (re)writes the files named `seed-*`.

usage: python3 fuzz/regressions/make-seeds.py   (from the repository root)
"""
import io, json, os, struct, zipfile

ROOT = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(ROOT, "..", "..", "fixtures")

def read(*p):
    with open(os.path.join(FIX, *p), "rb") as f:
        return f.read()

def put(target, name, data):
    d = os.path.join(ROOT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "seed-" + name), "wb") as f:
        f.write(data)

def framed(*parts):
    """cli_render's framing: [u16 LE length][part] ... then the page bytes unframed."""
    out = b""
    for p in parts[:-1]:
        out += struct.pack("<H", len(p)) + p
    return out + parts[-1]

DEMO = ("..", "crates", "skel-cli", "demo")
demo_json, demo_atlas, demo_png = (read(*DEMO, n) for n in ("demo.json", "demo.atlas", "demo.png"))
sliders, draw_order, physics = (read("spine-4.3", n) for n in ("sliders.skel", "draw-order.skel", "physics.skel"))
constraints = read("spine-4.3", "constraints.skel")

# Atlases: the demo's, and one with hostile numbers (negative and huge sizes, odd rotation).
put("atlas_parse", "demo.atlas", demo_atlas)
put("atlas_parse", "hostile-numbers.atlas",
    b"page.png\nsize: -5, 99999999999\nfilter: Linear, Linear\n"
    b"r\n  rotate: 725\n  xy: -1, -1\n  size: 2147483647, 3\n  offsets: 1, 2, -3, -4\n")

# Binary: whole 4.3 files, truncated ones, and a header whose string count overruns.
put("binary_parse", "sliders.skel", sliders)
put("binary_parse", "physics-truncated.skel", physics[: len(physics) // 2])
put("binary_parse", "constraints-truncated-header.skel", constraints[:40])
put("binary_roundtrip", "sliders.skel", sliders)
put("binary_roundtrip", "draw-order.skel", draw_order)
put("load_and_pose", "physics.skel", physics)
put("load_and_pose", "constraints.skel", constraints)

# JSON: the demo rig, a sequence played onceReverse from a huge index (an overflow once
# found by json_physics_sequences), and deep nesting.
put("json_parse", "demo.json", demo_json)
seq = {
    "skeleton": {"spine": "4.2.40"},
    "bones": [{"name": "root"}],
    "slots": [{"name": "s", "bone": "root", "attachment": "r"}],
    "skins": [{"name": "default", "attachments": {"s": {"r": {
        "width": 1, "height": 1,
        "sequence": {"count": 2147483647, "start": 2147483647, "digits": 4, "setup": -1}}}}}],
    "animations": {"a": {"attachments": {"default": {"s": {"r": {"sequence": [
        {"time": 0, "mode": "onceReverse", "index": 2147483647, "delay": 1e-30}]}}}}}},
}
put("json_parse", "sequence-once-reverse-huge.json", json.dumps(seq).encode())
put("json_parse", "deep-nesting.json", b"[" * 5000 + b"]" * 5000)

# Structure-aware physics/sequence fuzzer: its bytes choose numbers (all zeros, all 0xff,
# and a pattern picking extreme values).
put("json_physics_sequences", "zeros", bytes(64))
put("json_physics_sequences", "ones", b"\xff" * 64)
put("json_physics_sequences", "extremes", bytes(range(0, 256, 3)) * 2)

# The CLI path: the demo rig with its atlas and page; a 4.3 binary with no atlas.
put("cli_render", "demo", framed(demo_json, demo_atlas, demo_png))
put("cli_render", "sliders-no-atlas", framed(sliders, b"", b""))

# SkelForm: a bare armature.json with a bone, an animation and a mesh; the same in a zip.
arm = {
    "version": "0.7.0",
    "bones": [{"id": 0, "name": "root", "parent_id": -1},
              {"id": 1, "name": "arm", "parent_id": 0, "pos": {"x": 10, "y": 0}, "rot": 0.5}],
    "animations": [{"id": "0", "name": "wave", "fps": 30, "keyframes": [
        {"frame": 0, "bone_id": 1, "element": "Rotation", "value": 0},
        {"frame": 20, "bone_id": 1, "element": "Rotation", "value": 3.14}]}],
}
arm_bytes = json.dumps(arm).encode()
put("skelform_load", "armature.json", arm_bytes)
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w") as z:
    z.writestr("armature.json", arm_bytes)
put("skelform_load", "armature.skf", buf.getvalue())
