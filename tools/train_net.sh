#!/usr/bin/env bash
# The training command of each accepted net (nets/README.md), runnable:
#
#     tools/train_net.sh NET [OUT] [CUTOFF]
#
# NET is one of the accepted nets in NETS below; OUT defaults to NET.nnue (the float
# checkpoint goes beside it as OUT.ckpt); CUTOFF defaults to ./target/release/cutoff.
# The data sets must be under data/viri/ (docs/NNUE.md, "Data sets", says how to make
# each). DRY=1 prints the command instead of running it. Every recipe is seed 1 on one
# thread, so a run is deterministic for its data and trainer; each net was made by the
# trainer of the commit that built it in (nets/README.md): check that commit out to
# remake the file byte for byte. RESUME=1 adds --resume (the trainer of cf98c5f and later,
# not the older ones that made the recorded nets): a run that stopped goes on after its
# last finished epoch, from OUT.state.
set -euo pipefail
cd "$(dirname "$0")/.."
# The nets with a recipe below, in the order they were built in.
NETS="n1 n2 n4 n5 n6w n7a f8-e48 n9c n9w256 n10 n11c n14e"
NET=${1:?"net: $NETS"}
OUT=${2:-$NET.nnue}
CUTOFF=${3:-./target/release/cutoff}

# `add FLAG SET:FIRST:LAST...`: appends FLAG (--data or --scaled-data) and each chunk's
# file to DATA; a missing chunk is an error. Sets from s4 on hold material-scaled scores
# and are read with --scaled-data.
DATA=()
add() {
    local flag=$1 spec set first last k file
    shift
    for spec in "$@"; do
        IFS=: read -r set first last <<< "$spec"
        for ((k = first; k <= last; k++)); do
            file=data/viri/$set/c$k.viri
            [[ -f $file ]] || { echo "train_net.sh: $file is missing" >&2; exit 1; }
            DATA+=("$flag" "$file")
        done
    done
}

# Nets trained further from their parent: 3 epochs at a low learning rate.
FURTHER=(--mirror --wdl 0.0 --lr 0.0003 --batch 2048 --epochs 3 --threads 1 --seed 1)
# `fresh HIDDEN EPOCHS [WDL]`: the flags of a net from random weights (48 epochs up to
# n9w256; the game result's weight WDL 0.0 up to n11c, 0.1 from n14e on).
fresh() {
    FLAGS=(--hidden "$1" --buckets 8 --mirror --wdl "${3:-0.0}" --lr 0.001 --batch 4096
        --epochs "$2" --threads 1 --seed 1)
}
N9_DATA=(s7-n5000:0:39 s8-n5000:0:23 s8-n2500:0:24 s8-n1250:200:328 s7-n1250:40:89)
n6_mix() {
    add --data s3-n5000:0:24
    add --scaled-data s4-n5000:0:39 s5-n5000:0:65
}

case $NET in
    n1) add --data s1-n5000:0:57   # checks the chunks; the net read the folder, as here
        DATA=(--data data/viri/s1-n5000)
        FLAGS=(--hidden 64 --mirror --wdl 0.0 --batch 2048 --epochs 10 --threads 1 --seed 1) ;;
    n2) add --data s2-n5000:0:22
        FLAGS=(--init nets/n1-h64.nnue --buckets 8 "${FURTHER[@]}") ;;
    n4) add --data s2-n5000:0:27 s3-n5000:0:21
        FLAGS=(--init nets/n2-h64b8.nnue --buckets 8 "${FURTHER[@]}") ;;
    n5) add --data s2-n5000:0:27 s3-n5000:0:24
        add --scaled-data s4-n5000:0:38
        FLAGS=(--init nets/n4-h64b8.nnue "${FURTHER[@]}") ;;
    n6w) n6_mix
        FLAGS=(--init nets/n5-h64b8.nnue --hidden 128 "${FURTHER[@]}") ;;
    n7a) n6_mix
        add --scaled-data s6-n5000:0:39
        FLAGS=(--init nets/n6w-h128b8.nnue "${FURTHER[@]}") ;;
    f8-e48) add --scaled-data s5-n5000:0:39 s6-n5000:0:39 s7-n5000:0:35
        fresh 128 48 ;;
    n9c) add --scaled-data "${N9_DATA[@]}"
        fresh 128 48 ;;
    n9w256) add --scaled-data "${N9_DATA[@]}"
        fresh 256 48 ;;
    n10) add --scaled-data s10-n1250:0:537
        fresh 256 32 ;;
    n11c) add --scaled-data s10-n1250:0:85 s11-n1250:0:588
        fresh 256 32 ;;
    n14e) add --scaled-data s10-n1250:0:85 s12-n1250:0:654
        fresh 256 64 0.1 ;;
    *) echo "train_net.sh: no recorded net '$NET'" >&2; exit 2 ;;
esac

[[ ${RESUME:-0} == 1 ]] && FLAGS+=(--resume)
if [[ ${DRY:-0} == 1 ]]; then
    echo "$CUTOFF" train "${DATA[@]}" --out "$OUT" "${FLAGS[@]}"
else
    "$CUTOFF" train "${DATA[@]}" --out "$OUT" "${FLAGS[@]}"
fi
