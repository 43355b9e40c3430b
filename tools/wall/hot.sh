#!/bin/bash
# Where the time of one function goes, by instruction: the N instructions with the most
# samples in a `perf record -e cpu-clock` profile (software timer sampling: this VM has no
# hardware counters), each with the six instructions before it. A sample lands on the
# instruction waiting to retire, so a load that stalls (a store-forwarding failure, a cache
# miss) shows as a hot instruction right after it.
# usage: perf record -e cpu-clock -F 20000 -o perf.data target/release/examples/frame_profile \
#            spineboy spineboy-pro.skel - run 400000
#        tools/wall/hot.sh perf.data spine_anim::skeleton::Skeleton::update_world_transform 8
set -eu
D=$1; S=$2; N=${3:-6}
ANN=$(mktemp)
perf annotate -i "$D" --stdio -s "$S" 2>/dev/null | grep -E "^\s+[0-9.]+ :\s+[0-9a-f]+:" > "$ANN"
sort -rn -k1 "$ANN" | head -"$N" | while read -r pct rest; do
  addr=$(echo "$rest" | awk '{print $2}')
  n=$(grep -n " $addr " "$ANN" | head -1 | cut -d: -f1)
  echo "---- $pct % at $addr"
  sed -n "$((n > 6 ? n - 6 : 1)),${n}p" "$ANN" | cut -c1-120
done
rm -f "$ANN"
