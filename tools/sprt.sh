#!/usr/bin/env bash
# One part of an SPRT played in parts: NEW against BASE at a time control (default
# 8+0.08), 1 thread and 16 MiB each, until the sum of this part and the EARLIER parts
# decides, or GAMES games (default 20,000) are played, or the part is stopped.
#
#     tools/sprt.sh TAG SEED ELO0 ELO1 NEW BASE [EARLIER_PART.pgn ...]
#     TC=10+0.1 GAMES=2000 NEW_NAME=tuned BASE_NAME=base tools/sprt.sh ...
#
# The engines are named by their files' names unless NEW_NAME and BASE_NAME say otherwise;
# every part of one SPRT must use the same two names.
#
# The games go to logs/TAG.{pgn,log} (tools/logged_match.sh: openings drawn by SEED,
# colours swapped, concurrency 2; give each part its own SEED). Every minute the parts are
# summed by tools/combine_matches.py --sprt ELO0 ELO1, which prints NEW's W-L-D, the
# pentanomial Elo and the LLR to logs/TAG.sprt and stops this part's fastchess once H0 or
# H1 is accepted. A part stopped early (Ctrl-C, a machine handed on) keeps its complete pairs:
# the next part names it among EARLIER. A timed match needs both cores: pause everything
# else while it runs.
set -euo pipefail
cd "$(dirname "$0")/.."
TAG=${1:?tag}
SEED=${2:?seed}
ELO0=${3:?elo0}
ELO1=${4:?elo1}
NEW=${5:?new binary}
BASE=${6:?base binary}
shift 6
EARLIER=("$@")
NEW_NAME=${NEW_NAME:-$(basename "$NEW")}
BASE_NAME=${BASE_NAME:-$(basename "$BASE")}
TC=${TC:-8+0.08}
GAMES=${GAMES:-20000}
for part in "${EARLIER[@]}"; do
    if [[ ! -f $part ]]; then
        echo "sprt.sh: no earlier part $part" >&2
        exit 2
    fi
done
if [[ -e logs/$TAG.pgn ]]; then
    echo "sprt.sh: logs/$TAG.pgn exists: give this part a new TAG" >&2
    exit 2
fi
# The sum of EARLIER and this part, from NEW's side.
SUM=(python3 tools/combine_matches.py --sprt "$ELO0" "$ELO1" --first "$NEW_NAME" "${EARLIER[@]}"
    "logs/$TAG.pgn")
mkdir -p logs
tools/logged_match.sh "$TAG" "$SEED" "$GAMES" \
    -engine cmd="$NEW" name="$NEW_NAME" \
    -engine cmd="$BASE" name="$BASE_NAME" \
    -each tc="$TC" option.Threads=1 option.Hash=16 > /dev/null &
MATCH=$!
# fastchess itself is the process to stop: logged_match.sh pipes it into tee.
RUNNER=""
for _ in $(seq 50); do
    RUNNER=$(pgrep -n -f -- "-pgnout file=logs/$TAG.pgn" || true)
    [[ -n $RUNNER ]] && break
    sleep 0.2
done
while kill -0 "$MATCH" 2> /dev/null; do
    sleep 60
    [[ -f logs/$TAG.pgn ]] || continue
    # Exit status 1 is also "no complete pair yet": only a verdict ends the loop.
    "${SUM[@]}" ${RUNNER:+--stop "$RUNNER"} > "logs/$TAG.sprt" 2>&1 || true
    grep -q "accepted" "logs/$TAG.sprt" && break
done
wait "$MATCH" || true
"${SUM[@]}" | tee "logs/$TAG.sprt" || true
