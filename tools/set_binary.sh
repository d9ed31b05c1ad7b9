#!/usr/bin/env bash
# Builds the binary that plays data set s<SEED> (docs/NNUE.md, "Data sets") from the commit
# that made it, and checks its `bench` node count against the one recorded there.
#
#     tools/set_binary.sh SEED OUT
#
# The build is native (-C target-cpu=native) and, on a CPU with BMI2, uses cozy-chess's
# PEXT attacks (PEXT=0 turns that off, for Zen 1 and 2 where PEXT is slow): the same search
# and the same games byte for byte as the portable build, only faster. The commit is checked
# out in a worktree under WORK (default /tmp/cutoff-sets) and built there, into one target
# directory that all sets share, so that the dependencies they have in common are compiled
# once (so run one at a time). The Bench each set must give is in the table below
# (docs/NNUE.md records the same). s1 is not here: it is played with --hce by the binary of
# b3b0d22 (docs/NNUE.md).
set -euo pipefail
cd "$(dirname "$0")/.."
SEED=${1:?seed}
OUT=${2:?output binary}
case $SEED in
    2) COMMIT=4a1ff9d BENCH=8431521 ;;
    3) COMMIT=7379b06 BENCH=5709810 ;;
    4) COMMIT=76df652 BENCH=6646062 ;;
    5) COMMIT=e8e0346 BENCH=5836459 ;;
    6) COMMIT=0733a89 BENCH=5409075 ;;
    7) COMMIT=0ca0e5b BENCH=5195020 ;;
    8) COMMIT=43f4aa7 BENCH=5566313 ;;
    9) COMMIT=e4041eb BENCH=5609060 ;;
    10) COMMIT=11ebec9 BENCH=5565484 ;;
    11) COMMIT=8c4cb4d BENCH=5100660 ;;
    12) COMMIT=73849d8 BENCH=5187602 ;;
    13) COMMIT=362368c BENCH=5583390 ;;
    *) echo "set_binary.sh: no data set s$SEED is recorded" >&2; exit 2 ;;
esac
WORK=${WORK:-/tmp/cutoff-sets}
TREE=$WORK/s$SEED
# cozy-chess/pext rather than the `pext` feature (make FEATURES=pext): the sets' commits
# predate that feature.
FEATURES=()
if [[ ${PEXT:-1} != 0 ]] && grep -qw bmi2 /proc/cpuinfo; then
    FEATURES=(--features cozy-chess/pext)
fi
mkdir -p "$WORK"
# A worktree whose folder was deleted (a cleaned /tmp) is still registered: forget it first.
git worktree prune
[[ -d $TREE ]] || git worktree add --detach "$TREE" "$COMMIT"
(cd "$TREE" && RUSTFLAGS="-C target-cpu=native" cargo build --release "${FEATURES[@]}" \
    --target-dir "$WORK/target")
BIN=$WORK/target/release/cutoff
NODES=$("$BIN" bench 2>/dev/null | tail -1 | awk '{print $1}')
if [[ $NODES != "$BENCH" ]]; then
    echo "set_binary.sh: bench gives $NODES nodes, s$SEED's binary gives $BENCH" >&2
    exit 1
fi
mkdir -p "$(dirname "$OUT")"
cp "$BIN" "$OUT.tmp" && mv "$OUT.tmp" "$OUT"
echo "s$SEED: $OUT (commit $COMMIT, bench $NODES)"
