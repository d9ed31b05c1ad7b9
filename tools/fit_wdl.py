#!/usr/bin/env python3
"""Fit Cutoff's win/draw/loss model (src/search/wdl.rs) on self-play data.

Usage: tools/fit_wdl.py DATA [DATA2 ...] [--out src/search/wdl_model.in]
       [--max-positions N]

DATA is the output of `cutoff datagen`: a text file of `FEN | score | result` lines, the
score in centipawns and the result (1.0, 0.5, 0.0) both from White's view, or a
`--format viri` file (name ending in `.viri`), whose games are replayed with python-chess
and whose positions are kept as the text format keeps them: not in check, the move
played neither a capture nor a promotion, the score not a mate or tablebase result.

The model, from the side to move's view (and so, being symmetric, from White's):

    P(win)  = 1 / (1 + exp((a(m) - s) / b(m)))
    P(loss) = 1 / (1 + exp((a(m) + s) / b(m)))
    P(draw) = 1 - P(win) - P(loss)

with m = clamp(material, 17, 78) / 58 (pawn 1, minor 3, rook 5, queen 9) and a, b cubic
polynomials in m. The fit maximises the likelihood of the game results (multinomial log
loss). It prints the fit's quality per material band and writes the coefficients as the
Rust expression that wdl.rs includes.

Needs numpy and scipy (pip install numpy scipy).
"""

import argparse
import sys

import numpy as np
from scipy.optimize import minimize

from viri_games import decode_move, games, start_board

VALUES = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9}


def material(fen):
    board = fen.split()[0]
    return sum(VALUES.get(c.lower(), 0) for c in board)


# Scores at or beyond this are mates or tablebase results (src/score.rs).
DECISIVE = 32_000 - 128 - 1 - 128


def viri_positions(path):
    """(score, material, result) of each kept position of a viriformat file, White's view."""
    for start, wdl, plies in games(path):
        board = start_board(start)
        result = wdl / 2.0
        for code, score in plies:
            move = decode_move(code)
            quiet = not board.is_check() and not move.promotion and (
                board.is_castling(move) or not board.is_capture(move))
            if quiet and abs(score) < DECISIVE:
                yield float(score), material(board.board_fen()), result
            board.push(move)


def text_positions(path):
    """(score, material, result) of each line of a text data file, White's view."""
    with open(path) as f:
        for number, line in enumerate(f, 1):
            parts = [p.strip() for p in line.split("|")]
            if len(parts) != 3:
                sys.exit(f"{path}:{number}: expected 'FEN | score | result'")
            yield float(parts[1]), material(parts[0]), float(parts[2])


def read(paths, limit):
    rows = []
    for path in paths:
        positions = viri_positions(path) if path.endswith(".viri") else text_positions(path)
        for row in positions:
            rows.append(row)
            if limit and len(rows) >= limit:
                break
        if limit and len(rows) >= limit:
            break
    scores, materials, results = (np.array(column, dtype=float) for column in zip(*rows))
    return scores, np.clip(materials, 17, 78), results


def parameters(theta, m):
    a = np.polyval(theta[:4], m)
    b = np.maximum(np.polyval(theta[4:], m), 1.0)
    return a, b


def probabilities(theta, s, m):
    a, b = parameters(theta, m)
    win = 1.0 / (1.0 + np.exp((a - s) / b))
    loss = 1.0 / (1.0 + np.exp((a + s) / b))
    draw = np.clip(1.0 - win - loss, 1e-9, 1.0)
    return np.clip(win, 1e-9, 1.0), draw, np.clip(loss, 1e-9, 1.0)


def loss_fn(theta, s, m, wins, draws, losses):
    win, draw, loss = probabilities(theta, s, m)
    return -np.mean(wins * np.log(win) + draws * np.log(draw) + losses * np.log(loss))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("data", nargs="+")
    parser.add_argument("--out", default="src/search/wdl_model.in")
    parser.add_argument("--max-positions", type=int, default=0)
    args = parser.parse_args()

    s, material_count, result = read(args.data, args.max_positions)
    m = material_count / 58.0
    wins = (result == 1.0).astype(float)
    draws = (result == 0.5).astype(float)
    losses = (result == 0.0).astype(float)
    print(f"{len(s)} positions: {wins.mean():.3f} white wins, {draws.mean():.3f} draws, "
          f"{losses.mean():.3f} black wins", file=sys.stderr)

    start = np.array([0.0, 0.0, 0.0, 200.0, 0.0, 0.0, 0.0, 80.0])
    fit = minimize(loss_fn, start, args=(s, m, wins, draws, losses), method="Nelder-Mead",
                   options={"maxiter": 20000, "maxfev": 20000, "xatol": 1e-4, "fatol": 1e-9})
    fit = minimize(loss_fn, fit.x, args=(s, m, wins, draws, losses), method="BFGS")
    theta = fit.x
    print(f"log loss {loss_fn(start, s, m, wins, draws, losses):.5f} (start) -> "
          f"{fit.fun:.5f} (fitted)", file=sys.stderr)

    # Calibration per material band: predicted against observed outcome shares.
    print("material  positions  predicted W/D/L      observed W/D/L", file=sys.stderr)
    for low, high in [(17, 30), (30, 45), (45, 60), (60, 79)]:
        band = (material_count >= low) & (material_count < high)
        if not band.any():
            continue
        win, draw, loss = probabilities(theta, s[band], m[band])
        print(f"{low:>3}-{high - 1:<3}  {band.sum():>10}  "
              f"{win.mean():.3f}/{draw.mean():.3f}/{loss.mean():.3f}  "
              f"{wins[band].mean():.3f}/{draws[band].mean():.3f}/{losses[band].mean():.3f}",
              file=sys.stderr)
    for mat in (24, 40, 58, 78):
        a, b = parameters(theta, mat / 58.0)
        print(f"material {mat}: a = {a:.1f} cp (50% win), b = {b:.1f} cp", file=sys.stderr)

    def row(values):
        return ", ".join(f"{v:.6}" for v in values)

    with open(args.out, "w") as f:
        f.write("// Generated by tools/fit_wdl.py from "
                f"{len(s)} self-play positions; do not edit by hand.\n")
        f.write(f"WdlModel {{\n    a: [{row(theta[:4])}],\n    b: [{row(theta[4:])}],\n}}\n")
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
