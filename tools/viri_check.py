#!/usr/bin/env python3
"""Replays every game of a viriformat file with python-chess, a reader independent of
Cutoff's own (src/viri.rs), and prints `games N plies M`.

    tools/viri_check.py FILE

Exits non-zero at the first defect, naming the game and ply: a start position python-chess
finds invalid, a result byte other than 0, 1 or 2, a move that is illegal where it was
played or whose kind (castling, en passant, promotion) is wrong, or a file that ends
inside a game. Needs python-chess (`pip install python-chess`).
"""
import struct
import sys

import chess

import viri_games


def move_kind(board, move):
    """The kind the format gives `move`: 3 promotion, 2 castling, 1 en passant, 0 other."""
    if move.promotion:
        return 3
    if board.is_castling(move):
        return 2
    if board.is_en_passant(move):
        return 1
    return 0


def check(path):
    games = plies = used = 0
    try:
        for number, (start, result, moves) in enumerate(viri_games.games(path)):
            board = viri_games.start_board(start)
            if not board.is_valid():
                raise ValueError(f"game {number}: invalid start position {board.fen()}")
            if result not in (0, 1, 2):
                raise ValueError(f"game {number}: result byte {result}")
            for ply, (code, _score) in enumerate(moves):
                move = viri_games.decode_move(code)
                if move not in board.legal_moves:
                    raise ValueError(f"game {number}, ply {ply}: {move.uci()} is illegal "
                                     f"in {board.fen()}")
                if move_kind(board, move) != code >> 14:
                    raise ValueError(f"game {number}, ply {ply}: {move.uci()} has the wrong "
                                     f"kind {code >> 14}")
                board.push(move)
            games, plies = games + 1, plies + len(moves)
            used += 32 + 4 * (len(moves) + 1)
    except struct.error:
        raise ValueError(f"game {games}: the file ends inside the game") from None
    with open(path, "rb") as data:
        if len(data.read()) != used:
            raise ValueError(f"game {games}: the file ends inside the game")
    return games, plies


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: viri_check.py FILE")
    try:
        games, plies = check(sys.argv[1])
    except (OSError, ValueError) as error:
        sys.exit(f"viri_check.py: {sys.argv[1]}: {error}")
    print(f"games {games} plies {plies}")


if __name__ == "__main__":
    main()
