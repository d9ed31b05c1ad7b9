#!/usr/bin/env bash
# One check of the UCI_Elo table (docs/STRENGTH.md, "Strength limit"): Cutoff at setting N
# against Stockfish 15.1 at UCI_Elo M (usually M = N).
#
#     tools/knot.sh BINARY N [M] [TC] [SEED]
#
# 100 games (50 openings of 8moves_v3.epd, colours swapped), seed 11, 1 thread and 16 MiB
# each, concurrency 2, time control 2+0.02 by default (5+0.05 from 2200 up, 10+0.1 for the
# top). Stockfish is STOCKFISH (default: `stockfish` on PATH). Play it on two otherwise
# idle cores. Results go to logs/knot-N-vs-M-TC-sSEED.{pgn,log}.
set -euo pipefail
BIN=${1:?binary}
N=${2:?setting}
M=${3:-$N}
TC=${4:-2+0.02}
SEED=${5:-11}
"$(dirname "$0")/logged_match.sh" "knot-$N-vs-$M-$TC-s$SEED" "$SEED" 100 \
    -engine cmd="$BIN" name="cutoff$N" option.UCI_LimitStrength=true "option.UCI_Elo=$N" \
    -engine cmd="${STOCKFISH:-stockfish}" name="sf$M" option.UCI_LimitStrength=true \
    "option.UCI_Elo=$M" -each tc="$TC" option.Threads=1 option.Hash=16
