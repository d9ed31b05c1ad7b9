#!/usr/bin/env bash
# The trainer's data arguments for ranges of chunks, in the order given, so that a mix
# recorded in docs/NNUE.md as SET:FIRST:LAST ranges is one command:
#
#     data=$(tools/chunks.sh s7-n5000:0:39 s8-n1250:200:328) && cutoff train $data --out NET ...
#
# prints `--scaled-data data/viri/SET/cK.viri` for K = FIRST..LAST of each range (every set
# from s4 on holds material-scaled scores, hence --scaled-data). A missing chunk is an
# error: a mix must be exactly the one recorded.
set -euo pipefail
cd "$(dirname "$0")/.."
for spec in "$@"; do
    IFS=: read -r set first last <<< "$spec"
    [[ -n $set && $first =~ ^[0-9]+$ && $last =~ ^[0-9]+$ ]] || {
        echo "chunks.sh: '$spec' is not SET:FIRST:LAST" >&2; exit 1; }
    for ((k = first; k <= last; k++)); do
        file=data/viri/$set/c$k.viri
        [[ -f $file ]] || { echo "chunks.sh: $file is missing" >&2; exit 1; }
        echo "--scaled-data $file"
    done
done
