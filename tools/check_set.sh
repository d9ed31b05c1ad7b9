#!/usr/bin/env bash
# Replays every complete chunk of a data set with tools/viri_check.py (python-chess, a
# reader independent of Cutoff's own) and records each chunk's games and plies, so that a
# regenerated chunk can be compared with the plies recorded for it.
#
#     tools/check_set.sh SET [WATCH]
#
# SET is a folder name under data/viri (for example s8-n5000). Results are appended to
# logs/checks-SET.txt, one line per chunk ("c7 games 500 plies 63412", or "c7 DEFECT ..."
# with the checker's message); chunks already listed there are skipped. With WATCH=1 it
# keeps waiting for new chunks (for running beside the generator, at nice 19) until killed.
set -euo pipefail
cd "$(dirname "$0")/.."
SET=${1:?set, e.g. s8-n5000}
WATCH=${2:-0}
DIR=data/viri/$SET
LOG=logs/checks-$SET.txt
mkdir -p logs
touch "$LOG"
while true; do
    # Complete chunks only (not the generator's .part file), in chunk order.
    for chunk in $(ls "$DIR" 2>/dev/null | grep -E '^c[0-9]+\.viri$' | sort -V); do
        name=${chunk%.viri}
        grep -q "^$name " "$LOG" && continue
        if out=$(nice -n 19 python3 tools/viri_check.py "$DIR/$chunk" 2>&1); then
            echo "$name $out" >> "$LOG"
        else
            echo "$name DEFECT $(echo "$out" | tail -1)" >> "$LOG"
        fi
    done
    [[ $WATCH == 1 ]] || break
    sleep 60
done
