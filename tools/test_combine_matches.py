#!/usr/bin/env python3
"""Tests of tools/combine_matches.py (run by .ci/run; needs python-chess).

The PGNs are written the way fastchess writes them while a match runs: games in the order
they finish, both games of an opening sharing a Round tag, so the first game in the file
may have either engine as White.
"""
import os
import subprocess
import sys
import tempfile
import unittest

TOOL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "combine_matches.py")


def pgn(games):
    """A PGN of (round, white, black, result) games."""
    return "".join(
        f'[Event "test"]\n[Round "{r}"]\n[White "{w}"]\n[Black "{b}"]\n[Result "{res}"]\n\n'
        f"{res}\n\n"
        for r, w, b, res in games
    )


# new wins both games of opening 1, the openings 2 and 3 are split or drawn; the first game
# written has base as White.
PART = [
    ("1", "base", "new", "0-1"),
    ("1", "new", "base", "1-0"),
    ("2", "new", "base", "1-0"),
    ("2", "base", "new", "1-0"),
    ("3", "new", "base", "1/2-1/2"),
    ("3", "base", "new", "1/2-1/2"),
]


def run(*args):
    return subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True)


class CombineMatches(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.part = os.path.join(self.dir.name, "part.pgn")
        with open(self.part, "w", encoding="utf-8") as f:
            f.write(pgn(PART))

    def tearDown(self):
        self.dir.cleanup()

    def test_first_names_the_engine_whose_result_is_given(self):
        out = run("--first", "new", "--sprt", "0", "5", self.part)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("new vs base: 3-1-2 in 6 games, pentanomial [0, 0, 2, 0, 1]", out.stdout)
        self.assertRegex(out.stdout, r"SPRT \[0, 5\]: LLR \d")  # positive for new

    def test_without_first_the_first_game_s_white_is_given(self):
        out = run(self.part)
        self.assertIn("base vs new: 1-3-2", out.stdout)

    def test_parts_are_summed_from_the_same_engine_s_view(self):
        second = os.path.join(self.dir.name, "second.pgn")
        with open(second, "w", encoding="utf-8") as f:
            f.write(pgn([("1", "new", "base", "1-0"), ("1", "base", "new", "1/2-1/2")]))
        out = run("--first", "new", self.part, second)
        self.assertIn("new vs base: 4-1-3 in 8 games, pentanomial [0, 0, 2, 1, 1]", out.stdout)

    def test_an_engine_not_in_the_games_is_an_error(self):
        out = run("--first", "nobody", self.part)
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("no engine nobody", out.stderr)


if __name__ == "__main__":
    unittest.main()
