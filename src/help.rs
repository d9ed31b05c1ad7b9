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

/// The flags of a tool, with their defaults (clap's help of the tool's command line), or
/// `None` if `tool` is no tool.
pub fn tool_usage(tool: &str) -> Option<String> {
    use clap::CommandFactory;
    let mut command = match tool {
        "analyze" => crate::analyze::Args::command(),
        "datagen" => crate::datagen::Args::command(),
        "tune" => crate::tune::Args::command(),
        "train" => crate::train::Args::command(),
        _ => return None,
    };
    Some(command.render_help().to_string())
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
                usage.contains(&format!("Usage: cutoff {tool}")),
                "{tool}: {usage}"
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
