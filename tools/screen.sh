#!/usr/bin/env bash
# A fixed-node screen of a candidate network against the net built into BINARY (docs/NNUE.md:
# every candidate is screened at 10,000 and 40,000 nodes per move before its SPRT).
#
#     tools/screen.sh BINARY NET NODES GAMES SEED
#
# Both sides are BINARY with 1 thread and 16 MiB; the candidate loads NET through EvalFile.
# Fixed nodes make the result independent of the machine's load, so a screen may run beside
# the data generator. Results go to logs/screen-NAME-nNODES-sSEED.{pgn,log}, NAME being
# NET's file name without its extension (tools/logged_match.sh).
set -euo pipefail
BIN=${1:?binary}
NET=${2:?network file}
NODES=${3:?nodes per move}
GAMES=${4:?games}
SEED=${5:?seed}
NAME=$(basename "$NET" .nnue)
# A binary that refuses the file (an older build and a newer file format, say) would play
# its built-in net on both sides: check that it loads before playing.
LOADED=$(printf 'setoption name EvalFile value %s\nisready\nquit\n' "$(realpath "$NET")" | "$BIN")
if grep -q 'info string error' <<< "$LOADED"; then
    echo "screen.sh: $BIN does not load $NET:" >&2
    grep 'info string error' <<< "$LOADED" >&2
    exit 1
fi
"$(dirname "$0")/logged_match.sh" "screen-$NAME-n$NODES-s$SEED" "$SEED" "$GAMES" \
    -engine cmd="$BIN" name="$NAME" "option.EvalFile=$(realpath "$NET")" \
    -engine cmd="$BIN" name=builtin \
    -each tc=inf nodes="$NODES" option.Threads=1 option.Hash=16
