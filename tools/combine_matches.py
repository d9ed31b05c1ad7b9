#!/usr/bin/env python3
"""Adds up matches that ../shared/tools/match.py played in parts (its --json summaries).

A time-control SPRT of a small step needs more games than one session can play: play it
in parts of a fixed length, each with its own --seed, and decide on the sum after each
part. This prints the summed W-L-D, the pentanomial Elo with its 95% margin and the SPRT
log-likelihood ratio, computed exactly as match.py computes them (GSPRT normal
approximation on logistic Elo, per-pair scores, one pseudo-pair in each bucket):

    tools/combine_matches.py --sprt 0 10 part1.json part2.json ...

Every part must have the same two engines in the same order.
"""
import argparse
import json
import math
import sys

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
Z95 = 1.959963984540054


def expected_score(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def score_to_elo(score):
    if score <= 0 or score >= 1:
        return math.copysign(math.inf, score - 0.5)
    return -400 * math.log10(1 / score - 1)


def pentanomial_elo(penta):
    """Elo and 95% margin from the pair-score frequencies (no smoothing, as match.py)."""
    pairs = sum(penta)
    mean = sum(s * c for s, c in zip(PAIR_SCORES, penta)) / pairs
    variance = sum(c * (s - mean) ** 2 for s, c in zip(PAIR_SCORES, penta)) / pairs
    spread = Z95 * math.sqrt(variance / pairs)
    low, high = score_to_elo(mean - spread), score_to_elo(mean + spread)
    return score_to_elo(mean), (high - low) / 2


def sprt_llr(penta, elo0, elo1):
    smoothed = [c + 1 for c in penta]
    mean = sum(s * c for s, c in zip(PAIR_SCORES, smoothed)) / sum(smoothed)
    variance = sum(c * (s - mean) ** 2 for s, c in zip(PAIR_SCORES, smoothed)) / sum(smoothed)
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return sum(penta) * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="+", help="match.py --json files")
    parser.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"))
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    args = parser.parse_args()

    engines, wins, losses, draws, penta = None, 0, 0, 0, [0] * 5
    for path in args.parts:
        with open(path) as f:
            part = json.load(f)
        if engines is None:
            engines = part["engines"]
        elif part["engines"] != engines:
            sys.exit(f"error: {path} has engines {part['engines']}, not {engines}")
        wins, losses, draws = wins + part["wins"], losses + part["losses"], draws + part["draws"]
        penta = [a + b for a, b in zip(penta, part["pentanomial"])]
        print(f"{path}: {part['wins']}-{part['losses']}-{part['draws']}, "
              f"pentanomial {part['pentanomial']}")
    if sum(penta) == 0:
        sys.exit("error: no complete game pairs")
    elo, margin = pentanomial_elo(penta)
    games = wins + losses + draws
    print(f"{engines[0]} vs {engines[1]}: {wins}-{losses}-{draws} in {games} games, "
          f"pentanomial {penta}, Elo {elo:+.1f} +/- {margin:.1f} (95%)")
    if args.sprt:
        elo0, elo1 = args.sprt
        llr = sprt_llr(penta, elo0, elo1)
        lower = math.log(args.beta / (1 - args.alpha))
        upper = math.log((1 - args.beta) / args.alpha)
        verdict = "H1 accepted" if llr >= upper else "H0 accepted" if llr <= lower else "continue"
        print(f"SPRT [{elo0:g}, {elo1:g}]: LLR {llr:.2f} ({lower:.2f}, {upper:.2f}) -> {verdict}")


if __name__ == "__main__":
    main()
