//! `cutoff annotate`: a game review from the shell.
//!
//! ```text
//! cutoff annotate GAMES.pgn [--out FILE] [--nodes N | --movetime MS | --depth D]
//!                           [--threads T] [--hash MB] [--syzygy DIRS] [--json]
//! ```
//!
//! Reads every game of the PGN file (`-`: standard input) with the project's PGN reader,
//! searches every position of each main line once (`searches.rs`, shared among the
//! threads by `schedule.rs`), judges each move by the drop of its mover's expected score
//! (`judge.rs`), sums each player's accuracy (`accuracy.rs`), average centipawn loss and
//! bad moves (`review.rs`), and writes the games back as PGN (`pgn_text.rs`) or as one JSON
//! object per game (`json.rs`), in file order, on stdout or into `--out`. A game with an
//! unreadable or illegal move is annotated up to it and named on stderr; a game that
//! cannot be read at all is skipped; the run goes on. Progress goes to stderr when it is a
//! terminal. Exit status: non-zero only for bad flags or an unreadable input or output.

mod accuracy;
mod input;
mod json;
pub mod judge;
mod pgn_text;
mod progress;
pub mod review;
mod schedule;
pub mod searches;

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crossbeam_channel::RecvTimeoutError;

use crate::cli::CliError;
use crate::file_error::{AtPath, FileError};
use crate::position::Game;
use crate::search::{Limits, Settings};
use input::Item;
use progress::Progress;
use review::{review, GameInput};
use schedule::{search_units, units, Unit};
use searches::{positions, Budget, Searched};

/// The nodes searched per position when no limit is given (see the README for how it
/// was chosen).
pub const DEFAULT_NODES: u64 = 100_000;

/// Why `annotate` could not run.
#[derive(Debug, thiserror::Error)]
pub enum AnnotateError {
    /// A bad command line.
    #[error("{0}")]
    Flags(#[from] CliError),
    /// The input or the output could not be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// The tablebases given by `--syzygy` could not be loaded.
    #[error("{0}")]
    Tablebase(#[from] crate::tablebase::TablebaseError),
    /// The search threads could not be started.
    #[error("cannot start the search threads: {0}")]
    Thread(std::io::Error),
}

/// The command line of `cutoff annotate`.
#[derive(Debug, clap::Parser)]
#[command(
    name = "cutoff annotate",
    about = "Reviews the games of a PGN file: an evaluation for every move ([%eval]), \
             ?!, ? and ?? for inaccuracies, mistakes and blunders with the better line, \
             and each player's accuracy, as PGN (or JSON) on stdout."
)]
pub struct Args {
    /// The PGN file (`-`: standard input).
    file: String,
    /// Write the games into this file instead of stdout.
    #[arg(long)]
    out: Option<String>,
    /// Nodes per position (100000 when no limit is given).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..), conflicts_with_all = ["movetime", "depth"])]
    nodes: Option<u64>,
    /// Time per position in milliseconds.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..), conflicts_with = "depth")]
    movetime: Option<u64>,
    /// Depth per position.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    depth: Option<u32>,
    /// Worker threads: games (or parts of a lone game) are searched in parallel, each
    /// worker with its own hash table.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Hash table size in MiB, per worker.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=65536))]
    hash: u32,
    /// Tablebase folders (as `SyzygyPath` takes them) to search with.
    #[arg(long)]
    syzygy: Option<String>,
    /// One JSON object per game instead of PGN.
    #[arg(long)]
    json: bool,
}

/// Runs `annotate` with the words after the subcommand name.
pub fn main(args: &[String]) -> Result<(), AnnotateError> {
    let args: Args = crate::cli::parse("annotate", args)?;
    let text = crate::pgn::read_text(&args.file).at_path(&args.file)?;
    // Everything that can refuse the run (the tablebases too) before `--out` is
    // truncated: a run that cannot start leaves an existing file as it was.
    let budget = budget(&args)?;
    let mut out: Box<dyn Write> = match &args.out {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path).at_path(path)?,
        )),
        None => Box::new(std::io::stdout().lock()),
    };
    let settings = settings_text(&args);
    let items = input::read_games(&text);
    let output_path = args.out.clone().unwrap_or_else(|| "stdout".to_string());
    let mut sink = |review: &review::GameReview| -> Result<(), AnnotateError> {
        let text = if args.json {
            json::game_line(review, &settings) + "\n"
        } else {
            pgn_text::game_text(review, &settings)
        };
        out.write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .at_path(&output_path)
            .map_err(Into::into)
    };
    let threads = usize::from(args.threads);
    let hash_mb = args.hash as usize;
    annotate(items, &budget, threads, hash_mb, &mut sink)
}

/// The searches' limits and settings from the command line.
fn budget(args: &Args) -> Result<Budget, AnnotateError> {
    let nodes = match (args.nodes, args.movetime, args.depth) {
        (None, None, None) => Some(DEFAULT_NODES),
        (nodes, ..) => nodes,
    };
    let tablebases = match &args.syzygy {
        Some(path) => {
            let tables = crate::tablebase::Tablebases::open(path)?;
            eprintln!("{}", tables.scan().summary());
            Some(crate::tablebase::Probing::new(tables))
        }
        None => None,
    };
    Ok(Budget {
        limits: Limits {
            nodes,
            depth: args.depth,
            movetime: args.movetime.map(Duration::from_millis),
            ..Limits::default()
        },
        settings: Settings {
            threads: 1,
            move_overhead: Duration::ZERO,
            tablebases,
            ..Settings::default()
        },
    })
}

