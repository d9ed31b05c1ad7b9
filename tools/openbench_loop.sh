#!/usr/bin/env bash
# The training loop of README's "Beyond one machine", small, on this machine: the steps an
# OpenBench DATAGEN workload and a bullet run take, with fastchess in place of the
# OpenBench client and `cutoff train` in place of bullet.
#
#     tools/openbench_loop.sh [BINARY] [N_OPENINGS] [GAMES] [NODES] [OUTDIR]
#
#  1. `BINARY "genfens N_OPENINGS seed 1 book None" "quit"`, as the OpenBench client calls it;
#     the `info string genfens` lines become an EPD book.
#  2. fastchess plays GAMES games (each opening once, as DATAGEN does) between two copies of
#     BINARY at NODES nodes a move, writing a PGN whose move comments carry the scores.
#  3. `cutoff convert` turns the PGN into viriformat.
#  4. `cutoff train --scaled-data` (Cutoff reports material-scaled scores) fits a small net
#     (64 hidden units, 20 epochs) on it; its held-out loss
#     is printed beside a constant prediction's and the built-in net's.
#  5. The net is loaded with `setoption name EvalFile` and searched with; the step fails if
#     the engine reports an error.
# Defaults: ./target/release/cutoff, 200 openings, 200 games, 5,000 nodes, logs/loop.
# fastchess is found on PATH or named by FASTCHESS. Everything is written to OUTDIR.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$(realpath "${1:-./target/release/cutoff}")
N_OPENINGS=${2:-200}
GAMES=${3:-200}
NODES=${4:-5000}
OUT=${5:-logs/loop}
FASTCHESS=${FASTCHESS:-fastchess}
command -v "$FASTCHESS" > /dev/null || {
    echo "openbench_loop.sh: no fastchess ('$FASTCHESS'): put it on PATH or set FASTCHESS" >&2
    exit 2
}
mkdir -p "$OUT"
step() { printf '\n== %s (%s)\n' "$1" "$(date -u +%H:%M:%S)"; }

step "1. genfens: $N_OPENINGS openings"
start_ms=$(date +%s%3N)
"$BIN" "genfens $N_OPENINGS seed 1 book None" "quit" > "$OUT/genfens.out"
grep '^info string genfens ' "$OUT/genfens.out" | sed 's/^info string genfens //' \
    > "$OUT/openings.epd"
echo "$(wc -l < "$OUT/openings.epd") positions in $(($(date +%s%3N) - start_ms)) ms" \
    "-> $OUT/openings.epd"
if grep -q 'info string error' "$OUT/genfens.out"; then
    grep 'info string error' "$OUT/genfens.out" >&2
    exit 1
fi

step "2. fastchess: $GAMES games at $NODES nodes a move"
rm -f "$OUT/games.pgn"
"$FASTCHESS" -engine cmd="$BIN" name=cutoff-a -engine cmd="$BIN" name=cutoff-b \
    -each tc=inf nodes="$NODES" option.Threads=1 option.Hash=16 \
    -openings file="$OUT/openings.epd" format=epd order=sequential \
    -rounds "$GAMES" -games 1 -concurrency 2 \
    -pgnout file="$OUT/games.pgn" > "$OUT/fastchess.log" 2>&1
grep -E '^(Games|Elo|Ptnml)|[Ff]ault|illegal|disconnect' "$OUT/fastchess.log" | tail -5 || true

step "3. convert"
"$BIN" convert "$OUT/games.pgn" --out "$OUT/games.viri"

step "4. train"
"$BIN" train --scaled-data "$OUT/games.viri" --out "$OUT/loop.nnue" --hidden 64 --epochs 20 \
    --batch 256 --threads 1 --seed 1 2>&1 | grep -E '^(loaded|held-out|epoch  20|wrote)' 

step "5. EvalFile"
printf 'setoption name EvalFile value %s\nisready\nposition startpos moves e2e4\neval\ngo nodes 20000\nquit\n' \
    "$(realpath "$OUT/loop.nnue")" | "$BIN" > "$OUT/evalfile.out"
grep -E 'info string|Network score|bestmove' "$OUT/evalfile.out"
if grep -q 'info string error' "$OUT/evalfile.out"; then
    echo "openbench_loop.sh: the engine did not load $OUT/loop.nnue" >&2
    exit 1
fi
