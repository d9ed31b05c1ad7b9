#!/usr/bin/env python3
"""Adds up a match played in parts: W-L-D, pentanomial Elo and the SPRT decision.

A time-control SPRT of a small step needs more games than one sitting can play: play it
in parts of a fixed length, each with its own seed (tools/logged_match.sh writes each
part's PGN), and decide on the sum after each part:

    tools/combine_matches.py --sprt 0 10 --first NEW logs/part1.pgn logs/part2.pgn ...

A part is a PGN of its games (fastchess's -pgnout, where both games of an opening share a
Round tag, or an older runner's, where rounds 2p+1 and 2p+2 are one opening's pair; only
complete pairs count) or an older runner's JSON summary (fields engines, wins, losses,
draws, pentanomial). The result given is that of the engine `--first` names (tools/sprt.sh
names the candidate), by default White of the first game written to the first part, which
in a PGN written as games finish can be either engine.

While a part is still being played, its PGN counts its completed pairs, so the decision
can be taken after every pair, as in one unbroken SPRT; `--stop PID` then sends SIGTERM to
that part's runner once the sum is decided (exit status 1). For example, every 30 seconds:

    while sleep 30; do tools/combine_matches.py --sprt 0 10 --first NEW part1.pgn part2.pgn \
        --stop "$RUNNER_PID" || break; done

Statistics: logistic Elo from the mean score per pair, its 95% margin from the pentanomial
variance; the SPRT is the GSPRT normal approximation on the pair scores (0, 1/4, 1/2, 3/4,
1), LLR = N (s1 - s0) (2m - s0 - s1) / (2v) for N pairs, with m and v the mean and variance
of the pair scores after one pseudo-pair in each bucket, s0 and s1 the expected scores at
ELO0 and ELO1, and the bounds log(beta / (1 - alpha)) and log((1 - beta) / alpha).
Needs python-chess (`pip install python-chess`) for PGN parts.
"""
import argparse
import json
import math
import os
import signal
import sys

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)  # a pair's score per game: LL, LD, DD/WL, WD, WW
WHITE_POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
Z95 = 1.959964


def expected_score(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def score_to_elo(score):
    if score <= 0 or score >= 1:
        return math.copysign(math.inf, score - 0.5)
    return -400 * math.log10(1 / score - 1)


def mean_and_variance(counts):
    n = sum(counts)
    mean = sum(s * c for s, c in zip(PAIR_SCORES, counts)) / n
    return mean, sum(c * (s - mean) ** 2 for s, c in zip(PAIR_SCORES, counts)) / n


def elo_with_margin(penta):
    mean, variance = mean_and_variance(penta)
    spread = Z95 * math.sqrt(variance / sum(penta))
    return score_to_elo(mean), (score_to_elo(mean + spread) - score_to_elo(mean - spread)) / 2


def sprt_llr(penta, elo0, elo1):
    mean, variance = mean_and_variance([c + 1 for c in penta])
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return sum(penta) * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


def check_engine(first, engines):
    if first not in engines:
        raise ValueError(f"no engine {first} (it has {engines[0]} and {engines[1]})")


def pgn_part(path, first):
    """(engines, (W, L, D), pentanomial) of `first` (or White of the first game) over the
    complete pairs of a PGN."""
    import chess.pgn

    games = []  # (round, white, black, white's points)
    with open(path, encoding="utf-8") as pgn:
        while (headers := chess.pgn.read_headers(pgn)) is not None:
            points = WHITE_POINTS.get(headers.get("Result"))
            if points is not None:
                games.append((headers.get("Round", "?"), headers["White"], headers["Black"],
                              points))
    if not games:
        return None, (0, 0, 0), [0] * 5
    first = first or games[0][1]
    check_engine(first, games[0][1:3])
    engines = [first, games[0][2] if games[0][1] == first else games[0][1]]
    rounds = {}
    for game in games:
        rounds.setdefault(game[0], []).append(game)
    if any(len(pair) == 2 for pair in rounds.values()):  # fastchess: a pair shares its round
        pairs = [pair for pair in rounds.values() if len(pair) == 2]
    else:  # one game a round: rounds 2p+1 and 2p+2 are a pair
        by_number = {int(r): g[0] for r, g in rounds.items() if r.isdigit()}
        pairs = [[by_number[n], by_number[n + 1]] for n in sorted(by_number)
                 if n % 2 == 1 and n + 1 in by_number]
    results = [[p if white == first else 1 - p for _, white, _, p in pair] for pair in pairs]
    flat = [points for pair in results for points in pair]
    penta = [0] * 5
    for pair in results:
        penta[round(2 * sum(pair))] += 1
    return engines, (flat.count(1.0), flat.count(0.0), flat.count(0.5)), penta


def json_part(path, first):
    """(engines, (W, L, D), pentanomial) of `first` (or the summary's first engine)."""
    with open(path, encoding="utf-8") as f:
        part = json.load(f)
    engines, penta = list(part["engines"]), list(part["pentanomial"])
    wins, losses, draws = part["wins"], part["losses"], part["draws"]
    if first and engines[0] != first:
        check_engine(first, engines)
        return engines[::-1], (losses, wins, draws), penta[::-1]
    return engines, (wins, losses, draws), penta


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="+", help="PGN files or JSON summaries of the parts")
    parser.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"))
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--first", metavar="NAME", help="the engine whose result is given "
                        "(default: White of the first game)")
    parser.add_argument("--stop", type=int, metavar="PID",
                        help="SIGTERM this runner once the SPRT has decided (exit status 1)")
    args = parser.parse_args()

    engines, wins, losses, draws, penta = None, 0, 0, 0, [0] * 5
    for path in args.parts:
        first = engines[0] if engines else args.first
        try:
            if path.endswith(".json"):
                names, (won, lost, drawn), part = json_part(path, first)
            else:
                names, (won, lost, drawn), part = pgn_part(path, first)
        except (OSError, KeyError, ValueError) as error:
            sys.exit(f"combine_matches.py: {path}: {error}")
        if names is None:
            print(f"{path}: no finished game")
            continue
        if engines is None:
            engines = names
        elif sorted(names) != sorted(engines):
            sys.exit(f"combine_matches.py: {path} has engines {names}, not {engines}")
        wins, losses, draws = wins + won, losses + lost, draws + drawn
        penta = [a + b for a, b in zip(penta, part)]
        print(f"{path}: {won}-{lost}-{drawn}, pentanomial {part}")
    if sum(penta) == 0:
        sys.exit("combine_matches.py: no complete game pairs")
    elo, margin = elo_with_margin(penta)
    print(f"{engines[0]} vs {engines[1]}: {wins}-{losses}-{draws} in {wins + losses + draws} "
          f"games, pentanomial {penta}, Elo {elo:+.1f} +/- {margin:.1f} (95%)")
    if args.sprt:
        elo0, elo1 = args.sprt
        llr = sprt_llr(penta, elo0, elo1)
        lower = math.log(args.beta / (1 - args.alpha))
        upper = math.log((1 - args.beta) / args.alpha)
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
