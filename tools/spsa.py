#!/usr/bin/env python3
"""SPSA tuning of the search's parameters with fastchess, on one machine.

    tools/spsa.py --engine BIN --state run.json --openings BOOK.epd
                  [--iterations 2000] [--pairs 1] [--nodes 5000 | --tc 8+0.08]
                  [--only name,name,...] [--r-end R] [--concurrency 2] [--seed 1]
    tools/spsa.py --state run.json            (resume the run the file describes)
    tools/spsa.py --state run.json --show     (print its current values and stop)
    tools/spsa.py --state run.json --apply src/search/params.rs
                                              (write them as the defaults there)

BIN is a build with `--features tune`: `BIN params` lists the parameters (name, int,
default, min, max, c_end, r_end), and each is a UCI spin option. Every iteration k
(from 0) perturbs all parameters at once by +-c_k (a random sign each), plays --pairs
game pairs (each opening with both colours) between the engine set to theta + c_k*delta
("plus") and the one set to theta - c_k*delta ("minus"), and moves theta by
a_k / c_k * (plus's wins - losses) * delta. The gains follow OpenBench's scheme, with N
iterations and A = N / 10:

    c_k = c_end * N^0.101 / (k + 1)^0.101           (c_k = c_end at the last iteration;
                                                     at least 0.5: the values are integers)
    a_k = r_end * c_end^2 * (A + N)^0.602 / (A + k + 1)^0.602

Integer values are rounded at random (up with the probability of the fraction), so that
a perturbation smaller than 1 still moves the engines on average, and kept in [min, max].
The state (theta, the iteration reached, the results) is written to --state after every
iteration; run the same command again, or with --state alone, to resume. fastchess is
found on PATH or named by FASTCHESS (or --fastchess). Standard library only.
"""

import argparse
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

ALPHA = 0.602
GAMMA = 0.101


def fail(message):
    print(f"spsa.py: {message}", file=sys.stderr)
    sys.exit(2)


def read_parameters(engine):
    """The rows of `engine params`: name, default, min, max, c_end, r_end."""
    try:
        done = subprocess.run([engine, "params"], capture_output=True, text=True, timeout=60)
    except OSError as error:
        fail(f"cannot run {engine}: {error}")
    if done.returncode != 0:
        fail(f"{engine} params failed (a build without --features tune?): "
             f"{done.stderr.strip()}")
    rows = []
    for line in done.stdout.splitlines():
        fields = [f.strip() for f in line.split(",")]
        if len(fields) != 7 or fields[1] != "int":
            fail(f"unexpected line from {engine} params: {line!r}")
        name, _, default, low, high, c_end, r_end = fields
        rows.append({"name": name, "start": int(default), "min": int(low), "max": int(high),
                     "c_end": float(c_end), "r_end": float(r_end), "value": float(default)})
    if not rows:
        fail(f"{engine} params listed no parameter")
    return rows


def new_state(args):
    if not args.engine or not args.openings:
        fail("a new run needs --engine and --openings")
    if (args.nodes is None) == (args.tc is None):
        fail("give one of --nodes and --tc")
    params = read_parameters(os.path.abspath(args.engine))
    if args.only:
        wanted = [n.strip() for n in args.only.split(",") if n.strip()]
        unknown = sorted(set(wanted) - {p["name"] for p in params})
        if unknown:
            fail(f"no such parameter: {', '.join(unknown)}")
        params = [p for p in params if p["name"] in wanted]
    if args.r_end is not None:
        if args.r_end <= 0:
            fail("--r-end must be positive")
        for param in params:
            param["r_end"] = args.r_end
    return {
        "version": 1,
        "engine": os.path.abspath(args.engine),
        "openings": os.path.abspath(args.openings),
        "nodes": args.nodes,
        "tc": args.tc,
        "iterations": args.iterations,
        "pairs": args.pairs,
        "concurrency": args.concurrency,
        "seed": args.seed,
        "big_a": args.iterations / 10,
        "next": 0,
        "params": params,
        "log": [],
    }


def save_state(state, path):
    """Writes the state atomically: a crash leaves the old file or the new one."""
    temporary = f"{path}.tmp"
    with open(temporary, "w", encoding="utf-8") as out:
        json.dump(state, out, indent=1)
        out.write("\n")
    os.replace(temporary, path)


