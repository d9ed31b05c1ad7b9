//! `cutoff analyze`: batch analysis of an EPD file for shell scripts.
//!
//! ```text
//! cutoff analyze FILE.epd [--movetime MS] [--depth D] [--nodes N] [--threads T]
//!                         [--hash MB] [--chess960] [--syzygy DIRS]
//! ```
//!
//! `--syzygy` names Syzygy tablebase folders (as `SyzygyPath` does), probed with the
//! options' defaults.
//!
//! Each position is searched on its own (a cleared hash table, as after `ucinewgame`) until
//! the first of the given limits is reached; with none, `--movetime 1000`. stdout gets one
//! JSON object per position, in file order, then a summary object (see the README for the
//! fields). A position is solved when the best move is one of its `bm` moves and none of its
//! `am` moves (SAN or UCI, see `san.rs`). Progress, bad lines (named by line number and
//! skipped) and the final `solved X/Y` go to stderr. Exit status: 0 once the file was read,
//! whatever the results; non-zero for bad flags or an unreadable file.

mod analysis;
pub mod epd;
pub mod json;
pub mod san;

use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

use protocol::Score;

use crate::cli::{CliError, Flags};
use crate::position::{to_uci, Game};
use crate::search::threads;
use crate::search::tt::TranspositionTable;
use crate::search::{Limits, Settings};

pub use analysis::{analyse, Analysis};
use epd::EpdRecord;
use json::Object;

/// The search time per position when no limit is given.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;

/// How `analyze` is called, shown after a command-line error.
const USAGE: &str = "usage: cutoff analyze FILE.epd [--movetime MS] [--depth D] [--nodes N] \
                     [--threads T] [--hash MB] [--chess960] [--syzygy DIRS]";

