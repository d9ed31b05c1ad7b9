"""Checks `cutoff annotate`'s PGN with python-chess (run by tests/annotate.rs).

Usage: annotate_check.py INPUT.pgn OUTPUT.pgn

Every output game must parse without errors, its main line must equal the input game's
(up to the input's first bad move, where python-chess stops too), every move but a
checkmating one must carry an [%eval] that python-chess reads, and the only NAGs on the
main line must be ?! (6), ? (2) and ?? (4). Prints `ok N games` on success.
"""
import sys

import chess.pgn


def games(path):
    with open(path, encoding="utf-8") as handle:
        while True:
            game = chess.pgn.read_game(handle)
            if game is None:
                return
            yield game


def main(input_path, output_path):
    inputs = list(games(input_path))
    outputs = list(games(output_path))
    assert len(inputs) == len(outputs), f"{len(inputs)} games in, {len(outputs)} out"
    for number, (read, written) in enumerate(zip(inputs, outputs), start=1):
        assert not written.errors, f"game {number}: {written.errors}"
        moves_in = [move.uci() for move in read.mainline_moves()]
        moves_out = [move.uci() for move in written.mainline_moves()]
        assert moves_in == moves_out, f"game {number}: {moves_in} != {moves_out}"
        assert dict(read.headers) == dict(written.headers), f"game {number}: tags differ"
        for node in written.mainline():
            mate = node.board().is_checkmate()
            if "[%eval" in node.comment or not mate:
                assert node.eval() is not None, f"game {number}: no eval in {node.comment!r}"
            assert set(node.nags) <= {2, 4, 6}, f"game {number}: NAGs {node.nags}"
            for variation in node.parent.variations[1:]:
                assert variation.move in node.parent.board().legal_moves
    print(f"ok {len(outputs)} games")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
