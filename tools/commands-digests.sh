#!/bin/bash
# A digest of the render commands (`skel commands --play`, JSON with shortest round-trip
# floats) of every 4.2 binary rig of the corpus: its first three animations at two times
# (geometry only where the folder has no atlas). Two builds whose commands differ in one
# bit differ here; speed work keeps this unchanged.
# usage: tools/commands-digests.sh SKEL_BIN > a.txt   (then diff against another build's)
set -euo pipefail
BIN=$1
C=${SKEL_CORPUS:-$(dirname "$0")/../../shared/fixtures}/spine/4.2
for f in "$C"/*/*.skel; do
  atlas=()
  if ! ls "$(dirname "$f")"/*.atlas >/dev/null 2>&1; then atlas=(--no-atlas); fi
  "$BIN" info "$f" --json | python3 -c \
    "import json,sys; [print(a['name'] if isinstance(a, dict) else a) for a in json.load(sys.stdin)['animations'][:3]]" |
  while IFS= read -r a; do
    for t in 0.3 1.1; do
      d=$("$BIN" commands "$f" "${atlas[@]}" --anim "$a" --time $t --play --json | sha1sum | cut -c1-16)
      echo "$(basename "$f") '$a' $t $d"
    done
  done
done
