#!/bin/bash
# Instruction ratios (callgrind) of `skel bench` against spine-cpp 4.2 on the six cases of
# compare.sh. spine-cpp's callgrind outputs are made once (they do not change) and reused.
# usage: tools/cpp-bench/instructions-all.sh SKEL_BIN CPP_BENCH_BIN [OUT_DIR]
#   (OUT_DIR defaults to /tmp; cpp outputs are OUT_DIR/cg_cpp_<case>, ours OUT_DIR/cg_ours_<case>)
set -eu
SKEL=$1; CPP=$2; OUT=${3:-/tmp}
C=${SKEL_CORPUS:-$(dirname "$0")/../../../shared/fixtures}/spine/4.2
HERE=$(dirname "$0")
run() { # tag skel atlas anim skin
  if [ "$5" = "-" ]; then sk=(); else sk=(--skin "$5"); fi
  if [ ! -s "$OUT/cg_cpp_$1" ]; then
    valgrind --tool=callgrind --callgrind-out-file="$OUT/cg_cpp_$1" "$CPP" "$C/$2" "$C/$3" "$4" "$5" 0.3 \
      >/dev/null 2>&1
  fi
  valgrind --tool=callgrind --callgrind-out-file="$OUT/cg_ours_$1" "$SKEL" bench "$C/$2" --atlas "$C/$3" \
    --anim "$4" "${sk[@]}" --budget-ms 300 --json >/dev/null 2>&1
  echo "== $1"
  python3 "$HERE/instructions.py" "$OUT/cg_cpp_$1" "$OUT/cg_ours_$1" | tail -3
}
run sb spineboy/spineboy-pro.skel spineboy/spineboy.atlas run -
run sbjson spineboy/spineboy-pro.json spineboy/spineboy.atlas run -
run mm mix-and-match/mix-and-match-pro.skel mix-and-match/mix-and-match.atlas walk skin-base
run mmjson mix-and-match/mix-and-match-pro.json mix-and-match/mix-and-match.atlas walk skin-base
run cc celestial-circus/celestial-circus-pro.skel celestial-circus/celestial-circus.atlas swing -
run tank tank/tank-pro.skel tank/tank.atlas drive -
