#!/usr/bin/env bash
# A fastchess match with the settings every ladder row, UCI_Elo check and net screen
# shares, its PGN and console output kept as logs/TAG.{pgn,log}.
#
#     tools/logged_match.sh TAG SEED GAMES FASTCHESS_ARGS...
#
# GAMES games (GAMES/2 openings, each played twice with colours swapped) from openings
# drawn at random by SEED from OPENINGS (default data/openings/8moves_v3.epd; an .epd or
# .pgn file), concurrency 2, and the adjudication every match of docs/STRENGTH.md used
# (resign at 1000 cp for 3 moves, draw from move 40 at |score| <= 10 cp for 8 plies).
# FASTCHESS_ARGS name the engines and the limits (-engine ..., -each ...). fastchess is
# found on PATH, or named by FASTCHESS (README, "Tools", says how to build it).
# Used by tools/ladder.sh, tools/knot.sh, tools/screen.sh and tools/sprt.sh;
# tools/combine_matches.py reads the PGN.
set -euo pipefail
cd "$(dirname "$0")/.."
TAG=${1:?tag}
SEED=${2:?seed}
GAMES=${3:?games}
shift 3
FASTCHESS=${FASTCHESS:-fastchess}
if ! command -v "$FASTCHESS" > /dev/null; then
    echo "logged_match.sh: no fastchess ('$FASTCHESS'): put it on PATH or set FASTCHESS" >&2
    exit 2
fi
OPENINGS=${OPENINGS:-data/openings/8moves_v3.epd}
if [[ ! -f $OPENINGS ]]; then
    echo "logged_match.sh: no opening file $OPENINGS: set OPENINGS (README, \"Tools\")" >&2
    exit 2
fi
FORMAT=epd
[[ $OPENINGS == *.pgn ]] && FORMAT=pgn
mkdir -p logs
"$FASTCHESS" "$@" -openings file="$OPENINGS" format=$FORMAT order=random -srand "$SEED" \
    -rounds $((GAMES / 2)) -games 2 -repeat -concurrency 2 \
    -resign movecount=3 score=1000 -draw movenumber=40 movecount=8 score=10 \
    -pgnout file="logs/$TAG.pgn" 2>&1 | tee "logs/$TAG.log"
