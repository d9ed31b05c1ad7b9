#!/usr/bin/env python3
"""Time to depth of a UCI engine with 1 thread and with more (Python 3, stdlib only).

Each position of ``cutoff bench`` (read from the bench output itself) is searched to a
fixed depth from a fresh hash table (``ucinewgame``), once per thread count and per
round; the time is the engine's own ``time`` field of its last ``info ... depth D``
line before ``bestmove``, falling back to the wall clock. The report gives, per thread
count, the total time and the geometric mean over the positions of the speed-up
against 1 thread (time with 1 thread / time with T threads). Lazy SMP is not
deterministic, so several rounds are averaged (the time of a position is the mean over
rounds).

Usage:
  tools/ttd.py [--depth 15] [--threads 1 2] [--rounds 2] [--hash 64] target/release/cutoff
"""

import argparse
import math
import subprocess
import sys

from latency import Engine, handshake  # tools/latency.py: the UCI pipe and handshake

#: Longest wait for one search to finish, seconds.
SEARCH_TIMEOUT = 3600.0


def bench_positions(engine: str) -> list[str]:
    """The FENs of the engine's bench, from lines `position  i/N:  nodes nodes  FEN`."""
    out = subprocess.run([engine, "bench", "1"], capture_output=True, text=True, check=True).stdout
    fens = []
    for line in out.splitlines():
        if line.startswith("position") and " nodes " in line:
            fens.append(line.split(" nodes ", 1)[1].strip())
    if not fens:
        sys.exit("no bench positions found in the output of `bench`")
    return fens


def time_to_depth(engine: Engine, fen: str, depth: int) -> float:
    """Seconds to finish `go depth` on `fen` from an empty hash table."""
    engine.send("ucinewgame")
    engine.send(f"position fen {fen}")
    engine.send("isready")
    engine.wait_for(lambda line: line == "readyok")
    started = engine.send(f"go depth {depth}")
    finished, _, lines = engine.wait_for(lambda line: line.startswith("bestmove"), SEARCH_TIMEOUT)
    reported = None
    for line in lines:
        words = line.split()
        if words[:1] == ["info"] and "depth" in words and "time" in words:
            if int(words[words.index("depth") + 1]) == depth:
                reported = int(words[words.index("time") + 1]) / 1000
    return reported if reported else finished - started


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("engine")
    parser.add_argument("--depth", type=int, default=15)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--hash", type=int, default=64)
    args = parser.parse_args()

    fens = bench_positions(args.engine)
    times = {t: [0.0] * len(fens) for t in args.threads}
    for round_number in range(args.rounds):
        for threads in args.threads:
            engine = Engine([args.engine])
            handshake(engine, [f"Threads={threads}", f"Hash={args.hash}"])
            for index, fen in enumerate(fens):
                seconds = time_to_depth(engine, fen, args.depth)
                times[threads][index] += seconds / args.rounds
                print(f"round {round_number + 1} threads {threads} position {index + 1:>2}: "
                      f"{seconds:7.3f} s", file=sys.stderr)
            engine.close()

    base = times[args.threads[0]]
    print(f"depth {args.depth}, {len(fens)} positions, {args.rounds} rounds, hash {args.hash} MiB")
    for threads in args.threads:
        ratios = [b / t for b, t in zip(base, times[threads]) if b > 0 and t > 0]
        geomean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        total = sum(times[threads])
        print(f"threads {threads}: total {total:8.2f} s, speed-up {sum(base) / total:.2f} (totals), "
              f"{geomean:.2f} (geometric mean of positions), "
              f"faster on {sum(r > 1 for r in ratios)}/{len(ratios)} positions")


if __name__ == "__main__":
    main()
