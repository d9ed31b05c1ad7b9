//! What Cutoff says about itself: the banner printed when it starts in UCI mode, the
//! answer to `help` (in UCI mode and as `cutoff --help`), the version, and each tool's
//! flags for `cutoff <tool> --help`.

/// `Cutoff <version>`.
pub fn version() -> String {
    format!("Cutoff {}", env!("CARGO_PKG_VERSION"))
}

/// The one line printed when the engine starts in UCI mode. GUIs and tournament managers
/// ignore it (as they ignore Stockfish's); a person at a terminal learns where they are.
pub fn banner() -> String {
    format!(
        "{} by the Cutoff developers: a UCI chess engine (type 'help' for the commands)",
        version()
    )
}

/// The answer to `help`.
pub fn general() -> String {
    format!(
        "{}

Cutoff speaks the UCI protocol on stdin/stdout. To play or analyse with it, add the
`cutoff` binary as a UCI engine in a GUI (Cute Chess, Arena, Banksia, En Croissant) or a
tournament manager (fastchess, cutechess-cli); they send the commands below themselves.

UCI commands:
  uci, isready, ucinewgame, setoption name <name> [value <value>]
  position startpos|fen <FEN> [moves <m1> ...]
  go [wtime/btime/winc/binc/movestogo <n>] [depth/nodes/mate/movetime <n>] [infinite]
     [ponder] [searchmoves <m1> ...]
  stop, ponderhit, quit (end of input also quits)
Extra commands:
  d               show the board, its FEN and the legal moves
  eval            show the static evaluation, term by term
  go perft <n>    count the leaf nodes to depth n, by root move (stop ends it)
  bench [depth]   the search's fingerprint: '<N> nodes <M> nps' (stop ends it)
  help            this text
Any command can also be given on the command line: `cutoff go perft 6`, `cutoff bench`.

Tools (`cutoff <tool> --help` lists the flags):
  analyze FILE.epd   search every position of an EPD file, one JSON line each
  datagen            self-play games as training data (text or viriformat)
  tune               fit the hand-crafted evaluation's weights to text data
  train              train the neural network on viriformat games

Errors come back as `info string error: ...` and change nothing.",
        version()
    )
}

/// The flags of a tool, with their defaults, or `None` if `tool` is no tool.
pub fn tool_usage(tool: &str) -> Option<&'static str> {
    Some(match tool {
        "analyze" => {
            "usage: cutoff analyze FILE.epd [flags]
Searches every position of an EPD file (bm/am/id operations read) and prints a JSON
line per position on stdout, progress and the solved count on stderr.
  --movetime MS    time per position (default 1000 when no other limit is given)
  --depth D        depth per position
  --nodes N        nodes per position
  --threads T      search threads, 1..=256 (default 1)
  --hash MB        hash table size, 1..=65536 (default 16)
  --chess960       read castling as Chess960 (X-FEN / Shredder-FEN)"
        }
        "datagen" => {
            "usage: cutoff datagen --games N --nodes K --out FILE [flags]
Plays self-play games, one soft node-limited search per move, and appends them to FILE;
the same seed gives the same file with any thread count.
  --games N        games to play (required)
  --nodes K        soft node budget per move (required; hard cap 8 K)
  --out FILE       file to append to (required)
  --format F       text (quiet positions, `FEN | score | result`) or viri (every ply,
                   viriformat) (default text)
  --threads T      threads, 1..=256 (default 1)
  --seed S         seed of the openings (default 0)
  --first-game G   number of the first game, to resume a run (default 0)
  --hash MB        hash per thread, 1..=4096 (default 16)
  --book FILE.epd  start from these positions plus 2-3 random plies (default: the start
                   position plus 8-9 random plies)
  --net FILE       evaluate with this network (default: the built-in evaluation)"
        }
        "tune" => {
            "usage: cutoff tune --data FILE [flags]
Fits the hand-crafted evaluation's weights to `FEN | score | result` data and writes the
parameter source.
  --data FILE      the data (required)
  --out FILE       where to write (default src/eval/params.rs)
  --epochs N       passes over the data (default 20)
  --lambda X       weight of the game result in the target, 0..=1 (default 0.5)
  --k X            sigmoid scale (default: fitted to the data)
  --lr X           learning rate (default 1.0)
  --decay X        learning-rate decay per epoch, (0, 1] (default 0.95)
  --batch N        positions per step (default 16384)
  --l2 X           pull towards the starting weights (default 0)
  --holdout X      share of the file's tail held out, [0, 1) (default 0.05)
  --threads T      threads (default: all cores)
  --seed S         shuffling seed (default 1)"
        }
        "train" => {
            "usage: cutoff train --data FILE|DIR [--data ...] --out NET [flags]
Trains the neural network (768 -> H x 2 -> 1, SCReLU) on viriformat games and writes the
quantised network file after every epoch (and a float checkpoint, NET.ckpt).
  --data FILE|DIR  viriformat files, or directories of *.viri files (required, repeatable)
  --out NET        the network file to write (required)
  --hidden H       hidden units per perspective, a multiple of 16 (default 128)
  --epochs N       passes over the data (default 10)
  --lr X           learning rate, cosine schedule down to 5% (default 0.001)
  --wdl X          weight of the game result in the target, 0..=1 (default 0.3)
  --batch N        positions per step (default 16384; use 2048 on small data)
  --holdout X      share of the games held out (default 0.05)
  --threads T      threads (default: all cores)
  --seed S         seed (default 1)
  --init FILE      start from a float checkpoint
  --mirror         also train on the left-right mirror of each position without
                   castling rights"
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_has_its_usage_and_help_names_them_all() {
        let help = general();
        for tool in ["analyze", "datagen", "tune", "train"] {
            let usage = tool_usage(tool).unwrap();
            assert!(
                usage.starts_with(&format!("usage: cutoff {tool}")),
                "{tool}"
            );
            assert!(
                help.contains(&format!("  {tool} ")),
                "{tool} missing from help"
            );
        }
        assert_eq!(tool_usage("bench"), None);
        assert!(banner().starts_with(&version()));
    }
}
