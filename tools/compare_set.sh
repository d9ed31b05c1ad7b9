#!/usr/bin/env bash
# Compares a regenerated data set with the plies recorded for it in a commit message.
#
#     tools/compare_set.sh SET REV [REV...]
#
# Each REV is a commit whose message lists some of the set's chunks as tools/set_record.sh
# prints them ("c0 56123, c1 57012, ..."); with several, their lists are taken together
# (s11-n1250: 9cd382a 2fecab2 4a173dd 04280c1 9d1f864 3d240e4 7023e58). The same binary,
# seed and game numbers make the same
# games, so each recorded chunk that tools/check_set.sh has replayed must have exactly the
# recorded plies; the regenerated plies are what set_record.sh sums from the first
# recorded chunk on, up to the first chunk not checked yet or defective. Prints how many
# chunks match, each one that does not, each chunk the checker found defective, and the
# recorded chunks not compared; exits non-zero on a difference or a defect.
set -euo pipefail
cd "$(dirname "$0")/.."
SET=${1:?set, e.g. s11-n1250}
REVS=("${@:2}")
((${#REVS[@]})) || { echo "compare_set.sh: give the commits that record the plies" >&2; exit 2; }
REV=${REVS[*]}
LOG=logs/checks-$SET.txt
[[ -f $LOG ]] || { echo "compare_set.sh: no $LOG (run tools/check_set.sh $SET)" >&2; exit 1; }

# "cK PLIES" pairs, one a line, sorted by chunk name (as join wants them).
pairs() { { grep -oE '\bc[0-9]+ [0-9]+' || true; } | sort -u -k1,1; }

recorded=$(for rev in "${REVS[@]}"; do git show -s --format=%B "$rev"; done | pairs)
[[ -n $recorded ]] || { echo "compare_set.sh: $REV's message records no chunk plies" >&2; exit 1; }
first=$(sed 's/^c\([0-9]*\) .*/\1/' <<< "$recorded" | sort -n | head -1)
regenerated=$({ tools/set_record.sh "$SET" "$first" 2> /dev/null || true; } | tail -n 1 | pairs)

matched=$(join <(echo "$recorded") <(echo "$regenerated") | awk '$2 == $3' | wc -l)
different=$(join <(echo "$recorded") <(echo "$regenerated") | awk '$2 != $3')
defects=$(grep ' DEFECT' "$LOG" || true)
unchecked=$(join -v 1 <(echo "$recorded") <(echo "$regenerated") | cut -d' ' -f1 | sort -V | xargs)
[[ -z $different ]] || awk '{print $1 ": recorded " $2 " plies, regenerated " $3}' <<< "$different"
[[ -z $defects ]] || echo "$defects"
bad=$(( $(grep -c . <<< "$different" || true) + $(grep -c . <<< "$defects" || true) ))
echo "$SET against $REV: $matched chunks with exactly the recorded plies, $bad different or defective, $(wc -w <<< "$unchecked") not compared (not checked yet, or after an unchecked or defective chunk)${unchecked:+: $unchecked}"
((bad == 0))
