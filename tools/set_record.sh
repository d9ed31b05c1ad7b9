#!/usr/bin/env bash
# Sums what tools/check_set.sh recorded for a data set, in the form the data-set table of
# docs/NNUE.md and its commit messages give: the range of checked chunks, their games and
# plies, and the plies chunk by chunk.
#
#     tools/set_record.sh SET [FIRST LAST]
#
# Without FIRST and LAST, the range is c0 up to the last chunk of an unbroken run of
# checked chunks. Exits non-zero when a chunk of the range is missing from
# logs/checks-SET.txt or was found defective, so that a record never skips one.
set -euo pipefail
cd "$(dirname "$0")/.."
SET=${1:?set, e.g. s11-n1250}
LOG=logs/checks-$SET.txt
[[ -f $LOG ]] || { echo "set_record.sh: no $LOG (run tools/check_set.sh $SET)" >&2; exit 1; }
FIRST=${2:-0}
if [[ $# -ge 3 ]]; then
    LAST=$3
else
    LAST=$((FIRST - 1))
    while grep -q "^c$((LAST + 1)) games " "$LOG"; do LAST=$((LAST + 1)); done
    ((LAST >= FIRST)) || { echo "set_record.sh: c$FIRST of $SET is not checked" >&2; exit 1; }
fi
games=0 plies=0 list=()
for ((k = FIRST; k <= LAST; k++)); do
    line=$(grep -m1 "^c$k " "$LOG" || true)
    read -r name word_games g word_plies p _ <<< "$line"
    if [[ $word_games != games || $word_plies != plies ]]; then
        echo "set_record.sh: c$k of $SET: ${line:-not checked}" >&2
        exit 1
    fi
    games=$((games + g)) plies=$((plies + p))
    list+=("$name $p")
done
echo "$SET c$FIRST–c$LAST: $games games, $plies plies"
(IFS=,; echo "${list[*]}" | sed 's/,/, /g')
