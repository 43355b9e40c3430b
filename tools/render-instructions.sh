#!/bin/bash
# Instructions per render (callgrind) of the four 4.2 rigs of the commands goal in
# BENCHMARKS.md, each posed by 120 frames of its animation and then drawn into render
# commands: (500-render count - 0-render count) / 500. One fixed pose, unlike `skel bench`,
# whose commands figure is counted on the pose its time budget ends on.
# usage: cargo build --release -p spine-anim --example render_profile
#        tools/render-instructions.sh target/release/examples/render_profile
set -eu
BIN=$1
ERR=$(mktemp)
for r in "spineboy spineboy-pro.skel - run" "mix-and-match mix-and-match-pro.skel skin-base walk" \
         "celestial-circus celestial-circus-pro.skel - swing" "tank tank-pro.skel - drive"; do
  set -- $r
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" $1 $2 $3 $4 120 0 >/dev/null 2>"$ERR"
  a=$(grep Collected "$ERR" | awk '{print $4}')
  out=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" $1 $2 $3 $4 120 500 2>"$ERR")
  b=$(grep Collected "$ERR" | awk '{print $4}')
  echo "$1 $(( (${b//,/} - ${a//,/}) / 500 )) | $out"
done
rm -f "$ERR"