/// Why `analyze` could not run.
#[derive(Debug, thiserror::Error)]
pub enum AnalyzeError {
    /// A bad command line.
    #[error("{0}\n{USAGE}")]
    Flags(#[from] CliError),
    /// A file could not be read.
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// The tablebases given by `--syzygy` could not be loaded.
    #[error("{0}")]
    Tablebase(#[from] crate::tablebase::TablebaseError),
    /// The analysis thread could not be started or died.
    #[error("{0}")]
    Thread(String),
}

/// What one run does.
#[derive(Debug, Clone)]
pub struct Config {
    pub path: String,
    pub limits: Limits,
    pub threads: usize,
    pub hash_mb: usize,
    pub chess960: bool,
    /// `--syzygy`: the tablebase folders, if any.
    pub syzygy: Option<String>,
}

const VALUE_FLAGS: &[&str] = &[
    "--movetime",
    "--depth",
    "--nodes",
    "--threads",
    "--hash",
    "--syzygy",
];
const SWITCHES: &[&str] = &["--chess960"];

/// Runs `analyze` with the words after the subcommand name.
pub fn main(args: &[String]) -> Result<(), AnalyzeError> {
    let config = parse_args(args)?;
    let text = std::fs::read(&config.path).map_err(|source| AnalyzeError::Io {
        path: config.path.clone(),
        source,
    })?;
    // The search recurses deeply: run it on a thread with the search thread's stack.
    std::thread::scope(|scope| {
        let worker = threads::spawn_scoped(scope, "analyze".into(), || run(&config, &text))
            .map_err(|error| {
                AnalyzeError::Thread(format!("cannot start the analysis thread: {error}"))
            })?;
        worker
            .join()
            .unwrap_or_else(|_| Err(AnalyzeError::Thread("the analysis thread panicked".into())))
    })
}

/// Reads the command line: the EPD file (the one word that is not a flag or a flag's
/// value, wherever it stands) and the flags.
pub fn parse_args(args: &[String]) -> Result<Config, AnalyzeError> {
    let mut path = None;
    let mut flag_words = Vec::with_capacity(args.len());
    let mut words = args.iter();
    while let Some(word) = words.next() {
        if word.starts_with("--") {
            let name = word.split_once('=').map_or(word.as_str(), |(name, _)| name);
            if !VALUE_FLAGS.contains(&name) && !SWITCHES.contains(&name) {
                return Err(CliError::Unknown(word.clone()).into());
            }
            flag_words.push(word.clone());
            if VALUE_FLAGS.contains(&word.as_str()) {
                flag_words.extend(words.next().cloned());
            }
        } else if path.is_none() {
            path = Some(word.clone());
        } else {
            return Err(CliError::Stray(word.clone()).into());
        }
    }
    let path = path.ok_or_else(|| CliError::Invalid("no EPD file given".into()))?;
    let flags = Flags::parse(&flag_words, VALUE_FLAGS, SWITCHES)?;
    let positive = |flag: &str, value: Option<u64>| match value {
        Some(0) => Err(CliError::Invalid(format!("{flag} must be positive"))),
        _ => Ok(value),
    };
    let movetime = positive("--movetime", flags.get("--movetime", "milliseconds")?)?;
    let depth = positive("--depth", flags.get("--depth", "a depth")?)?;
    let nodes = positive("--nodes", flags.get("--nodes", "a number of nodes")?)?;
    let threads: usize = flags.get("--threads", "a number of threads")?.unwrap_or(1);
    let hash_mb: usize = flags.get("--hash", "a size in MiB")?.unwrap_or(16);
    if !(1..=256).contains(&threads) {
        return Err(CliError::Invalid("--threads must be within 1..=256".into()).into());
    }
    if !(1..=65536).contains(&hash_mb) {
        return Err(CliError::Invalid("--hash must be within 1..=65536 MiB".into()).into());
    }
    let movetime = match (movetime, depth, nodes) {
        (None, None, None) => Some(DEFAULT_MOVETIME_MS),
        _ => movetime,
    };
    Ok(Config {
        path,
        limits: Limits {
            depth: depth.map(|d| d.min(u64::from(u32::MAX)) as u32),
            nodes,
            movetime: movetime.map(Duration::from_millis),
            ..Limits::default()
        },
        threads,
        hash_mb,
        chess960: flags.switch("--chess960"),
        syzygy: flags.text("--syzygy").map(str::to_string),
    })
}

/// The running totals.
#[derive(Debug, Default)]
struct Tally {
    positions: u64,
    solved: u64,
    total: u64,
    skipped: u64,
}

/// Analyses every position of the file's `text`, writing to stdout and stderr.
fn run(config: &Config, text: &[u8]) -> Result<(), AnalyzeError> {
    let lines: Vec<String> = text
        .split(|&b| b == b'\n')
        .map(|line| String::from_utf8_lossy(line).into_owned())
        .collect();
    let count = lines.iter().filter(|line| !epd::is_blank(line)).count();
    let tt = TranspositionTable::new(config.hash_mb);
    let tablebases = match &config.syzygy {
        Some(path) => {
            let tables = crate::tablebase::Tablebases::open(path)?;
            eprintln!("{}", tables.scan().summary());
            Some(crate::tablebase::Probing::new(tables))
        }
        None => None,
    };
    let settings = Settings {
        threads: config.threads,
        chess960: config.chess960,
        move_overhead: Duration::ZERO,
        tablebases,
        ..Settings::default()
    };
    let stdout_error = |source| AnalyzeError::Io {
        path: "stdout".into(),
        source,
    };
    let mut stdout = std::io::stdout().lock();
    let mut tally = Tally::default();
    let mut index = 0;
    for (number, line) in lines.iter().enumerate().map(|(i, l)| (i + 1, l)) {
        if epd::is_blank(line) {
            continue;
        }
        index += 1;
        let record = match epd::parse_line(line, config.chess960) {
            Ok(record) => record,
            Err(error) => {
                eprintln!(
                    "[{index}/{count}] {}:{number}: error: {error}; skipped",
                    config.path
                );
                tally.skipped += 1;
                continue;
            }
        };
        let game = Game::new(record.board.clone());
        let searched = catch_unwind(AssertUnwindSafe(|| {
            analyse(game, config.limits.clone(), settings.clone(), &tt)
        }));
        let Ok(analysis) = searched else {
            eprintln!(
                "[{index}/{count}] {}:{number}: error: the search failed; skipped",
                config.path
            );
            tally.skipped += 1;
            continue;
        };
        let solved = record.solved_by(analysis.best);
        tally.positions += 1;
        if let Some(solved) = solved {
            tally.total += 1;
            tally.solved += u64::from(solved);
        }
        let json = position_json(number, &record, &analysis, config.chess960);
        writeln!(stdout, "{json}")
            .and_then(|()| stdout.flush())
            .map_err(stdout_error)?;
        eprintln!("[{index}/{count}] {}", progress(number, &record, &analysis));
    }
    let summary = Object::new()
        .number("summary", true)
        .number("solved", tally.solved)
        .number("total", tally.total)
        .number("positions", tally.positions)
        .number("skipped", tally.skipped)
        .render();
    writeln!(stdout, "{summary}")
        .and_then(|()| stdout.flush())
        .map_err(stdout_error)?;
    if tally.skipped > 0 {
        let plural = if tally.skipped == 1 { "" } else { "s" };
        eprintln!("{} bad line{plural} skipped", tally.skipped);
    }
    eprintln!("solved {}/{}", tally.solved, tally.total);
    Ok(())
}

/// The stdout line of one analysed position.
fn position_json(number: usize, record: &EpdRecord, analysis: &Analysis, chess960: bool) -> String {
    let board = &record.board;
    let uci = |moves: &[cozy_chess::Move]| -> Vec<String> {
        moves
            .iter()
            .map(|&mv| to_uci(board, mv, chess960).to_string())
            .collect()
    };
    let fen = if chess960 {
        format!("{board:#}")
    } else {
        format!("{board}")
    };
    let best = analysis
        .best
        .map(|mv| to_uci(board, mv, chess960).to_string());
    let san = analysis.best.map(|mv| san::to_san(board, mv));
    let score = match analysis.score {
        Score::Mate(moves) => Object::new().number("mate", moves),
        Score::Cp(cp) => Object::new().number("cp", cp),
    };
    let mut object = Object::new()
        .number("line", number)
        .optional_string("id", record.id.as_deref())
        .string("fen", &fen)
        .optional_string("bestmove", best.as_deref())
        .optional_string("san", san.as_deref())
        .raw("score", score.render())
        .number("depth", analysis.depth)
        .number("nodes", analysis.nodes)
        .number("time", analysis.millis)
        .raw("pv", json::string_array(&analysis.pv));
    if !record.best.is_empty() {
        object = object.raw("bm", json::string_array(&uci(&record.best)));
    }
    if !record.avoid.is_empty() {
        object = object.raw("am", json::string_array(&uci(&record.avoid)));
    }
    let solved = record
        .solved_by(analysis.best)
        .map_or_else(|| "null".to_string(), |s| s.to_string());
    object.raw("solved", solved).render()
}

/// The stderr line of one analysed position, e.g.
/// `WAC.001 Qg6 solved (mate 2, depth 9, 20160 nodes, 31 ms)`.
fn progress(number: usize, record: &EpdRecord, analysis: &Analysis) -> String {
    let board = &record.board;
    let name = record
        .id
        .clone()
        .unwrap_or_else(|| format!("line {number}"));
    let san = analysis
        .best
        .map_or_else(|| "(no move)".to_string(), |mv| san::to_san(board, mv));
    let sans = |moves: &[cozy_chess::Move]| -> String {
        let list: Vec<String> = moves.iter().map(|&mv| san::to_san(board, mv)).collect();
        list.join(" ")
    };
    let verdict = match record.solved_by(analysis.best) {
        None => String::new(),
        Some(true) => " solved".to_string(),
        Some(false) => {
            let mut wanted = Vec::new();
            if !record.best.is_empty() {
                wanted.push(format!("bm {}", sans(&record.best)));
            }
            if !record.avoid.is_empty() {
                wanted.push(format!("am {}", sans(&record.avoid)));
            }
            format!(" FAILED ({})", wanted.join("; "))
        }
    };
    format!(
        "{name} {san}{verdict} ({}, depth {}, {} nodes, {} ms)",
        analysis.score, analysis.depth, analysis.nodes, analysis.millis
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn the_file_may_stand_anywhere_and_movetime_is_the_default() {
        let config = parse_args(&words("--depth 6 suite.epd --threads 2")).unwrap();
        assert_eq!(config.path, "suite.epd");
        assert_eq!(config.limits.depth, Some(6));
        assert_eq!(config.limits.movetime, None);
        assert_eq!((config.threads, config.hash_mb), (2, 16));
        let config = parse_args(&words("suite.epd --chess960")).unwrap();
        assert_eq!(
            config.limits.movetime,
            Some(Duration::from_millis(DEFAULT_MOVETIME_MS))
        );
        assert!(config.chess960);
        let config = parse_args(&words("suite.epd --nodes=5000 --movetime 50")).unwrap();
        assert_eq!(config.limits.nodes, Some(5000));
        assert_eq!(config.limits.movetime, Some(Duration::from_millis(50)));
    }

    #[test]
    fn bad_command_lines() {
        let err = |text: &str| parse_args(&words(text)).unwrap_err().to_string();
        assert!(err("--depth 6").starts_with("no EPD file given"));
        assert!(err("a.epd b.epd").starts_with("unexpected argument 'b.epd'"));
        assert!(err("a.epd --depth 0").starts_with("--depth must be positive"));
        assert!(err("a.epd --depth x").starts_with("flag '--depth': 'x' is not a depth"));
        assert!(err("a.epd --threads 0").starts_with("--threads must be"));
        assert!(err("a.epd --games 3").starts_with("unknown flag '--games'"));
        assert!(err("a.epd --hash").starts_with("flag '--hash' needs a value"));
    }
}
