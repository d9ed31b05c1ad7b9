#!/usr/bin/env python3
"""Adds up matches that ../shared/tools/match.py played in parts (its --json summaries).

A time-control SPRT of a small step needs more games than one session can play: play it
in parts of a fixed length, each with its own --seed, and decide on the sum after each
part. This prints the summed W-L-D, the pentanomial Elo with its 95% margin and the SPRT
log-likelihood ratio, with match.py's own statistics functions (loaded from --match-py),
so the sum of one part is exactly what match.py printed for it:

    tools/combine_matches.py --sprt 0 10 part1.json part2.json ...

While a part is being played, `--running part.pgn` (match.py's --pgn of that part) adds
its completed pairs (rounds 2p+1 and 2p+2 are one opening's pair), so the decision can be
taken after every pair, as in one unbroken SPRT; `--stop PID` then sends SIGTERM to that
part's match.py once the sum is decided (match.py writes its --json with the pairs it
completed). For example, every 30 seconds:

    while sleep 30; do tools/combine_matches.py --sprt 0 10 part1.json part2.json \
        --running part3.pgn --stop "$(pgrep -f 'match.py.*part3')" || break; done

Every part must have the same two engines in the same order. Needs python-chess (which
match.py imports).
"""
import argparse
import importlib.util
import json
import os
import pathlib
import signal
import sys

import chess.pgn

WHITE_POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
DEFAULT_MATCH_PY = pathlib.Path(__file__).resolve().parents[2] / "shared/tools/match.py"


def load_match_py(path):
    if not path.is_file():
        sys.exit(f"error: {path} not found (give match.py's path with --match-py)")
    spec = importlib.util.spec_from_file_location("match", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["match"] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def pentanomial_of_pgn(path, first):
    """`first`'s W-L-D and pentanomial over the completed pairs of a match.py PGN."""
    points = {}  # round -> first's points
    with open(path, encoding="utf-8") as pgn:
        while (headers := chess.pgn.read_headers(pgn)) is not None:
            white_points = WHITE_POINTS.get(headers.get("Result"))
            if white_points is not None:
                points[int(headers["Round"])] = (
                    white_points if headers["White"] == first else 1 - white_points)
    pairs = [(points[n], points[n + 1]) for n in range(1, max(points, default=0) + 1, 2)
             if n in points and n + 1 in points]
    games = [game for pair in pairs for game in pair]
    penta = [0] * 5
    for pair in pairs:
        penta[round(2 * sum(pair))] += 1
    return (games.count(1.0), games.count(0.0), games.count(0.5)), penta


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="+", help="match.py --json files")
    parser.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"))
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--match-py", type=pathlib.Path, default=DEFAULT_MATCH_PY)
    parser.add_argument("--running", type=pathlib.Path, metavar="PART.pgn",
                        help="add the completed pairs of a part still being played")
    parser.add_argument("--stop", type=int, metavar="PID",
                        help="SIGTERM this match.py once the SPRT has decided (exit status 1)")
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
    if args.running:
        (won, lost, drawn), running = pentanomial_of_pgn(args.running, engines[0])
        wins, losses, draws = wins + won, losses + lost, draws + drawn
        penta = [a + b for a, b in zip(penta, running)]
        print(f"{args.running}: {won}-{lost}-{drawn} in {sum(running)} completed pairs, "
              f"pentanomial {running}")
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
        if args.stop and verdict != "continue":
            try:
                os.kill(args.stop, signal.SIGTERM)
                print(f"sent SIGTERM to {args.stop}")
            except ProcessLookupError:
                print(f"no process {args.stop} to stop")
            sys.exit(1)


if __name__ == "__main__":
    main()
