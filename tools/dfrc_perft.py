#!/usr/bin/env python3
"""Perft counts for Double Fischer Random start positions, computed with python-chess.

Each position takes White's back rank from Chess960 start position `w` and Black's from
position `b` (`w != b`, both drawn from a seeded generator, so the list is the same on
every run), with full X-FEN castling rights. The node counts come from python-chess's
own move generator (an implementation independent of cozy-chess) and are printed in
the format of `tests/data/perft-*.txt`:

    dfrc-W-B | FEN | 1=N 2=N 3=N 4=N

With `--fens` it prints only the FENs, one per line: an opening file for fastchess
(`-variant fischerandom -openings file=FILE format=epd`).

Usage: tools/dfrc_perft.py [--count 24] [--depth 4] [--seed 960] > tests/data/perft-dfrc.txt
       tools/dfrc_perft.py --fens --count 50 --seed 2026 > dfrc.epd
"""

import argparse
import random

import chess


def perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


def dfrc_board(white: int, black: int) -> chess.Board:
    white_rank = chess.Board.from_chess960_pos(white).fen().split("/")[7].split()[0]
    black_rank = chess.Board.from_chess960_pos(black).fen().split("/")[0]
    fen = f"{black_rank}/pppppppp/8/8/8/8/PPPPPPPP/{white_rank} w - - 0 1"
    board = chess.Board(fen, chess960=True)
    # Every rook on the back rank may castle (X-FEN/Shredder rights by file).
    board.castling_rights = board.rooks & (chess.BB_RANK_1 | chess.BB_RANK_8)
    return board


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=24)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--seed", type=int, default=960)
    parser.add_argument("--fens", action="store_true", help="print only the FENs")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    if args.fens:
        for _ in range(args.count):
            print(dfrc_board(*rng.sample(range(960), 2)).shredder_fen())
        return
    print("# Perft node counts, Double Fischer Random Chess: White's and Black's back ranks")
    print("# are two different Chess960 start positions (dfrc-W-B: White's is Chess960")
    print("# position W, Black's position B, in the Scharnagl numbering), all castling rights.")
    print("#")
    print("# Source: computed for this project by tools/dfrc_perft.py with python-chess")
    print(f"# {chess.__version__} (a move generator independent of cozy-chess), seed {args.seed}.")
    print("# Format: NAME | FEN | DEPTH=NODES ... (as perft-tricky.txt); FENs use Shredder")
    print("# castling letters (the files of the castling rooks).")
    print("#")
    for _ in range(args.count):
        white, black = rng.sample(range(960), 2)
        board = dfrc_board(white, black)
        counts = " ".join(f"{d}={perft(board, d)}" for d in range(1, args.depth + 1))
        print(f"dfrc-{white}-{black} | {board.shredder_fen()} | {counts}", flush=True)


if __name__ == "__main__":
    main()
