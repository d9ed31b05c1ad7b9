#!/usr/bin/env python3
"""How often Cutoff's move keeps the tablebase result, with and without tables.

    tools/tb_keep.py CUTOFF SYZYGY_DIR EPD [EPD ...] [--movetime MS]

Takes the positions of the EPD files that the tables in SYZYGY_DIR cover (no more pieces
than its largest table), runs `CUTOFF analyze` on them at MS per move (default 1000)
without and with `--syzygy SYZYGY_DIR`, and checks each chosen move with python-chess's
own Syzygy reader: the move keeps the result when the position after it has the opposite
WDL (counting the fifty-move rule: cursed wins and blessed losses are draws). Prints the
counts per file and setting."""
import json, subprocess, sys, tempfile, os
import chess, chess.syzygy

def wdl50(tb, board):
    w = tb.probe_wdl(board)
    return 0 if abs(w) == 1 else w

def main():
    args = sys.argv[1:]
    movetime = "1000"
    if "--movetime" in args:
        i = args.index("--movetime"); movetime = args[i + 1]; del args[i:i + 2]
    cutoff, tbdir, epds = args[0], args[1], args[2:]
    tb = chess.syzygy.open_tablebase(tbdir)
    pieces = max(sum(c.isalpha() for c in f.split("v")[0] + f.split("v")[1].split(".")[0])
                 for f in os.listdir(tbdir) if f.endswith(".rtbw"))
    for epd in epds:
        fens = []
        for line in open(epd):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fen = " ".join(line.split()[:4])
            board = chess.Board(fen)
            if chess.popcount(board.occupied) <= pieces and not board.is_game_over():
                fens.append(fen)
        with tempfile.NamedTemporaryFile("w", suffix=".epd", delete=False) as f:
            f.write("".join(fen + "\n" for fen in fens)); path = f.name
        for name, extra in (("without tables", []), ("with tables", ["--syzygy", tbdir])):
            out = subprocess.run([cutoff, "analyze", path, "--movetime", movetime] + extra,
                                 capture_output=True, text=True, check=True).stdout
            kept = total = 0
            for line in out.splitlines():
                row = json.loads(line)
                if row.get("summary") or row.get("bestmove") is None:
                    continue
                board = chess.Board(row["fen"])
                before = wdl50(tb, board)
                board.push_uci(row["bestmove"])
                after = 0 if board.is_game_over() and not board.is_checkmate() else (
                    -2 if board.is_checkmate() else wdl50(tb, board))
                total += 1
                kept += (-after >= before)
            print(f"{os.path.basename(epd)}: {name}: {kept}/{total} moves keep the result")
        os.unlink(path)

main()
