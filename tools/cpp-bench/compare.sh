#!/bin/bash
# Same-session, interleaved comparison of `skel bench` with spine-cpp 4.2 (see README.md).
# usage: tools/cpp-bench/compare.sh SKEL_BIN CPP_BENCH_BIN [REPS] [BUDGET_S] > out.txt
#        python3 tools/cpp-bench/summary.py out.txt
# ONLY=PATTERN runs only the cases whose skeleton path contains PATTERN (e.g. ONLY=tank).
set -eu
SKEL=$1; CPP=$2; REPS=${3:-15}; B=${4:-0.3}
C=${SKEL_CORPUS:-$(dirname "$0")/../../../shared/fixtures}/spine/4.2
MS=$(python3 -c "print(int($B*1000))")
cases=(
 "spineboy/spineboy-pro.skel spineboy/spineboy.atlas run -"
 "spineboy/spineboy-pro.json spineboy/spineboy.atlas run -"
 "mix-and-match/mix-and-match-pro.skel mix-and-match/mix-and-match.atlas walk skin-base"
 "mix-and-match/mix-and-match-pro.json mix-and-match/mix-and-match.atlas walk skin-base"
 "celestial-circus/celestial-circus-pro.skel celestial-circus/celestial-circus.atlas swing -"
 "tank/tank-pro.skel tank/tank.atlas drive -"
)
for c in "${cases[@]}"; do
  set -- $c
  case "$1" in *"${ONLY:-}"*) ;; *) continue ;; esac
  for _ in $(seq "$REPS"); do
    cpp=$(taskset -c 1 "$CPP" "$C/$1" "$C/$2" "$3" "$4" "$B")
    if [ "$4" = "-" ]; then sk=(); else sk=(--skin "$4"); fi
    ours=$(taskset -c 1 "$SKEL" bench "$C/$1" --atlas "$C/$2" --anim "$3" "${sk[@]}" --budget-ms "$MS" --json)
    echo "$1 cpp $cpp"
    echo "$1 ours $ours"
  done
done
