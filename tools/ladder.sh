#!/usr/bin/env bash
# One row of the ladder in docs/STRENGTH.md: Cutoff against an opponent engine.
#
#     tools/ladder.sh BINARY NAME OPPONENT COMMAND [option.NAME=VALUE...]
#
# e.g. tools/ladder.sh ./target/release/cutoff cutoff sf2500 stockfish \
#          option.UCI_LimitStrength=true option.UCI_Elo=2500
#      tools/ladder.sh ./target/release/cutoff cutoff ethereal ethereal-chess
# 10+0.1, 200 games (100 openings of 8moves_v3.epd, colours swapped), seed 7, 1 thread and
# 16 MiB each, concurrency 2: play it on two otherwise idle cores. Results go to
# logs/ladder-NAME-OPPONENT.{pgn,log} (tools/logged_match.sh).
set -euo pipefail
BIN=${1:?binary}
NAME=${2:?engine name}
OPP=${3:?opponent name}
CMD=${4:?opponent command}
shift 4
"$(dirname "$0")/logged_match.sh" "ladder-$NAME-$OPP" 7 200 \
    -engine cmd="$BIN" name="$NAME" -engine cmd="$CMD" name="$OPP" "$@" \
    -each tc=10+0.1 option.Threads=1 option.Hash=16