def gains(state, param, k):
    """(c_k, a_k) of `param` at iteration k."""
    n, big_a = state["iterations"], state["big_a"]
    c_k = max(param["c_end"] * (n / (k + 1)) ** GAMMA, 0.5)
    a = param["r_end"] * param["c_end"] ** 2 * (big_a + n) ** ALPHA
    return c_k, a / (big_a + k + 1) ** ALPHA


def random_round(value, rng, low, high):
    """`value` rounded up with the probability of its fraction, within [low, high]."""
    whole = math.floor(value)
    if rng.random() < value - whole:
        whole += 1
    return min(max(whole, low), high)


def fastchess_command(state, plus, minus, pgn, seed):
    program = os.environ.get("FASTCHESS", "fastchess")
    if shutil.which(program) is None:
        fail(f"no fastchess ({program!r}): put it on PATH or set FASTCHESS")
    command = [program]
    for name, values in (("plus", plus), ("minus", minus)):
        command += ["-engine", f"cmd={state['engine']}", f"name={name}"]
        command += [f"option.{p}={v}" for p, v in values.items()]
    if state["nodes"] is not None:
        limits = ["tc=inf", f"nodes={state['nodes']}"]
    else:
        limits = [f"tc={state['tc']}"]
    command += ["-each"] + limits + ["option.Threads=1", "option.Hash=16"]
    command += ["-openings", f"file={state['openings']}", "format=epd", "order=random",
                "-srand", str(seed),
                "-rounds", str(state["pairs"]), "-games", "2", "-repeat",
                "-concurrency", str(state["concurrency"]),
                "-pgnout", f"file={pgn}"]
    if state["concurrency"] > (os.cpu_count() or 1):
        # Fixed-node games do not depend on the cores they get, and each game has one
        # engine thinking at a time: more games than cores fill the cores' idle gaps.
        command.append("-force-concurrency")
    return command


def score_games(pgn):
    """(wins, losses, draws) of the engine named plus in the PGN file."""
    wins = losses = draws = 0
    try:
        with open(pgn, encoding="utf-8", errors="replace") as games:
            text = games.read()
    except FileNotFoundError:
        return 0, 0, 0
    for game in text.split("[Event ")[1:]:
        tags = {}
        for line in game.splitlines():
            if line.startswith("[") and ' "' in line:
                key, _, rest = line[1:].partition(' "')
                tags[key] = rest.rsplit('"', 1)[0]
        result = tags.get("Result")
        if result == "1/2-1/2":
            draws += 1
        elif result in ("1-0", "0-1"):
            winner = tags.get("White") if result == "1-0" else tags.get("Black")
            if winner == "plus":
                wins += 1
            else:
                losses += 1
    return wins, losses, draws


def iterate(state):
    """Plays iteration `state['next']` and updates theta; False when no game was played."""
    k = state["next"]
    rng = random.Random(state["seed"] * 1_000_003 + k)
    plus, minus, steps = {}, {}, []
    for param in state["params"]:
        c_k, a_k = gains(state, param, k)
        sign = rng.choice((-1, 1))
        low, high = param["min"], param["max"]
        plus[param["name"]] = random_round(param["value"] + sign * c_k, rng, low, high)
        minus[param["name"]] = random_round(param["value"] - sign * c_k, rng, low, high)
        steps.append(a_k / c_k * sign)
    started = time.time()
    with tempfile.TemporaryDirectory(prefix="spsa-") as scratch:
        pgn = os.path.join(scratch, "games.pgn")
        command = fastchess_command(state, plus, minus, pgn, rng.randrange(1 << 31))
        # fastchess writes its own state file (config.json) in its working directory.
        done = subprocess.run(command, cwd=scratch, capture_output=True, text=True)
        wins, losses, draws = score_games(pgn)
    if wins + losses + draws == 0:
        print(done.stdout[-2000:], done.stderr[-2000:], sep="\n", file=sys.stderr)
        return False
    for param, step in zip(state["params"], steps):
        moved = param["value"] + step * (wins - losses)
        param["value"] = min(max(moved, param["min"]), param["max"])
    state["log"].append({"iteration": k, "wins": wins, "losses": losses, "draws": draws,
                         "seconds": round(time.time() - started, 1)})
    state["next"] = k + 1
    return True


def print_values(state):
    """The current values, one `name, value` line each (OpenBench's "optimal values")."""
    for param in state["params"]:
        print(f"{param['name']}, {round(param['value'])}")


