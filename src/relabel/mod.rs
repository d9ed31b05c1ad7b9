//! `cutoff relabel GAMES.viri --out NEW.viri --nodes N`: the same games with new scores,
//! each from a search by this binary (its built-in network, `--net`'s or `--hce`).
//!
//! A data set's scores are those of the engine that played it, at the node budget it
//! played with. Relabelling gives older games the scores of a newer net, or of a deeper
//! search, without playing them again. Every position the trainer could read
//! (`train::data::keep` of the board and the move: not in the first plies, not in check,
//! the move played neither a capture nor a promotion; whatever its old score, so that a
//! mate or a missing score, `convert`'s `i16::MIN`, is searched too) with a soft budget of
//! `N` nodes (a hard cap of 8 N, as `datagen`'s searches), and its score replaced, White's
//! view, clamped to 16 bits; the other plies keep theirs. Starts, moves and results are
//! not changed. The searches see the game's earlier positions (repetitions count), and as
//! in `datagen` each game starts on a cleared hash table and fresh move-ordering
//! histories, which then go from one searched position of the game to the next: a game's
//! new scores depend on the game, the budget, the hash size (`--hash`, 16 MiB as in
//! `datagen`) and the binary's search and net alone, so the output is the same with any
//! thread count. The scores are those of Cutoff's search, which scales the network by
//! material: train on the output with `--scaled-data`. The output is refused when it
//! names the input (relabel into another file).
//!
//! The output is written through `OUT.part`, renamed when complete. A game the reader
//! cannot decode is reported with its number and byte, and the file's rest is skipped
//! (viriformat cannot find the next game after a damaged one): the games before it are
//! relabelled and written. A summary (positions searched, nodes per second, the mean
//! change of the scores) goes to stderr.

#[cfg(test)]
mod tests;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use crate::cli::CliError;
use crate::datagen::{viri_score, white_view};
use crate::file_error::{AtPath, FileError};
use crate::nnue::Network;
use crate::position::Game;
use crate::search::history::HistoryStore;
use crate::search::threads;
use crate::search::tt::TranspositionTable;
use crate::search::{think_in_game, Limits, Settings};
use crate::viri::{GameReader, ViriGame};

/// Why `relabel` could not run.
#[derive(Debug, thiserror::Error)]
pub enum RelabelError {
    /// A bad command line.
    #[error("{0}")]
    Flags(#[from] CliError),
    /// A file could not be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// The `--net` file cannot be read or is no valid network.
    #[error(transparent)]
    Network(#[from] crate::nnue::LoadError),
    /// The input is not empty, and not even its first game can be decoded.
    #[error("{0}: no game can be read; nothing written")]
    NoGames(String),
}

/// The command line of `cutoff relabel`.
#[derive(Debug, clap::Parser)]
#[command(
    name = "cutoff relabel",
    about = "Writes the games of a viriformat file with new scores: every position the \
             trainer reads searched again by this binary; the same output with any thread count."
)]
pub struct Args {
    /// The viriformat file to relabel.
    input: String,
    /// The file to write (through OUT.part, renamed when complete).
    #[arg(long)]
    out: String,
    /// Soft node budget per position (the hard cap is 8 times as many).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Threads relabelling games [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
    /// Hash table size per thread, in MiB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u16).range(1..=4096))]
    hash: u16,
    /// Search with this network file (default: the binary's built-in evaluation).
    #[arg(long, conflicts_with = "hce")]
    net: Option<String>,
    /// Search with the hand-crafted evaluation.
    #[arg(long)]
    hce: bool,
}

/// What one run does.
#[derive(Debug, Clone)]
pub struct Config {
    pub input: String,
    pub out: String,
    pub soft_nodes: u64,
    pub threads: usize,
    pub hash_mb: usize,
    /// The network the searches evaluate with; `None` for the hand-crafted evaluation.
    pub network: Option<Arc<Network>>,
}

/// What a run did.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Summary {
    pub games: usize,
    pub plies: usize,
    /// Positions searched (those the trainer reads), their scores replaced.
    pub searched: usize,
    pub nodes: u64,
    /// The sum of |new − old| over the searched positions, in centipawns.
    pub total_change: u64,
}

impl Summary {
    fn add(&mut self, other: &Summary) {
        self.games += other.games;
        self.plies += other.plies;
        self.searched += other.searched;
        self.nodes += other.nodes;
        self.total_change += other.total_change;
    }
}

/// Runs `relabel` with the words after the subcommand name.
pub fn main(args: &[String]) -> Result<(), RelabelError> {
    run(&parse_args(args)?).map(|_| ())
}

/// Reads the flags (and the network, if any).
pub fn parse_args(args: &[String]) -> Result<Config, RelabelError> {
    let args: Args = crate::cli::parse("relabel", args)?;
    Ok(Config {
        network: match (&args.net, args.hce) {
            (_, true) => None,
            (None, false) => crate::nnue::embedded(),
            (Some(path), false) => Some(Arc::new(Network::load(path)?)),
        },
        input: args.input,
        out: args.out,
        soft_nodes: args.nodes,
        threads: args.threads.map_or_else(crate::cli::all_cores, usize::from),
        hash_mb: usize::from(args.hash),
    })
}

