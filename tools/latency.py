#!/usr/bin/env python3
"""Protocol latency of a UCI engine, measured over pipes (Python 3, stdlib only).

For each sample the engine is given a position and ``go infinite``; then

  (b) after a random wait (default 50-300 ms) ``isready`` is sent and the time until
      ``readyok`` arrives is recorded: how fast the engine answers while searching;
  (a) after another random wait ``stop`` is sent and the time until the ``bestmove``
      line arrives is recorded: how fast a running search can be stopped.

Then ``isready`` is sent once more and everything up to ``readyok`` is read, so that the
next sample starts clean (and so that a second ``bestmove`` would be noticed).

Times are taken with ``time.perf_counter()`` just before the command is written and
just after the ``read()`` that returned the answer line; the engine's output is read
from the raw pipe with ``select`` (no Python-level buffering, no helper thread). The
figures therefore include the pipe round trip and the Python loop's own overhead; run
with ``--baseline`` to measure that floor with ``cat`` as an echo "engine".

Usage:
  tools/latency.py [-n 200] [--seed 1] target/release/cutoff
  tools/latency.py --option Threads=1 -- /usr/games/stockfish
  tools/latency.py --baseline
"""

import argparse
import os
import random
import select
import subprocess
import sys
import time

POSITIONS = [
    # start position
    "startpos",
    # "Kiwipete", a busy middlegame
    "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    # a quiet middlegame
    "fen r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    # a rook endgame
    "fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    # an endgame with few pieces and Black to move
    "fen 8/8/4k3/3p4/3P4/4K3/8/8 b - - 0 1",
]


class EngineError(Exception):
    pass


