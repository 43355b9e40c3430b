#!/bin/bash
# Instructions per frame (callgrind) and the pose checksum of the four 4.2 rigs of the
# frame goals in BENCHMARKS.md: (500-frame count - 0-frame count) / 500. With FIXED
# arguments (put before the count), the same per unit of any example taking
# `<rig> <file> <skin> <anim> FIXED... <count>`: e.g. `render_profile` with 120 (frames
# posing the rig) gives instructions per render of one fixed pose.
# usage: cargo build --release -p spine-anim --example frame_profile
#        tools/frame-instructions.sh target/release/examples/frame_profile
#        tools/frame-instructions.sh target/release/examples/render_profile 120
set -eu
BIN=$1
shift
FIXED=("$@")
ERR=$(mktemp)
for r in "spineboy spineboy-pro.skel - run" "mix-and-match mix-and-match-pro.skel skin-base walk" \
         "celestial-circus celestial-circus-pro.skel - swing" "tank tank-pro.skel - drive"; do
  set -- $r
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" $1 $2 $3 $4 "${FIXED[@]}" 0 \
    >/dev/null 2>"$ERR"
  a=$(grep Collected "$ERR" | awk '{print $4}')
  out=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" $1 $2 $3 $4 "${FIXED[@]}" 500 \
    2>"$ERR")
  b=$(grep Collected "$ERR" | awk '{print $4}')
  echo "$1 $(( (${b//,/} - ${a//,/}) / 500 )) | $out"
done
rm -f "$ERR"
