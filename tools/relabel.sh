#!/usr/bin/env bash
# Relabels chunks of a data set: the same games with the scores of another binary's search.
#
#     tools/relabel.sh SET FIRST LAST NODES BINARY [THREADS] [NET]
#
# Writes data/viri/SET@LABEL/cK.viri for K = FIRST..LAST, where LABEL names the labeller:
# the NET file's name without .nnue (`builtin` without NET), BINARY's bench, then -nNODES;
# for example s10-n1250@builtin-b5100660-n5000 for s10-n1250 relabelled at 5,000 nodes by
# a binary of Bench 5100660 (n10 built in).
# Each chunk is `BINARY relabel data/viri/SET/cK.viri --out ... --nodes NODES --threads
# THREADS [--net NET]` (docs/NNUE.md, "Relabelling"): its output depends on the games, the
# node budget and the binary's search and net alone, never on the thread count. A chunk
# already written is skipped, so a stopped run resumes by running the same command again;
# a chunk whose input is damaged (relabel skips the games from the damaged one on) is not
# kept, and the run stops: check the set (tools/check_set.sh) and make the chunk again.
# The new set's scores are Cutoff's search's (material-scaled): train with --scaled-data
# (tools/chunks.sh does).
set -euo pipefail
cd "$(dirname "$0")/.."
SET=${1:?set, e.g. s10-n1250}
FIRST=${2:?first chunk}
LAST=${3:?last chunk}
NODES=${4:?soft nodes per position}
BIN=${5:?binary}
THREADS=${6:-2}
NET=${7:-}
BENCH=$("$BIN" bench 2>/dev/null | tail -1 | awk '{print $1}')
if [[ -n $NET ]]; then
    LABEL=$(basename "$NET" .nnue)-b$BENCH
    NET_FLAGS=(--net "$NET")
else
    LABEL=builtin-b$BENCH
    NET_FLAGS=()
fi
DIR=data/viri/$SET@$LABEL-n$NODES
mkdir -p "$DIR"
for ((k = FIRST; k <= LAST; k++)); do
    in=data/viri/$SET/c$k.viri
    out=$DIR/c$k.viri
    [[ -f $out ]] && continue
    [[ -f $in ]] || { echo "relabel.sh: $in is missing" >&2; exit 1; }
    log=$(mktemp)
    status=0
    "$BIN" relabel "$in" --out "$out" --nodes "$NODES" --threads "$THREADS" \
        "${NET_FLAGS[@]}" 2> "$log" || status=$?
    cat "$log" >&2
    ((status == 0)) || { rm -f "$log"; exit "$status"; }
    if grep -q "skipped with the rest of the file" "$log"; then
        rm -f "$out" "$log"
        echo "relabel.sh: $in is damaged; $out not kept" >&2
        exit 1
    fi
    rm -f "$log"
done
echo "relabel.sh: $DIR holds c$FIRST..c$LAST"
