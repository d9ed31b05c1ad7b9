#!/usr/bin/env python3
"""Games an engine did not win although its own score stayed high: a study of a match PGN.

For every game that ENGINE (the PGN player name) drew or lost after at least RUN
consecutive own moves scored at >= THRESHOLD pawns (the score is the first number of
each move's comment, as fastchess writes it), print the first position of
that run with ENGINE's score and, with --stockfish, Stockfish's score of it from
ENGINE's side at --nodes nodes: a small one means ENGINE overrated the position, a
large one means it did not convert a real advantage.

    tools/unconverted.py logs/ladder-sf2500.pgn --engine cutoff --stockfish /usr/games/stockfish
"""
import argparse
import re

import chess
import chess.engine
import chess.pgn

SCORE = re.compile(r"\s*([+-]?\d+\.\d+)")


def first_high_run(game, side, threshold, run_length):
    """The first position (and score) of the first `run_length` own moves in a row at >= threshold."""
    run, start = 0, None
    for node in game.mainline():
        board = node.parent.board()
        if board.turn != side:
            continue
        match = SCORE.match(node.comment or "")
        if match and float(match.group(1)) >= threshold:
            if run == 0:
                start = (board.fen(), float(match.group(1)))
            run += 1
            if run == run_length:
                return start
        else:
            run = 0
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pgn")
    parser.add_argument("--engine", default="cutoff")
    parser.add_argument("--threshold", type=float, default=2.0)
    parser.add_argument("--run", type=int, default=10)
    parser.add_argument("--stockfish", help="path of a Stockfish binary to score the positions")
    parser.add_argument("--nodes", type=int, default=2_000_000)
    args = parser.parse_args()
    referee = None
    if args.stockfish:
        referee = chess.engine.SimpleEngine.popen_uci(args.stockfish)
        referee.configure({"Threads": 1, "Hash": 16})
    games = found = 0
    with open(args.pgn) as pgn:
        while (game := chess.pgn.read_game(pgn)) is not None:
            games += 1
            side = chess.WHITE if game.headers["White"] == args.engine else chess.BLACK
            if game.headers["Result"] == ("1-0" if side == chess.WHITE else "0-1"):
                continue
            start = first_high_run(game, side, args.threshold, args.run)
            if start is None:
                continue
            found += 1
            fen, score = start
            line = f"round {game.headers['Round']} {game.headers['Result']} {args.engine} {score:+.2f}"
            if referee:
                info = referee.analyse(chess.Board(fen), chess.engine.Limit(nodes=args.nodes))
                line += f" stockfish {info['score'].pov(side)}"
            print(f"{line} {fen}", flush=True)
    print(f"{found} of {games} games not won after {args.run} own moves at >= {args.threshold:+.2f}")
    if referee:
        referee.quit()


if __name__ == "__main__":
    main()
