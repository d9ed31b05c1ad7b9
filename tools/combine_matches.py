#!/usr/bin/env python3
"""Adds up matches that ../shared/tools/match.py played in parts (its --json summaries).

A time-control SPRT of a small step needs more games than one session can play: play it
in parts of a fixed length, each with its own --seed, and decide on the sum after each
part. This prints the summed W-L-D, the pentanomial Elo with its 95% margin and the SPRT
log-likelihood ratio, with match.py's own statistics functions (loaded from --match-py),
so the sum of one part is exactly what match.py printed for it:

    tools/combine_matches.py --sprt 0 10 part1.json part2.json ...

Every part must have the same two engines in the same order. Needs python-chess (which
match.py imports).
"""
import argparse
import importlib.util
import json
import pathlib
import sys

DEFAULT_MATCH_PY = pathlib.Path(__file__).resolve().parents[2] / "shared/tools/match.py"


def load_match_py(path):
    if not path.is_file():
        sys.exit(f"error: {path} not found (give match.py's path with --match-py)")
    spec = importlib.util.spec_from_file_location("match", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["match"] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="+", help="match.py --json files")
    parser.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"))
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--match-py", type=pathlib.Path, default=DEFAULT_MATCH_PY)
    args = parser.parse_args()
    match = load_match_py(args.match_py)

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
    elo, margin = match.elo_with_margin(match.PAIR_SCORES, penta)
    games = wins + losses + draws
    print(f"{engines[0]} vs {engines[1]}: {wins}-{losses}-{draws} in {games} games, "
          f"pentanomial {penta}, Elo {elo:+.1f} +/- {margin:.1f} (95%)")
    if args.sprt:
        elo0, elo1 = args.sprt
        llr = match.sprt_llr(penta, elo0, elo1)
        lower, upper = match.sprt_bounds(args.alpha, args.beta)
        verdict = "H1 accepted" if llr >= upper else "H0 accepted" if llr <= lower else "continue"
        print(f"SPRT [{elo0:g}, {elo1:g}]: LLR {llr:.2f} ({lower:.2f}, {upper:.2f}) -> {verdict}")


if __name__ == "__main__":
    main()
