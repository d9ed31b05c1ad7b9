#!/usr/bin/env python3
"""How good are a data set's labels? Compares, on a sample of a viriformat file's kept
positions (the trainer's filter), the recorded search scores and the binary's static
evaluation with fresh searches of the same positions at fixed node counts, the deepest
taken as the truth (docs/NNUE.md, "Tried and rejected": `--lookahead`).

    tools/label_study.py BINARY FILE.viri EVERY NODES [NODES ...]

Every EVERY-th kept position is used; NODES are `analyze --nodes` budgets, the last one
the reference. Distances are the mean squared difference of sigmoid(cp / 400), the
trainer's loss, from the side to move's view. Standard chess only (the searches read
the positions as EPD, without the fifty-move counter). Needs python-chess; writes its work
files to a temporary directory."""
import json
import math
import subprocess
import sys
import tempfile

import chess

from viri_games import decode_move, games, start_board

# Scores at or beyond this are mates or tablebase results (src/score.rs).
DECISIVE = 32_000 - 128 - 1 - 128


def positions(path):
    """(board before the move, move, White-view score, ply) of every ply of a file."""
    for start, _, plies in games(path):
        board = start_board(start)
        for ply, (code, score) in enumerate(plies):
            move = decode_move(code)
            yield board.copy(), move, score, ply
            board.push(move)


def kept(board, move, score, ply):
    """The trainer's filter (src/train/data.rs, `keep`)."""
    return (ply >= 8 and not board.is_check() and move.promotion is None
            and not board.is_capture(move) and abs(score) < DECISIVE)


def sigmoid(cp):
    return 1 / (1 + math.exp(-cp / 400))


def main():
    binary, path, every, budgets = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    samples = []
    for n, (board, move, score, ply) in enumerate(
            p for p in positions(path) if kept(*p)):
        if n % every == 0:
            us = 1 if board.turn == chess.WHITE else -1
            samples.append((board.fen(), us * score, us))
    work = tempfile.TemporaryDirectory()
    epd = f"{work.name}/sample.epd"
    with open(epd, "w") as f:
        for i, (fen, _, _) in enumerate(samples):
            f.write(f'{" ".join(fen.split()[:4])} id "{i}";\n')
    script = "".join(f"position fen {fen}\neval\n" for fen, _, _ in samples) + "quit\n"
    out = subprocess.run([binary], input=script, capture_output=True, text=True).stdout
    finals = [int(line.split()[2]) for line in out.splitlines() if line.startswith("Final evaluation")]
    if len(finals) != len(samples):
        sys.exit(f"{binary} evaluated {len(finals)} of {len(samples)} positions")
    sources = {"recorded label": [s for _, s, _ in samples],
               "static evaluation": [cp * us for cp, (_, _, us) in zip(finals, samples)]}
    for nodes in budgets:
        scores = [None] * len(samples)
        run = subprocess.run([binary, "analyze", "--nodes", nodes, epd], capture_output=True, text=True)
        for line in run.stdout.splitlines():
            j = json.loads(line)
            if "id" in j and "cp" in j.get("score", {}):
                scores[int(j["id"])] = j["score"]["cp"]
        sources[f"search of {nodes} nodes"] = scores
    truth = sources[f"search of {budgets[-1]} nodes"]
    ids = [i for i in range(len(samples))
           if truth[i] is not None and abs(truth[i]) < 3000 and all(s[i] is not None for s in sources.values())]
    if not ids:
        sys.exit("no position has a score from every source")
    print(f"{len(ids)} positions of {path}; reference: the search of {budgets[-1]} nodes")
    for name, scores in sources.items():
        mse = sum((sigmoid(scores[i]) - sigmoid(truth[i])) ** 2 for i in ids) / len(ids)
        print(f"{name:24s} {mse:.6f}")
    label, static = sources["recorded label"], sources["static evaluation"]
    mse = sum((sigmoid(label[i]) - sigmoid(static[i])) ** 2 for i in ids) / len(ids)
    print(f"static evaluation to the recorded label: {mse:.6f}")


main()
