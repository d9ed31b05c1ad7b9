//! What Cutoff says about itself: the banner printed when it starts in UCI mode, the
//! answer to `help` (in UCI mode and as `cutoff --help`) and the version. The list of
//! tools in `help` comes from the table of tools (`tools.rs`), which the caller passes in.

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

/// The answer to `help`, with `tools` (one line a tool) under its heading.
pub fn general(tools: &str) -> String {
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
  eval            show the static evaluation (the net's score, or the hand-crafted terms)
  go perft <n>    count the leaf nodes to depth n, by root move (stop ends it)
  bench [depth]   the search's fingerprint: '<N> nodes <M> nps' (stop ends it)
  genfens <n> seed <s> book <None|FILE.epd> [plies <p>] [nodes <k>] [maxscore <cp>]
                  n distinct, balanced opening positions for OpenBench's data generation,
                  as 'info string genfens <FEN>' lines (stop ends it)
  help            this text
Any command can also be given on the command line: `cutoff go perft 6`, `cutoff bench`.
With an argument holding a space, each argument is one command, run in turn:
`cutoff \"genfens 16 seed 7 book None\" quit`.

Tools (`cutoff <tool> --help` lists the flags):
{tools}

Errors come back as `info string error: ...` and change nothing.",
        version()
    )
}