class Engine:
    """A child process spoken to line by line over unbuffered pipes."""

    def __init__(self, command):
        self.command = command
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            bufsize=0,
        )
        self.fd = self.proc.stdout.fileno()
        self.pending = b""
        self.lines = []  # complete lines read but not yet consumed: (time, text)

    def send(self, line):
        """Writes one line; returns perf_counter() taken just before the write."""
        data = (line + "\n").encode()
        start = time.perf_counter()
        os.write(self.proc.stdin.fileno(), data)
        return start

    def _fill(self, timeout):
        """Reads whatever is available within `timeout` seconds into self.lines."""
        ready, _, _ = select.select([self.fd], [], [], max(timeout, 0.0))
        if not ready:
            return False
        chunk = os.read(self.fd, 1 << 16)
        now = time.perf_counter()
        if not chunk:
            raise EngineError("the engine closed its output")
        self.pending += chunk
        *complete, self.pending = self.pending.split(b"\n")
        for raw in complete:
            self.lines.append((now, raw.rstrip(b"\r").decode("utf-8", "replace")))
        return True

    def read_line(self, deadline):
        """The next line and the time it was read, or None at the deadline."""
        while not self.lines:
            if not self._fill(deadline - time.perf_counter()):
                if time.perf_counter() >= deadline:
                    return None
        return self.lines.pop(0)

    def wait_for(self, predicate, timeout=10.0):
        """Reads until a line satisfies `predicate`; returns (time, line, skipped)."""
        deadline = time.perf_counter() + timeout
        skipped = []
        while True:
            item = self.read_line(deadline)
            if item is None:
                raise EngineError(
                    "no expected line within %.1f s; last lines: %r"
                    % (timeout, skipped[-5:])
                )
            at, line = item
            if predicate(line):
                return at, line, skipped
            skipped.append(line)

    def drain_for(self, seconds):
        """Reads (and discards) output for `seconds`; returns the lines read."""
        deadline = time.perf_counter() + seconds
        seen = []
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                break
            self._fill(left)
            seen.extend(line for _, line in self.lines)
            self.lines.clear()
        return seen

    def close(self):
        try:
            self.send("quit")
        except OSError:
            pass
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def percentile(sorted_values, fraction):
    """Nearest-rank percentile of an already sorted list."""
    if not sorted_values:
        return float("nan")
    rank = max(1, int(-(-fraction * len(sorted_values) // 1)))  # ceil
    return sorted_values[min(rank, len(sorted_values)) - 1]


def summary(name, samples_ms):
    values = sorted(samples_ms)
    if not values:
        return "%-22s no samples" % name
    return "%-22s n=%-4d p50 %7.3f  p90 %7.3f  p99 %7.3f  max %7.3f  (min %.3f, mean %.3f) ms" % (
        name,
        len(values),
        percentile(values, 0.50),
        percentile(values, 0.90),
        percentile(values, 0.99),
        values[-1],
        values[0],
        sum(values) / len(values),
    )


def handshake(engine, options):
    engine.send("uci")
    _, _, lines = engine.wait_for(lambda l: l == "uciok")
    name = next((l[len("id name "):] for l in lines if l.startswith("id name ")), "?")
    for option in options:
        key, _, value = option.partition("=")
        engine.send("setoption name %s value %s" % (key, value))
    engine.send("isready")
    engine.wait_for(lambda l: l == "readyok")
    return name


def measure_engine(command, samples, wait_range, options, rng, verbose):
    engine = Engine(command)
    stop_ms, ready_ms = [], []
    problems = []
    try:
        name = handshake(engine, options)
        print("engine: %s (%s)" % (name, " ".join(command)))
        engine.send("ucinewgame")
        for i in range(samples):
            position = POSITIONS[i % len(POSITIONS)]
            engine.send("position " + position)
            engine.send("go infinite")
            # (b) isready -> readyok during the search.
            seen = engine.drain_for(rng.uniform(*wait_range) / 1000.0)
            if any(l.startswith("bestmove") for l in seen):
                problems.append("sample %d: bestmove before stop during go infinite" % i)
            sent = engine.send("isready")
            at, _, skipped = engine.wait_for(lambda l: l == "readyok")
            ready_ms.append((at - sent) * 1000.0)
            if any(l.startswith("bestmove") for l in skipped):
                problems.append("sample %d: bestmove before readyok" % i)
            # (a) stop -> bestmove.
            seen = engine.drain_for(rng.uniform(*wait_range) / 1000.0)
            if any(l.startswith("bestmove") for l in seen):
                problems.append("sample %d: bestmove before stop during go infinite" % i)
            sent = engine.send("stop")
            at, line, _ = engine.wait_for(lambda l: l.startswith("bestmove"))
            stop_ms.append((at - sent) * 1000.0)
            # Resynchronise, and notice a second bestmove if one comes.
            engine.send("isready")
            _, _, skipped = engine.wait_for(lambda l: l == "readyok")
            if any(l.startswith("bestmove") for l in skipped):
                problems.append("sample %d: a second bestmove after stop" % i)
            if verbose:
                print(
                    "  %3d %-10s isready %.3f ms, stop %.3f ms (%s)"
                    % (i, position.split()[0], ready_ms[-1], stop_ms[-1], line),
                    file=sys.stderr,
                )
    finally:
        engine.close()
    return stop_ms, ready_ms, problems


def measure_baseline(samples, rng):
    """Round trip of a line through `cat`: the pipes' and this script's own cost."""
    engine = Engine(["cat"])
    echo_ms = []
    try:
        for _ in range(samples):
            engine.drain_for(rng.uniform(1, 5) / 1000.0)
            sent = engine.send("isready")
            at, _, _ = engine.wait_for(lambda l: l == "isready")
            echo_ms.append((at - sent) * 1000.0)
    finally:
        engine.proc.stdin.close()
        engine.proc.wait()
    return echo_ms


def main():
    parser = argparse.ArgumentParser(
        description="stop->bestmove and isready->readyok latency of a UCI engine"
    )
    parser.add_argument("-n", "--samples", type=int, default=200, help="samples of each kind (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="random seed for the waits (default 1)")
    parser.add_argument("--min-wait", type=float, default=50.0, help="shortest wait before a command, ms (default 50)")
    parser.add_argument("--max-wait", type=float, default=300.0, help="longest wait before a command, ms (default 300)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="setoption sent after uci (repeatable), e.g. --option Threads=1",
    )
    parser.add_argument("--baseline", action="store_true", help="also (or, without an engine, only) time an echo through cat")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every sample to stderr")
    parser.add_argument("engine", nargs=argparse.REMAINDER, help="the engine command and its arguments")
    args = parser.parse_args()
    command = [a for a in args.engine if a != "--"] if args.engine else []
    if not command and not args.baseline:
        parser.error("give an engine command (or --baseline)")
    if args.min_wait < 0 or args.max_wait < args.min_wait:
        parser.error("need 0 <= --min-wait <= --max-wait")
    rng = random.Random(args.seed)

    status = 0
    if args.baseline:
        echo = measure_baseline(args.samples, rng)
        print("baseline: a line echoed by cat (pipe round trip + Python overhead)")
        print("  " + summary("echo round trip", echo))
    if command:
        stop_ms, ready_ms, problems = measure_engine(
            command, args.samples, (args.min_wait, args.max_wait), args.option, rng, args.verbose
        )
        print("  " + summary("stop -> bestmove", stop_ms))
        print("  " + summary("isready -> readyok", ready_ms))
        for problem in problems:
            print("  PROBLEM: " + problem)
        if problems:
            status = 1
    return status


if __name__ == "__main__":
    try:
        sys.exit(main())
    except EngineError as error:
        print("latency.py: %s" % error, file=sys.stderr)
        sys.exit(2)
