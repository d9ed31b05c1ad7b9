#!/usr/bin/env bash
# A match.py run with the settings every ladder row, UCI_Elo check and net screen shares
# (8moves_v3.epd, concurrency 2) and its PGN, JSON summary and console output kept as logs/TAG.{pgn,json,log}.
#
#     tools/logged_match.sh TAG ARGS...
#
# ARGS go to $SHARED/tools/match.py (SHARED is ../shared by default). Used by
# tools/ladder.sh, tools/knot.sh and tools/screen.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
TAG=${1:?tag}
shift
SHARED=${SHARED:-../shared}
mkdir -p logs
"$SHARED/tools/match.py" "$@" --concurrency 2 --openings "$SHARED/data/openings/8moves_v3.epd" \
    --pgn "logs/$TAG.pgn" --json "logs/$TAG.json" 2>&1 | tee "logs/$TAG.log"