/// What the searches were, for the output: `Cutoff 0.1.0 annotate --nodes 100000
/// --threads 1 --hash 16`.
fn settings_text(args: &Args) -> String {
    let limit = match (args.nodes, args.movetime, args.depth) {
        (_, Some(ms), _) => format!("--movetime {ms}"),
        (_, _, Some(depth)) => format!("--depth {depth}"),
        (nodes, ..) => format!("--nodes {}", nodes.unwrap_or(DEFAULT_NODES)),
    };
    let syzygy = if args.syzygy.is_some() {
        " --syzygy"
    } else {
        ""
    };
    format!(
        "{} annotate {limit} --threads {} --hash {}{syzygy}",
        crate::help::version(),
        args.threads,
        args.hash
    )
}

/// A game waiting for its searches.
struct Pending {
    input: GameInput,
    /// Its positions' searches by unit start, filled as units finish.
    parts: BTreeMap<usize, Vec<Searched>>,
    units_left: usize,
    failed: bool,
}

/// Reviews the games among `items`, calling `sink` with each in file order and naming
/// the bad ones on stderr.
pub fn annotate(
    items: Vec<Item>,
    budget: &Budget,
    threads: usize,
    hash_mb: usize,
    sink: &mut dyn FnMut(&review::GameReview) -> Result<(), AnnotateError>,
) -> Result<(), AnnotateError> {
    let mut slots: Vec<Result<Pending, String>> = Vec::with_capacity(items.len());
    let mut games: Vec<Vec<Game>> = Vec::new();
    let mut game_slot = Vec::new();
    for item in items {
        match item {
            Item::Game(input) => {
                game_slot.push(slots.len());
                games.push(positions(&input.start, &input.moves));
                slots.push(Ok(Pending {
                    input,
                    parts: BTreeMap::new(),
                    units_left: 0,
                    failed: false,
                }));
            }
            Item::Unreadable(message) => slots.push(Err(message)),
        }
    }
    let sizes: Vec<usize> = games.iter().map(Vec::len).collect();
    let units = units(&sizes, threads);
    for unit in &units {
        if let Ok(pending) = &mut slots[game_slot[unit.game]] {
            pending.units_left += 1;
        }
    }
    let total_positions = sizes.iter().sum::<usize>() as u64;
    let mut progress = Progress::new(games.len(), total_positions);
    let searched_positions = AtomicU64::new(0);
    let (sender, receiver) = crossbeam_channel::unbounded();
    std::thread::scope(|scope| {
        let searches = scope.spawn(|| {
            search_units(
                &games,
                &units,
                budget,
                threads,
                hash_mb,
                &searched_positions,
                sender,
            )
        });
        let mut writer = Writer {
            slots: &mut slots,
            next: 0,
            games_done: 0,
        };
        writer.flush(&mut progress, sink)?;
        loop {
            match receiver.recv_timeout(Duration::from_millis(250)) {
                Ok((index, searched)) => {
                    writer.receive(&units[index], &game_slot, searched);
                    writer.flush(&mut progress, sink)?;
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            progress.update(
                writer.games_done,
                searched_positions.load(Ordering::Relaxed),
            );
        }
        match searches.join() {
            Ok(Ok(())) => {}
            Ok(Err(error)) => return Err(AnnotateError::Thread(error)),
            Err(panic) => std::panic::resume_unwind(panic),
        }
        progress.finish(
            writer.games_done,
            searched_positions.load(Ordering::Relaxed),
        );
        Ok(())
    })
}

/// Writes the games in file order as their searches come in.
struct Writer<'a> {
    slots: &'a mut Vec<Result<Pending, String>>,
    /// The first slot not yet written.
    next: usize,
    games_done: usize,
}

impl Writer<'_> {
    /// Files a finished unit with its game.
    fn receive(&mut self, unit: &Unit, game_slot: &[usize], searched: Option<Vec<Searched>>) {
        if let Ok(pending) = &mut self.slots[game_slot[unit.game]] {
            pending.units_left -= 1;
            match searched {
                Some(searched) => {
                    pending.parts.insert(unit.range.start, searched);
                }
                None => pending.failed = true,
            }
        }
    }

    /// Writes (or names on stderr) every slot from `next` on that is complete.
    fn flush(
        &mut self,
        progress: &mut Progress,
        sink: &mut dyn FnMut(&review::GameReview) -> Result<(), AnnotateError>,
    ) -> Result<(), AnnotateError> {
        while let Some(slot) = self.slots.get_mut(self.next) {
            match slot {
                Err(message) => progress.message(&format!("cutoff annotate: {message}; skipped")),
                Ok(pending) if pending.units_left > 0 => return Ok(()),
                Ok(pending) => {
                    let number = pending.input.number;
                    if pending.failed {
                        progress.message(&format!(
                            "cutoff annotate: game {number}: the search failed; skipped"
                        ));
                    } else {
                        if let Some(error) = &pending.input.error {
                            progress
                                .message(&format!("cutoff annotate: {error}; annotated up to it"));
                        }
                        let searched: Vec<Searched> = std::mem::take(&mut pending.parts)
                            .into_values()
                            .flatten()
                            .collect();
                        let input = pending.input.clone();
                        sink(&review(input, &searched))?;
                    }
                    self.games_done += 1;
                }
            }
            self.next += 1;
        }
        Ok(())
    }
}
