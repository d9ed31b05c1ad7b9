#!/usr/bin/env python3
"""How a match's games ended and how each engine used its clock, from a fastchess PGN.

    tools/pgn_clocks.py MATCH.pgn [ENGINE]

Prints the figures of docs/STRENGTH.md's table of terminations and clocks: the games
ended by adjudication (decisive + drawn) and normally (by threefold repetition, the
fifty-move rule, insufficient material, checkmate, stalemate), and, for ENGINE (default
the first `White` name of the file) and its opponent, the mean thinking time a game and
the lowest clock each reached in a game (the median over the games, and the least). A
clock is read from the games' `TimeControl` tag ("10+0.1": 10 s, 0.1 s a move) and the
time fastchess gives after each move (`{+0.32/16 0.377s}`); the lowest clock of a game is
the least time left just after a move, before its increment. Needs python-chess.

A game that cannot be read (no TimeControl, no moves, no time on a move) is reported on
stderr with its number and left out (python-chess reads a game up to a move it cannot
play); the script fails only when the file cannot be read or holds no game.
"""

import re
import statistics
import sys

import chess.pgn

TIME = re.compile(r"(\d+(?:\.\d+)?)s\b")


def time_control(tag):
    """(base, increment) in seconds from "10+0.1" or "10"; None for anything else."""
    match = re.fullmatch(r"(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?", tag or "")
    if not match:
        return None
    return float(match.group(1)), float(match.group(2) or 0.0)


def ending(game, board):
    """How the game ended: 'adjudicated decisive', 'adjudicated drawn' or the rule."""
    if game.headers.get("Termination", "") == "adjudication":
        drawn = game.headers.get("Result") == "1/2-1/2"
        return "adjudicated drawn" if drawn else "adjudicated decisive"
    if board.is_checkmate():
        return "mate"
    if board.is_stalemate():
        return "stalemate"
    if board.is_insufficient_material():
        return "material"
    if board.is_fifty_moves():
        return "fifty moves"
    if board.is_repetition(3):
        return "repetition"
    return "other (" + game.headers.get("Termination", "?") + ")"


def read_game(game):
    """(ending, {name: (time used, lowest clock)}) of one game; ValueError if unreadable."""
    control = time_control(game.headers.get("TimeControl"))
    if control is None:
        raise ValueError("no TimeControl tag of the form BASE+INC")
    base, increment = control
    names = [game.headers.get("White", "?"), game.headers.get("Black", "?")]
    board = game.board()
    clocks = [base, base]
    used = [0.0, 0.0]
    lowest = [base, base]
    # python-chess stops a game's mainline at a move it cannot play: every move here is legal.
    for ply, node in enumerate(game.mainline(), 1):
        side = 0 if board.turn == chess.WHITE else 1
        board.push(node.move)
        found = TIME.search(node.comment)
        if not found:
            raise ValueError(f"no time on the move at ply {ply}")
        spent = float(found.group(1))
        used[side] += spent
        clocks[side] -= spent
        lowest[side] = min(lowest[side], clocks[side])
        clocks[side] += increment
    if not board.move_stack:
        raise ValueError("no moves")
    return ending(game, board), {names[i]: (used[i], lowest[i]) for i in range(2)}


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    try:
        pgn = open(argv[1], encoding="utf-8", errors="replace")
    except OSError as err:
        print(f"pgn_clocks.py: cannot read {argv[1]}: {err}", file=sys.stderr)
        return 1
    endings = {}
    per_engine = {}
    number = 0
    with pgn:
        while True:
            try:
                game = chess.pgn.read_game(pgn)
            except (ValueError, UnicodeDecodeError) as err:
                number += 1
                print(f"game {number}: unreadable ({err}), left out", file=sys.stderr)
                continue
            if game is None:
                break
            number += 1
            try:
                end, engines = read_game(game)
            except ValueError as err:
                print(f"game {number}: {err}, left out", file=sys.stderr)
                continue
            endings[end] = endings.get(end, 0) + 1
            for name, figures in engines.items():
                per_engine.setdefault(name, []).append(figures)
    if not per_engine:
        print(f"pgn_clocks.py: no readable game in {argv[1]}", file=sys.stderr)
        return 1
    games = sum(endings.values())
    print(f"games {games}")
    for end in sorted(endings):
        print(f"  {end}: {endings[end]}")
    first = argv[2] if len(argv) == 3 else next(iter(per_engine))
    order = [first] + sorted(name for name in per_engine if name != first)
    for name in order:
        figures = per_engine.get(name)
        if not figures:
            print(f"{name}: no games")
            continue
        used = statistics.mean(f[0] for f in figures)
        lows = [f[1] for f in figures]
        print(
            f"{name}: {len(figures)} games, {used:.1f} s a game, lowest clock "
            f"median {statistics.median(lows):.2f} s, least {min(lows):.2f} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
