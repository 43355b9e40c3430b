#!/usr/bin/env python3
"""Candidate store-to-load forwarding failures in a binary (a static heuristic).

usage: python3 tools/wall/stlf-scan.py BINARY [WINDOW] | grep 'in spine_anim'

Reads `objdump -d` and reports each load whose bytes overlap a store made within the last
WINDOW instructions (default 40) through the same base and index registers without being
contained in it: a wider or shifted read of bytes just written by narrower stores, which
the CPU cannot forward from its store buffer, so the load waits until the stores reach the
cache (two such places once cost 10-15 % of a spineboy frame). Calls
and returns end the window; jumps do not (the pair may sit in two blocks of one path).
Candidates only: confirm with a time profile (`tools/wall/hot.sh`).
"""
import re
import subprocess
import sys

binary = sys.argv[1]
window = int(sys.argv[2]) if len(sys.argv) > 2 else 40
out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-C", binary],
                     capture_output=True, text=True, check=True).stdout
SIZE = {"movss": 4, "movd": 4, "movsd": 8, "movq": 8, "movlps": 8, "movhps": 8, "movups": 16,
        "movaps": 16, "movdqu": 16, "movdqa": 16, "movapd": 16, "movupd": 16, "mov": None,
        "movl": 4, "movb": 1, "movw": 2}
MEM = re.compile(r"(-?0x[0-9a-f]+)?\((%\w+)(?:,(%\w+),(\d))?\)")
func, recent = None, []
for line in out.splitlines():
    m = re.match(r"^[0-9a-f]+ <(.*)>:", line)
    if m:
        func, recent = m.group(1), []
        continue
    m = re.match(r"^\s+([0-9a-f]+):\s+(\S+)\s+(.*)$", line)
    if not m:
        continue
    addr, op, args = m.groups()
    if op.startswith("call") or op == "ret":
        recent = []
        continue
    parts = [p.strip() for p in re.split(r",(?![^()]*\))", args.split("#")[0].strip())]
    entry = None
    if op in SIZE and len(parts) == 2:
        size = SIZE[op]
        if size is None:  # integer `mov`: the register operand's width
            reg = parts[0] if parts[0].startswith("%") else parts[1]
            size = 4 if reg.startswith("%e") or reg.endswith("d") else 8
        src, dst = MEM.fullmatch(parts[0]), MEM.fullmatch(parts[1])
        if dst and not src:
            entry = (dst.group(2), dst.group(3), int(dst.group(1) or "0", 16), size, addr)
        elif src and not dst:
            base, index, off = src.group(2), src.group(3), int(src.group(1) or "0", 16)
            for e in reversed(recent):
                if not e:
                    continue
                sb, si, so, ss, sa = e
                if sb == base and si == index and off < so + ss and so < off + size:
                    if not (so <= off and off + size <= so + ss):
                        print(f"{addr} {op} {parts[0]:24s} after a {ss}-byte store at {sa} in {func[:110]}")
                    break
    recent = (recent + [entry])[-window:]
