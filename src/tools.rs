//! The table of the offline tools (`cutoff <tool> ...`): one row a tool, with its name, its
//! line in `help`, its clap command line (for `cutoff <tool> --help`) and the function that
//! runs it. `main.rs` is the only user; adding a tool is one row here. The UCI engine never
//! reaches the tools: it is handed the finished `help` text.

use std::error::Error;

use clap::CommandFactory;

/// What a tool's run ends with: nothing, or the error that stopped it.
pub type Outcome = Result<(), Box<dyn Error>>;

/// One tool subcommand.
pub struct Tool {
    /// The word after `cutoff`.
    pub name: &'static str,
    /// How `help` shows it being called (the name and its main argument).
    pub synopsis: &'static str,
    /// What it does, in one line.
    pub summary: &'static str,
    /// Its command line, as clap declares it.
    pub command: fn() -> clap::Command,
    /// Runs it on the words after its name.
    pub run: fn(&[String]) -> Outcome,
}

/// Every tool, in the order `help` lists them.
pub const TOOLS: [Tool; 9] = [
    Tool {
        name: "analyze",
        synopsis: "analyze FILE.epd",
        summary: "search every position of an EPD file, one JSON line each",
        command: crate::analyze::Args::command,
        run: |args| crate::analyze::main(args).map_err(Into::into),
    },
    Tool {
        name: "annotate",
        synopsis: "annotate FILE.pgn",
        summary: "review games: [%eval] per move, ?!/?/?? with the better line, accuracy",
        command: crate::annotate::Args::command,
        run: |args| crate::annotate::main(args).map_err(Into::into),
    },
    Tool {
        name: "datagen",
        synopsis: "datagen",
        summary: "self-play games as training data (text or viriformat)",
        command: crate::datagen::Args::command,
        run: |args| crate::datagen::main(args).map_err(Into::into),
    },
    Tool {
        name: "net",
        synopsis: "net import",
        summary: "convert a net trained by bullet into a network file (EvalFile)",
        command: crate::net::Args::command,
        run: |args| crate::net::main(args).map_err(Into::into),
    },
    Tool {
        name: "tune",
        synopsis: "tune",
        summary: "fit the hand-crafted evaluation's weights to text data",
        command: crate::tune::Args::command,
        run: |args| crate::tune::main(args).map_err(Into::into),
    },
    Tool {
        name: "train",
        synopsis: "train",
        summary: "train the neural network on viriformat games",
        command: crate::train::Args::command,
        run: |args| crate::train::main(args).map_err(Into::into),
    },
    Tool {
        name: "relabel",
        synopsis: "relabel GAMES.viri",
        summary: "the same viriformat games with the scores of this binary's search",
        command: crate::relabel::Args::command,
        run: |args| crate::relabel::main(args).map_err(Into::into),
    },
    Tool {
        name: "convert",
        synopsis: "convert GAMES.pgn",
        summary: "PGN games with engine scores (fastchess, OpenBench) to viriformat",
        command: crate::convert::Args::command,
        run: |args| crate::convert::main(args).map_err(Into::into),
    },
    Tool {
        name: "params",
        synopsis: "params",
        summary: "the search's parameters in OpenBench's SPSA format (a --features tune build)",
        command: crate::search::params::Args::command,
        run: |args| crate::search::params::main(args).map_err(Into::into),
    },
];

/// The tool called `name`, if there is one.
pub fn find(name: &str) -> Option<&'static Tool> {
    TOOLS.iter().find(|tool| tool.name == name)
}

/// The flags of a tool, with their defaults (clap's help of the tool's command line), or
/// `None` if `tool` is no tool.
pub fn usage(tool: &str) -> Option<String> {
    find(tool).map(|tool| (tool.command)().render_help().to_string())
}

/// The answer to `help` and `cutoff --help`: the UCI commands and the tools.
pub fn help() -> String {
    let lines: Vec<String> = TOOLS
        .iter()
        .map(|tool| format!("  {:<18} {}", tool.synopsis, tool.summary))
        .collect();
    crate::help::general(&lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::help::{banner, version};

    #[test]
    fn every_tool_has_its_usage_and_help_names_them_all() {
        let help = help();
        for tool in [
            "analyze", "annotate", "datagen", "net", "tune", "train", "relabel", "convert",
            "params",
        ] {
            let usage = usage(tool).unwrap();
            assert!(
                usage.contains(&format!("Usage: cutoff {tool}")),
                "{tool}: {usage}"
            );
            assert!(
                help.contains(&format!("  {tool} ")),
                "{tool} missing from help"
            );
        }
        assert_eq!(usage("bench"), None);
        assert!(banner().starts_with(&version()));
    }
}
