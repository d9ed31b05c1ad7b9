#!/usr/bin/env bash
# One row of the ladder in docs/STRENGTH.md: Cutoff against a match.py opponent preset.
#
#     tools/ladder.sh BINARY NAME OPPONENT PRESET... [-- EXTRA match.py ARGS]
#
# e.g. tools/ladder.sh ./target/release/cutoff cutoff-n7a sf2500 stockfish elo=2500
#      tools/ladder.sh ./target/release/cutoff cutoff-n7a ethereal ethereal
# 10+0.1, 200 games (100 openings of 8moves_v3.epd, colours swapped), seed 7, 1 thread and
# 16 MiB each, concurrency 2: play it on two otherwise idle cores (pause the data generator).
# Results go to logs/ladder-NAME-OPPONENT.{json,pgn,log}.
set -euo pipefail
BIN=${1:?binary}
NAME=${2:?engine name}
OPP=${3:?opponent name}
shift 3
PRESET=()
while [[ $# -gt 0 && $1 != -- ]]; do PRESET+=("$1"); shift; done
[[ ${1:-} == -- ]] && shift
"$(dirname "$0")/logged_match.sh" "ladder-$NAME-$OPP" \
    --engine "$NAME" "$BIN" option.Threads=1 option.Hash=16 --engine "$OPP" "${PRESET[@]}" \
    --tc 10+0.1 --games 200 --seed 7 "$@"
