#!/usr/bin/env python3
"""How often the side ahead by its recorded score went on to win: a study of viriformat games.

For every recorded ply after the first SKIP (default 8) with a score below 2,000 cp, the
side the score favours gets the game's result from its view (1 win, 0.5 draw, 0 loss), and
its expected score sigmoid(|score| / 400), the mapping the trainer's target uses. Plies
are grouped by score (100 cp bins, the last "600 and more") and by where they stand in the
game: "late" is the last 40% of a game longer than 100 plies, "early" the rest. A mean
result above the sigmoid means the side ahead wins more often than its score says.

    tools/score_calibration.py data/viri/s5-n5000/c30.viri data/viri/s5-n5000/c31.viri

Plain Python: the games are read by tools/viri_games.py, not replayed.
"""
import math
import sys
from collections import defaultdict

from viri_games import games

SKIP = 8
BINS = 6  # bins 0..5 are 100 cp wide, bin 6 is 600 cp and more


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    stats = defaultdict(lambda: [0, 0.0, 0.0])  # count, sum of results, sum of sigmoids
    for path in sys.argv[1:]:
        for _start, result, plies in games(path):
            scores = [score for _move, score in plies]
            white_result = result / 2
            for i, score in enumerate(scores):
                if i < SKIP or abs(score) >= 2000:
                    continue
                late = len(scores) > 100 and i > 0.6 * len(scores)
                ahead_result = white_result if score > 0 else 1 - white_result
                entry = stats[("late" if late else "early", min(abs(score) // 100, BINS))]
                entry[0] += 1
                entry[1] += ahead_result
                entry[2] += 1 / (1 + math.exp(-abs(score) / 400))
    print("part   score (cp)   positions   mean result   sigmoid(score/400)")
    for (part, b), (n, results, sigmoids) in sorted(stats.items()):
        label = f"{100 * b}-{100 * b + 99}" if b < BINS else f"{100 * BINS}+"
        print(f"{part:5}  {label:>10}  {n:10}  {results / n:12.3f}  {sigmoids / n:19.3f}")


if __name__ == "__main__":
    main()
