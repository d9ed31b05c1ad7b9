#!/usr/bin/env bash
# Self-play data for the network, in resumable chunks.
#
#     tools/datagen.sh SEED FIRST_CHUNK LAST_CHUNK [NODES] [THREADS] [BINARY] [EVAL]
#
# Chunk k holds games k*500 .. k*500+499 of seed SEED, played by `cutoff datagen --format viri
# --nodes NODES` (default 5000), and is written to data/viri/s<SEED>-n<NODES>/c<k>.viri. A chunk
# is written to a .part file and renamed when complete, so a run that is killed redoes at most
# the chunk it was in: run the same command again to resume. The games depend only on the
# seed, the node budget, the game numbers and the binary's search (its Bench), never on the
# thread count; docs/NNUE.md records which binary made which chunks. EVAL is `builtin` (the
# default: the binary's own evaluation), `hce` (the hand-crafted one) or a network file.
set -euo pipefail
cd "$(dirname "$0")/.."
SEED=${1:?seed}
FIRST=${2:?first chunk}
LAST=${3:?last chunk}
NODES=${4:-5000}
THREADS=${5:-2}
BIN=${6:-./target/release/cutoff}
EVAL=${7:-builtin}
case $EVAL in
    builtin) EVAL_FLAGS=() ;;
    hce) EVAL_FLAGS=(--hce) ;;
    *) EVAL_FLAGS=(--net "$EVAL") ;;
esac
GAMES=500
DIR=data/viri/s${SEED}-n${NODES}
mkdir -p "$DIR"
for ((k = FIRST; k <= LAST; k++)); do
    out=$DIR/c$k.viri
    [[ -f $out ]] && continue
    rm -f "$out.part"
    "$BIN" datagen --format viri --games $GAMES --first-game $((k * GAMES)) --nodes "$NODES" \
        --threads "$THREADS" --seed "$SEED" "${EVAL_FLAGS[@]}" --out "$out.part"
    mv "$out.part" "$out"
done
