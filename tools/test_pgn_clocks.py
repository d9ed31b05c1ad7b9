#!/usr/bin/env python3
"""Tests of tools/pgn_clocks.py (run by .ci/run; needs python-chess).

The PGNs are written as fastchess writes them: a TimeControl tag, the engine's score,
depth and time after every move.
"""
import os
import subprocess
import sys
import tempfile
import unittest

TOOL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pgn_clocks.py")


def game(white, black, result, moves, termination=None, fen=None, control="10+0.1"):
    """One game; `moves` is a list of (SAN, seconds)."""
    tags = [("White", white), ("Black", black), ("Result", result), ("TimeControl", control)]
    if termination:
        tags.append(("Termination", termination))
    if fen:
        tags += [("SetUp", "1"), ("FEN", fen)]
    head = "".join(f'[{k} "{v}"]\n' for k, v in tags)
    body = " ".join(f"{san} {{+0.10/12 {seconds:.3f}s}}" for san, seconds in moves)
    return f"{head}\n{body} {result}\n\n"


# Knights out and back twice: the start position a third time after eight plies.
REPETITION = [("Nf3", 1.0), ("Nf6", 2.0), ("Ng1", 1.0), ("Ng8", 2.0)] * 2
# Fool's mate: Black mates at its second move.
MATE = [("f3", 0.5), ("e5", 3.0), ("g4", 0.5), ("Qh4#", 9.5)]


def run(text, *args):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "match.pgn")
        with open(path, "w") as out:
            out.write(text)
        return subprocess.run(
            [sys.executable, TOOL, path, *args], capture_output=True, text=True
        )


class PgnClocks(unittest.TestCase):
    def test_endings_and_clocks(self):
        text = (
            game("a", "b", "1/2-1/2", REPETITION)
            + game("b", "a", "0-1", MATE)
            + game("a", "b", "1-0", [("e4", 4.0)], termination="adjudication")
        )
        done = run(text, "a")
        self.assertEqual(done.returncode, 0, done.stderr)
        lines = done.stdout.splitlines()
        self.assertEqual(lines[0], "games 3")
        self.assertIn("  adjudicated decisive: 1", lines)
        self.assertIn("  mate: 1", lines)
        self.assertIn("  repetition: 1", lines)
        # a: 4 s (White, repetition), 12.5 s (Black, mate), 4 s: 6.8 s a game. Its lowest
        # clocks: 10 - 1 + 0.1 - 1 + 0.1 - 1 + 0.1 - 1 = 6.3; 10 - 3 + 0.1 - 9.5 = -2.4
        # (over time: fastchess would have ended the game; the tool reports what it read);
        # 10 - 4 = 6.0. Median 6.0, least -2.4.
        self.assertEqual(
            lines[-2], "a: 3 games, 6.8 s a game, lowest clock median 6.00 s, least -2.40 s"
        )
        # b: 8 s, 1 s, 0 s; lowest 10 - 2*4 + 0.3 = 2.3, 10 - 0.5 + 0.1 - 0.5 = 9.1, 10.0.
        self.assertEqual(
            lines[-1], "b: 3 games, 3.0 s a game, lowest clock median 9.10 s, least 2.30 s"
        )

    def test_black_to_move_first(self):
        fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        done = run(game("a", "b", "1-0", [("e5", 2.0), ("Nf3", 1.0)], fen=fen), "b")
        self.assertEqual(done.returncode, 0, done.stderr)
        lines = done.stdout.splitlines()
        self.assertIn("  other (?): 1", lines)
        self.assertEqual(
            lines[-2], "b: 1 games, 2.0 s a game, lowest clock median 8.00 s, least 8.00 s"
        )
        self.assertEqual(
            lines[-1], "a: 1 games, 1.0 s a game, lowest clock median 9.00 s, least 9.00 s"
        )

    def test_a_bad_game_is_reported_and_skipped(self):
        text = (
            game("a", "b", "1-0", [("e4", 1.0)], control="40/60")
            + game("a", "b", "1-0", [("e4", 1.0)], termination="adjudication")
        )
        done = run(text)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("game 1: no TimeControl tag", done.stderr)
        self.assertEqual(done.stdout.splitlines()[0], "games 1")

    def test_no_readable_game_fails(self):
        done = run(game("a", "b", "1-0", [("e4", 1.0)], control="40/60"))
        self.assertEqual(done.returncode, 1)
        self.assertIn("no readable game", done.stderr)

    def test_missing_file_fails(self):
        done = subprocess.run(
            [sys.executable, TOOL, "/nonexistent/match.pgn"], capture_output=True, text=True
        )
        self.assertEqual(done.returncode, 1)
        self.assertIn("cannot read", done.stderr)


if __name__ == "__main__":
    unittest.main()
