#!/usr/bin/env python3
"""STS points from `cutoff analyze` output (Python 3, stdlib only).

The Strategic Test Suite gives each position up to four moves with points (10 for the
best): EPD fields `c9` (the moves in UCI notation) and `c8` (their points). This script
joins an EPD file with the JSON lines that `cutoff analyze` printed for it (same order)
and prints the points per theme (100 positions each, at most 1,000 points) and in total.

Usage: tools/sts_points.py sts.epd sts.jsonl
"""

import json
import re
import sys
from collections import defaultdict


def field(epd: str, name: str) -> str | None:
    found = re.search(rf'\b{name} "([^"]*)"', epd)
    return found.group(1) if found else None


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        epds = [line for line in f if line.strip()]
    with open(sys.argv[2]) as f:
        results = [json.loads(line) for line in f if line.strip()]
    results = [r for r in results if not r.get("summary")]
    if len(epds) != len(results):
        sys.exit(f"{len(epds)} EPD lines but {len(results)} results")
    points, positions = defaultdict(int), defaultdict(int)
    for epd, result in zip(epds, results):
        theme = re.sub(r"^STS\(v[\d.]+\) |\.\d+$", "", field(epd, "id") or "?")
        moves = (field(epd, "c9") or "").split()
        values = [int(v) for v in (field(epd, "c8") or "").split()]
        awards = dict(zip(moves, values))
        points[theme] += awards.get(result.get("bestmove"), 0)
        positions[theme] += 1
    for theme in points:
        print(f"{theme:<46} {points[theme]:>5} / {10 * positions[theme]}")
    total, most = sum(points.values()), 10 * sum(positions.values())
    print(f"{'total':<46} {total:>5} / {most} ({100 * total / most:.1f}%)")


if __name__ == "__main__":
    main()
