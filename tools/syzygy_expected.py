#!/usr/bin/env python3
"""Writes tests/data/syzygy-positions.txt: random legal positions of the tables kept in
tests/data/syzygy/, with their WDL and DTZ as python-chess's Syzygy reader (an independent
implementation of the probing code) gives them. Run once; the output is committed and
`tests/tablebase.rs` checks Cutoff's probes against every line.

    pip install chess==1.11.2
    python3 tools/syzygy_expected.py > tests/data/syzygy-positions.txt

Line format: `<wdl> <dtz> <fen>`, wdl from -2 (loss) to 2 (win) for the side to move,
dtz as python-chess's `probe_dtz` (signed plies to a zeroing move). Fixed seed: the
same run gives the same file.
"""
import os
import random

import chess
import chess.syzygy

HERE = os.path.dirname(os.path.abspath(__file__))
TABLES = os.path.join(HERE, "..", "tests", "data", "syzygy")
# Material of each kept table (white's pieces besides the king, then black's).
MATERIALS = ["Q", "R", "P", "BN", "R/R", "Q", "R", "P", "BN", "R/R", "B", "N"]
PER_MATERIAL = 24


def random_position(rng, material):
    ours, _, theirs = material.partition("/")
    strong = rng.choice([chess.WHITE, chess.BLACK])
    while True:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, 2 + len(ours) + len(theirs))
        board.set_piece_at(squares[0], chess.Piece(chess.KING, strong))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, not strong))
        for index, (square, symbol) in enumerate(zip(squares[2:], ours + theirs)):
            color = strong if index < len(ours) else not strong
            piece_type = chess.Piece.from_symbol(symbol).piece_type
            board.set_piece_at(square, chess.Piece(piece_type, color))
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if board.is_valid():
            return board


def main():
    rng = random.Random(20261123)
    seen = set()
    with chess.syzygy.open_tablebase(TABLES) as tables:
        for material in MATERIALS:
            count = 0
            while count < PER_MATERIAL:
                board = random_position(rng, material)
                fen = board.fen()
                if fen in seen:
                    continue
                seen.add(fen)
                wdl = tables.probe_wdl(board)
                dtz = tables.probe_dtz(board)
                print(f"{wdl} {dtz} {fen}")
                count += 1


if __name__ == "__main__":
    main()