/// The games of `bytes` up to the first that cannot be decoded, which is reported.
fn read_games(bytes: &[u8], path: &str) -> Vec<ViriGame> {
    let mut reader = GameReader::new(bytes);
    let mut games = Vec::new();
    loop {
        let offset = reader.offset();
        match reader.next_game() {
            Ok(Some(game)) => games.push(game),
            Ok(None) => break,
            Err(error) => {
                eprintln!(
                    "relabel: {path}: {error} (the game starts at byte {offset}); skipped with \
                     the rest of the file ({} games before it are relabelled)",
                    games.len()
                );
                break;
            }
        }
    }
    games
}

/// Relabels the input's games on `config.threads` threads, writes them in their order
/// to `config.out`, and returns what was done.
pub fn run(config: &Config) -> Result<Summary, RelabelError> {
    let bytes = crate::file_error::read_regular_file(std::path::Path::new(&config.input))
        .at_path(&config.input)?;
    let games = read_games(&bytes, &config.input);
    if games.is_empty() && !bytes.is_empty() {
        return Err(RelabelError::NoGames(config.input.clone()));
    }
    let part = crate::file_error::part_path(&config.out);
    for path in [&part, &config.out] {
        crate::file_error::check_writable(std::path::Path::new(path)).at_path(path)?;
    }
    if is_same_file(&config.input, &config.out) {
        return Err(CliError::Invalid(format!(
            "--out {} is the input: write the relabelled games to another file",
            config.out
        ))
        .into());
    }
    let settings = Settings {
        network: config.network.clone(),
        ..Settings::default()
    };
    let started = Instant::now();
    let mut relabelled = relabel_games(&games, config, &settings)?;
    relabelled.sort_by_key(|&(index, _)| index);
    let mut out = Vec::with_capacity(bytes.len());
    let mut summary = Summary::default();
    for (_, (game, game_summary)) in &relabelled {
        game.write_to(&mut out);
        summary.add(game_summary);
    }
    crate::file_error::write_via_part(&config.out, &out).at_path(&config.out)?;
    report(&summary, started.elapsed().as_secs_f64());
    Ok(summary)
}

/// A game's index in its file, the game with its new scores, and what that took.
type Relabelled = (usize, (ViriGame, Summary));

/// Every game of `games` relabelled, with its index, in no particular order: the threads
/// take the next game as they finish one, each on its own hash table.
fn relabel_games(
    games: &[ViriGame],
    config: &Config,
    settings: &Settings,
) -> Result<Vec<Relabelled>, RelabelError> {
    let next = AtomicUsize::new(0);
    let worker = || {
        let tt = TranspositionTable::new(config.hash_mb);
        let mut done = Vec::new();
        loop {
            let index = next.fetch_add(1, Ordering::Relaxed);
            let Some(game) = games.get(index) else {
                return done;
            };
            done.push((index, relabel_game(game, config.soft_nodes, &tt, settings)));
        }
    };
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for number in 0..config.threads.max(1) {
            match threads::spawn_scoped(scope, format!("relabel-{number}"), worker) {
                Ok(handle) => handles.push(handle),
                // The output does not depend on the thread count: go on with fewer.
                Err(error) if number > 0 => {
                    log::warn!("cannot start relabel thread {number}: {error}");
                    break;
                }
                Err(error) => return Err(FileError::new("relabel thread 0", error).into()),
            }
        }
        let mut relabelled = Vec::new();
        for handle in handles {
            match handle.join() {
                Ok(done) => relabelled.extend(done),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        Ok(relabelled)
    })
}

/// Whether `a` and `b` name one existing file (a second name or a link included).
fn is_same_file(a: &str, b: &str) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The summary line on stderr.
fn report(summary: &Summary, seconds: f64) {
    let mean_change = summary.total_change as f64 / summary.searched.max(1) as f64;
    eprintln!(
        "relabel: {} games, {} plies, {} positions searched ({:.1}%), {:.0} nodes/s, {:.0} \
         positions/s, mean change {mean_change:.1} cp",
        summary.games,
        summary.plies,
        summary.searched,
        100.0 * summary.searched as f64 / summary.plies.max(1) as f64,
        summary.nodes as f64 / seconds.max(1e-9),
        summary.searched as f64 / seconds.max(1e-9),
    );
}

/// `game` with every position the trainer reads scored by a search of `soft_nodes`
/// nodes (see the module comment), on `tt` (cleared first).
pub fn relabel_game(
    game: &ViriGame,
    soft_nodes: u64,
    tt: &TranspositionTable,
    settings: &Settings,
) -> (ViriGame, Summary) {
    tt.clear();
    let histories = HistoryStore::new();
    let mut position = Game::new(game.start.clone());
    let mut summary = Summary {
        games: 1,
        plies: game.plies.len(),
        ..Summary::default()
    };
    let mut plies = Vec::with_capacity(game.plies.len());
    for (ply, &(mv, old)) in game.plies.iter().enumerate() {
        let mut score = old;
        // Any score that is not a mate stands for the old one: the board and move decide.
        if crate::train::data::keep(&position.board, mv, 0, ply) {
            let limits = Limits::self_play(soft_nodes);
            let outcome = think_in_game(position.clone(), limits, tt, &histories, settings.clone());
            score = viri_score(white_view(&position.board, outcome.score));
            summary.searched += 1;
            summary.nodes += outcome.nodes;
            summary.total_change += u64::from((i32::from(score) - i32::from(old)).unsigned_abs());
        }
        plies.push((mv, score));
        position.play(mv);
    }
    let relabelled = ViriGame {
        start: game.start.clone(),
        result: game.result,
        plies,
    };
    (relabelled, summary)
}
