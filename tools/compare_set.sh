#!/usr/bin/env bash
# Compares a regenerated data set with the plies recorded for it in a commit message.
#
#     tools/compare_set.sh SET REV
#
# REV is a commit whose message lists the set's chunks as tools/set_record.sh prints them
# ("c0 56123, c1 57012, ..."). Each chunk listed there and replayed by tools/check_set.sh
# (logs/checks-SET.txt) must have exactly the recorded plies: the same binary, seed and
# game numbers make the same games. Prints how many chunks match, each one that does not,
# and the recorded chunks not checked yet; exits non-zero on a mismatch or a defect.
set -euo pipefail
cd "$(dirname "$0")/.."
SET=${1:?set, e.g. s11-n1250}
REV=${2:?commit whose message records the plies}
LOG=logs/checks-$SET.txt
[[ -f $LOG ]] || { echo "compare_set.sh: no $LOG (run tools/check_set.sh $SET)" >&2; exit 1; }
recorded=$(git show -s --format=%B "$REV" | grep -oE '\bc[0-9]+ [0-9]+[,.]?' | tr -d ',.' | sort -u -k1,1 || true)
[[ -n $recorded ]] || { echo "compare_set.sh: $REV's message records no chunk plies" >&2; exit 1; }
matched=0 bad=0 unchecked=()
while read -r name plies; do
    line=$(grep -m1 "^$name " "$LOG" || true)
    read -r _ word_games _ word_plies checked _ <<< "$line"
    if [[ -z $line ]]; then
        unchecked+=("$name")
    elif [[ $word_games != games || $word_plies != plies ]]; then
        echo "$name: recorded $plies plies, checker: ${line#"$name "}"
        bad=$((bad + 1))
    elif [[ $checked != "$plies" ]]; then
        echo "$name: recorded $plies plies, regenerated $checked"
        bad=$((bad + 1))
    else
        matched=$((matched + 1))
    fi
done <<< "$recorded"
echo "$SET against $REV: $matched chunks with exactly the recorded plies, $bad different, ${#unchecked[@]} not checked yet${unchecked:+ (${unchecked[*]})}"
((bad == 0))
