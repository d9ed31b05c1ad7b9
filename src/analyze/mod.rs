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
//! `am` moves (SAN or UCI, see `crate::san`). Progress, bad lines (named by line number and
//! skipped) and the final `solved X/Y` go to stderr. Exit status: 0 once the file was read,
//! whatever the results; non-zero for bad flags or an unreadable file.

mod analysis;
pub mod epd;
pub mod json;

use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

use protocol::Score;

use crate::cli::CliError;
use crate::file_error::{AtPath, FileError};
use crate::position::{to_uci, Game};
use crate::search::threads;
use crate::search::tt::TranspositionTable;
use crate::search::{Limits, Settings};

pub use analysis::{analyse, Analysis};
use epd::EpdRecord;
use json::{PositionJson, ScoreJson, SummaryJson};

/// The search time per position when no limit is given.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;

/// Why `analyze` could not run.
#[derive(Debug, thiserror::Error)]
pub enum AnalyzeError {
    /// A bad command line.
    #[error("{0}")]
    Flags(#[from] CliError),
    /// A file could not be read.
    #[error(transparent)]
    File(#[from] FileError),
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

/// The command line of `cutoff analyze`.
#[derive(Debug, clap::Parser)]
#[command(
    name = "cutoff analyze",
    about = "Searches every position of an EPD file (bm, am and id read) and prints a JSON \
             line per position on stdout, progress and the solved count on stderr."
)]
pub struct Args {
    /// The EPD file.
    file: String,
    /// Time per position in milliseconds (1000 when no limit is given).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// Depth per position.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    depth: Option<u32>,
    /// Nodes per position.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Hash table size in MiB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=65536))]
    hash: u32,
    /// Read castling rights as Chess960 (X-FEN or Shredder-FEN).
    #[arg(long)]
    chess960: bool,
    /// Tablebase folders (as `SyzygyPath` takes them) to search with.
    #[arg(long)]
    syzygy: Option<String>,
}

/// Runs `analyze` with the words after the subcommand name.
pub fn main(args: &[String]) -> Result<(), AnalyzeError> {
    let config = parse_args(args)?;
    let text = crate::file_error::read_regular_file(std::path::Path::new(&config.path))
        .at_path(&config.path)?;
    // The search recurses deeply: run it on a thread with the search thread's stack.
    std::thread::scope(|scope| {
        let worker = threads::spawn_scoped(scope, "analyze".into(), || {
            run(&config, crate::file_error::without_bom(&text))
        })
        .map_err(|error| {
            AnalyzeError::Thread(format!("cannot start the analysis thread: {error}"))
        })?;
        worker
            .join()
            .unwrap_or_else(|_| Err(AnalyzeError::Thread("the analysis thread panicked".into())))
    })
}

/// Reads the command line: the EPD file (wherever it stands) and the flags.
pub fn parse_args(args: &[String]) -> Result<Config, AnalyzeError> {
    let args: Args = crate::cli::parse("analyze", args)?;
    let movetime = match (args.movetime, args.depth, args.nodes) {
        (None, None, None) => Some(DEFAULT_MOVETIME_MS),
        (movetime, ..) => movetime,
    };
    Ok(Config {
        path: args.file,
        limits: Limits {
            depth: args.depth,
            nodes: args.nodes,
            movetime: movetime.map(Duration::from_millis),
            ..Limits::default()
        },
        threads: usize::from(args.threads),
        hash_mb: args.hash as usize,
        chess960: args.chess960,
        syzygy: args.syzygy,
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
            .at_path("stdout")?;
        eprintln!("[{index}/{count}] {}", progress(number, &record, &analysis));
    }
    let summary = json::line(&SummaryJson {
        summary: true,
        solved: tally.solved,
        total: tally.total,
        positions: tally.positions,
        skipped: tally.skipped,
    });
    writeln!(stdout, "{summary}")
        .and_then(|()| stdout.flush())
        .at_path("stdout")?;
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
    let san = analysis.best.map(|mv| crate::san::to_san(board, mv));
    let score = match analysis.score {
        Score::Mate(moves) => ScoreJson::Mate(moves),
        Score::Cp(cp) => ScoreJson::Cp(cp),
    };
    json::line(&PositionJson {
        line: number,
        id: record.id.clone(),
        fen,
        bestmove: best,
        san,
        score,
        depth: analysis.depth,
        nodes: analysis.nodes,
        time: analysis.millis,
        pv: analysis.pv.iter().map(ToString::to_string).collect(),
        bm: uci(&record.best),
        am: uci(&record.avoid),
        solved: record.solved_by(analysis.best),
    })
}

/// The stderr line of one analysed position, e.g.
/// `WAC.001 Qg6 solved (mate 2, depth 9, 20160 nodes, 31 ms)`.
fn progress(number: usize, record: &EpdRecord, analysis: &Analysis) -> String {
    let board = &record.board;
    let name = record
        .id
        .clone()
        .unwrap_or_else(|| format!("line {number}"));
    let san = analysis.best.map_or_else(
        || "(no move)".to_string(),
        |mv| crate::san::to_san(board, mv),
    );
    let sans = |moves: &[cozy_chess::Move]| -> String {
        let list: Vec<String> = moves
            .iter()
            .map(|&mv| crate::san::to_san(board, mv))
            .collect();
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
    use crate::cli::words;

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
        let refused = |text: &str, expected: &str| {
            let message = err(text);
            assert!(message.contains(expected), "`{text}`: {message}");
        };
        refused("--depth 6", "required arguments were not provided");
        refused("a.epd b.epd", "unexpected argument 'b.epd'");
        refused("a.epd --depth 0", "invalid value '0' for '--depth <DEPTH>'");
        refused("a.epd --depth x", "invalid value 'x' for '--depth <DEPTH>'");
        refused(
            "a.epd --threads 0",
            "invalid value '0' for '--threads <THREADS>'",
        );
        refused("a.epd --games 3", "unexpected argument '--games'");
        refused("a.epd --hash", "a value is required for '--hash <HASH>'");
        assert!(parse_args(&words("a.epd --help"))
            .unwrap_err()
            .to_string()
            .contains("--movetime"));
    }
}
