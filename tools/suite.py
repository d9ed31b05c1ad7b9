#!/usr/bin/env python3
"""Runs a UCI engine over an EPD test suite and counts the positions it solves.

    tools/suite.py ENGINE SUITE.epd [--movetime MS] [--hash MB] [--limit N]

A position is solved when the engine's move is one of the `bm` moves (or none of the
`am` moves). Needs python-chess (`pip install python-chess`).
Prints one line per position and a final `solved X/Y`.
"""
import argparse
import sys

import chess
import chess.engine


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine")
    parser.add_argument("suite")
    parser.add_argument("--movetime", type=int, default=1000, help="ms per position (1000)")
    parser.add_argument("--hash", type=int, default=16, help="MiB (16)")
    parser.add_argument("--limit", type=int, help="only the first N positions")
    args = parser.parse_args()

    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    engine.configure({"Hash": args.hash})
    solved = total = 0
    with open(args.suite, encoding="utf-8") as suite:
        for line in suite:
            if not line.strip() or line.startswith("#"):
                continue
            board, ops = chess.Board.from_epd(line)
            best = ops.get("bm", [])
            avoid = ops.get("am", [])
            engine.protocol.send_line("ucinewgame")
            result = engine.play(board, chess.engine.Limit(time=args.movetime / 1000))
            ok = (not best or result.move in best) and result.move not in avoid
            solved += ok
            total += 1
            name = ops.get("id", f"#{total}")
            print(f"{name}: {board.san(result.move)} {'ok' if ok else 'FAIL'}", flush=True)
            if args.limit and total >= args.limit:
                break
    engine.quit()
    print(f"solved {solved}/{total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