def apply_values(state, path):
    """Rewrites the defaults of `path` (params.rs, lines `name = default, min, max, c_end;`)
    to the state's values, rounded; prints each change."""
    try:
        with open(path, encoding="utf-8") as source:
            lines = source.read().split("\n")
    except OSError as error:
        fail(f"cannot read {path}: {error}")
    values = {p["name"]: round(p["value"]) for p in state["params"]}
    found = set()
    for number, line in enumerate(lines):
        match = re.match(r"^(\s*)([a-z_0-9]+) = (-?\d+), (.*)$", line)
        if not match or match.group(2) not in values:
            continue
        indent, name, old, rest = match.groups()
        found.add(name)
        if int(old) != values[name]:
            print(f"{name}: {old} -> {values[name]}")
            lines[number] = f"{indent}{name} = {values[name]}, {rest}"
    missing = sorted(set(values) - found)
    if missing:
        fail(f"{path} has no line for {', '.join(missing)}; nothing written")
    with open(path, "w", encoding="utf-8") as out:
        out.write("\n".join(lines))


def print_progress(state):
    entry = state["log"][-1]
    moved = [f"{p['name']} {p['start']}->{p['value']:.2f}" for p in state["params"]
             if abs(p["value"] - p["start"]) >= 0.5]
    print(f"iteration {entry['iteration'] + 1}/{state['iterations']}: "
          f"+{entry['wins']} -{entry['losses']} ={entry['draws']} ({entry['seconds']} s); "
          f"{len(moved)} moved by half a unit or more" + (": " + ", ".join(moved) if moved else ""),
          flush=True)


def main():
    parser = argparse.ArgumentParser(
        description="SPSA tuning of Cutoff's search parameters with fastchess.",
        epilog="The run's settings are kept in --state; on resume the command line's are "
               "ignored, except --stop-after and --show.")
    parser.add_argument("--state", required=True, help="the run's JSON file (created or resumed)")
    parser.add_argument("--engine", help="a cutoff binary built with --features tune")
    parser.add_argument("--openings", help="an EPD opening book")
    parser.add_argument("--iterations", type=int, default=2000, help="N, the run's length")
    parser.add_argument("--pairs", type=int, default=1, help="game pairs per iteration")
    parser.add_argument("--nodes", type=int, help="nodes per move")
    parser.add_argument("--tc", help="a time control instead, as fastchess writes it (8+0.08)")
    parser.add_argument("--only", help="tune only these parameters (comma-separated)")
    parser.add_argument("--r-end", type=float,
                        help="r_end of every parameter instead of the engine's (a shorter run "
                             "needs a larger one for the values to move as far)")
    parser.add_argument("--concurrency", type=int, default=2, help="games at once")
    parser.add_argument("--seed", type=int, default=1, help="seed of the signs and openings")
    parser.add_argument("--stop-after", type=int, help="play at most this many iterations now")
    parser.add_argument("--show", action="store_true", help="print the state's values and stop")
    parser.add_argument("--apply", metavar="PARAMS_RS",
                        help="write the state's values, rounded, as the defaults of this "
                             "file (src/search/params.rs) and stop")
    parser.add_argument("--fastchess", help="the fastchess binary (default: FASTCHESS or PATH)")
    args = parser.parse_args()
    if args.fastchess:
        os.environ["FASTCHESS"] = args.fastchess

    if os.path.exists(args.state):
        try:
            with open(args.state, encoding="utf-8") as saved:
                state = json.load(saved)
        except (OSError, ValueError) as error:
            fail(f"cannot read {args.state}: {error}")
        if not args.show and not args.apply:
            print(f"resuming {args.state} at iteration {state['next'] + 1}/{state['iterations']}")
    else:
        if args.show or args.apply:
            fail(f"no state file {args.state}")
        if args.iterations < 1 or args.pairs < 1 or args.concurrency < 1:
            fail("--iterations, --pairs and --concurrency must be at least 1")
        state = new_state(args)
        save_state(state, args.state)
        print(f"new run {args.state}: {len(state['params'])} parameters, "
              f"{state['iterations']} iterations of {state['pairs']} game pair(s)")
    if args.show:
        print_values(state)
        return
    if args.apply:
        apply_values(state, args.apply)
        return

    played = 0
    while state["next"] < state["iterations"]:
        if args.stop_after is not None and played >= args.stop_after:
            break
        if not iterate(state):
            fail(f"iteration {state['next'] + 1}: fastchess played no game (output above)")
        save_state(state, args.state)
        print_progress(state)
        played += 1
    print_values(state)


if __name__ == "__main__":
    main()
