//! `cutoff datagen`: self-play games whose quiet positions become training data for the
//! evaluation tuner.
//!
//! `cutoff datagen --games N --nodes K --threads T --out FILE [--book FILE.epd] [--seed S]
//! [--first-game G] [--hash MB] [--format text|viri] [--net NETWORK | --hce] [--syzygy DIRS]`
//!
//! With `--syzygy` (tablebase folders, as `SyzygyPath` takes them) a game that reaches a
//! position the tables cover ends there with the tables' result (the fifty-move rule
//! counted: a cursed win is a draw).
//!
//! Each game starts from a varied position (`crate::opening`) and is played by one search per
//! move with a soft budget of `K` nodes (`game.rs`, which also documents the adjudication
//! rules). Game `i` draws its random choices from its own stream of seed `S`, so a game is
//! the same whichever thread plays it, and the games are written in order: the same seed
//! gives the same file with any number of threads. Games are appended a whole game at a
//! time, in one of two formats (`--format`): `text` writes one line per quiet position
//! (`FEN | score | result`, the tuner's input), `viri` writes every ply of every game in
//! viriformat (`viri.rs`, the network trainer's input). A stopped run is resumed with
//! `--first-game` set to the number of games it reported written. Progress goes to stderr.

mod game;

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::cli::CliError;
use crate::file_error::{AtPath, FileError};
use crate::nnue::Network;
use crate::opening;
use crate::position::Game;
use crate::rng::{stream_seed, SplitMix64};
use crate::search::threads;
use crate::search::tt::TranspositionTable;
use crate::search::Settings;

pub use game::{viri_score, white_view, Ending, Outcome, Record, Sample};

/// Why `datagen` could not run.
#[derive(Debug, thiserror::Error)]
pub enum DatagenError {
    /// A bad command line.
    #[error("{0}")]
    Flags(#[from] CliError),
    /// A file could not be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// The `--net` file cannot be read or is no valid network.
    #[error(transparent)]
    Network(#[from] crate::nnue::LoadError),
    /// The opening book holds a line that is no position, or a finished game.
    #[error("{path}: {why}")]
    Book { path: String, why: String },
    /// The output file ends inside a game: what is appended after it could not be read.
    #[error(
        "{path} ends inside a game (its last {extra} bytes; a run stopped while writing?): \
         cut it to its whole games with `truncate -s {whole} {path}`, or write to a new file"
    )]
    UnfinishedOutput {
        path: String,
        whole: u64,
        extra: u64,
    },
    /// The opening book holds no position.
    #[error(transparent)]
    EmptyBook(opening::epd::EpdError),
    /// The tablebases given by `--syzygy` could not be loaded.
    #[error("{0}")]
    Tablebase(#[from] crate::tablebase::TablebaseError),
}

/// What one run does.
#[derive(Debug, Clone)]
pub struct Config {
    pub games: u64,
    pub first_game: u64,
    pub soft_nodes: u64,
    pub threads: usize,
    pub seed: u64,
    pub hash_mb: usize,
    pub out: String,
    pub book: Vec<Game>,
    pub format: Format,
    /// The network the searches evaluate with (`--net`, else the built-in one); `None` for
    /// the hand-crafted evaluation (`--hce`, or a build without a network).
    pub network: Option<Arc<Network>>,
    /// `--syzygy`: the tables that adjudicate games, if any.
    pub tablebases: Option<crate::tablebase::Tablebases>,
}

/// How games are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One line per quiet position: `FEN | score | result` (the tuner's input).
    Text,
    /// Every ply of every game in viriformat (`viri.rs`; the trainer's input).
    Viri,
}

/// The command line of `cutoff datagen`.
#[derive(Debug, clap::Parser)]
#[command(
    name = "cutoff datagen",
    about = "Plays self-play games, one soft node-limited search per move, and appends them \
             to a file; the same seed gives the same file with any thread count."
)]
pub struct Args {
    /// Games to play.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Soft node budget per move (the hard cap is 8 times as many).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// The file the games are appended to.
    #[arg(long)]
    out: String,
    /// `text`: quiet positions as `FEN | score | result` lines (for `tune`); `viri`: every
    /// ply of every game in viriformat (for `train`).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Threads playing games.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Number of the first game, to resume a stopped run.
    #[arg(long, default_value_t = 0)]
    first_game: u64,
    /// Hash table size per thread, in MiB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u16).range(1..=4096))]
    hash: u16,
    /// Start from these EPD positions plus 2-3 random plies (default: the start position
    /// plus 8-9 random plies).
    #[arg(long)]
    book: Option<String>,
    /// Evaluate with this network file (default: the binary's built-in evaluation).
    #[arg(long, conflicts_with = "hce")]
    net: Option<String>,
    /// Evaluate with the hand-crafted evaluation even when the binary has a network built
    /// in (how the first data set, `s1-n5000`, was made).
    #[arg(long)]
    hce: bool,
    /// Tablebase folders (as `SyzygyPath` takes them): a game that reaches a position the
    /// tables cover ends there with the tables' result (the fifty-move rule counted).
    #[arg(long)]
    syzygy: Option<String>,
}

/// Runs `datagen` with the words after the subcommand name.
pub fn main(args: &[String]) -> Result<(), DatagenError> {
    let config = parse_args(args)?;
    run(&config)
}

/// Reads the flags (and the book and the network, if any).
pub fn parse_args(args: &[String]) -> Result<Config, DatagenError> {
    let args: Args = crate::cli::parse("datagen", args)?;
    if args.first_game.checked_add(args.games).is_none() {
        return Err(
            CliError::Invalid("--first-game plus --games must stay below 2^64".into()).into(),
        );
    }
    Ok(Config {
        tablebases: match &args.syzygy {
            Some(path) => Some(crate::tablebase::Tablebases::open(path)?),
            None => None,
        },
        games: args.games,
        first_game: args.first_game,
        soft_nodes: args.nodes,
        threads: usize::from(args.threads),
        seed: args.seed,
        hash_mb: usize::from(args.hash),
        book: match &args.book {
            Some(path) => read_book(path)?,
            None => Vec::new(),
        },
        network: match (&args.net, args.hce) {
            (_, true) => None,
            (None, false) => crate::nnue::embedded(),
            (Some(path), false) => Some(Arc::new(Network::load(path)?)),
        },
        format: args.format,
        out: args.out,
    })
}

/// Reads an EPD or FEN book (`opening::epd`, standard castling); a line that is no
/// position, or a position whose game is over, refuses the whole book, so that a run never
/// starts from a book other than the one meant (nor plays the initial position instead of
/// a finished one).
pub fn read_book(path: &str) -> Result<Vec<Game>, DatagenError> {
    let book = opening::epd::read(path, false).map_err(|error| match error {
        opening::epd::EpdError::File(error) => DatagenError::File(error),
        empty @ opening::epd::EpdError::Empty { .. } => DatagenError::EmptyBook(empty),
    })?;
    if let Some(bad) = book.bad_lines.first() {
        return Err(DatagenError::Book {
            path: path.to_string(),
            why: format!("line {}: {}", bad.line, bad.why),
        });
    }
    let finished = book
        .positions
        .iter()
        .enumerate()
        .find_map(|(index, game)| crate::rules::game_end(game).map(|end| (index + 1, end)));
    match finished {
        Some((number, end)) => Err(DatagenError::Book {
            path: path.to_string(),
            why: format!("position {number} is a finished game ({end}): no move to play"),
        }),
        None => Ok(book.positions),
    }
}

/// Plays game number `index` of a run.
pub fn play_game(config: &Config, index: u64, tt: &TranspositionTable) -> Record {
    let mut rng = SplitMix64::new(stream_seed(config.seed, index));
    let settings = Settings {
        network: config.network.clone(),
        ..Settings::default()
    };
    let start = opening::choose(&config.book, &mut rng, config.soft_nodes, tt, &settings);
    game::play(
        start,
        config.soft_nodes,
        tt,
        &settings,
        config.tablebases.as_ref(),
    )
}

/// Refuses to append to a regular file at `path` whose end is not the end of a game (a
/// viriformat game, or a line of text): the new games would be unreadable after it.
fn check_appendable(path: &str, format: Format) -> Result<(), DatagenError> {
    // A missing file is created; a device or a pipe (`/dev/stdout`) is not read back.
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return Ok(());
    }
    let file = crate::file_error::open_regular_file(std::path::Path::new(path)).at_path(path)?;
    let (whole, len) = match format {
        Format::Viri => crate::viri::whole_games_len(file),
        Format::Text => whole_lines_len(file),
    }
    .at_path(path)?;
    if whole == len {
        return Ok(());
    }
    Err(DatagenError::UnfinishedOutput {
        path: path.to_string(),
        whole,
        extra: len - whole,
    })
}

/// The length of the leading part of a stream that ends with a newline, and the whole
/// length, read in constant memory.
fn whole_lines_len(stream: impl std::io::Read) -> std::io::Result<(u64, u64)> {
    use std::io::BufRead;
    let mut reader = std::io::BufReader::new(stream);
    let (mut whole, mut len) = (0u64, 0u64);
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok((whole, len));
        }
        if let Some(at) = buf.iter().rposition(|&b| b == b'\n') {
            whole = len + at as u64 + 1;
        }
        let read = buf.len();
        len += read as u64;
        reader.consume(read);
    }
}

/// Plays the run's games on `config.threads` threads and appends them, in game order, to
/// `config.out`.
pub fn run(config: &Config) -> Result<(), DatagenError> {
    check_appendable(&config.out, config.format)?;
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&config.out)
        .at_path(&config.out)?;
    let mut out = BufWriter::new(file);
    let evaluation = config.network.as_ref().map_or_else(
        || "hand-crafted evaluation".to_string(),
        |net| format!("network of {} hidden units", net.hidden()),
    );
    eprintln!(
        "datagen: games {}..{} ({} nodes per move, {} threads, seed {}, {evaluation}) -> {}",
        config.first_game,
        config.first_game + config.games,
        config.soft_nodes,
        config.threads,
        config.seed,
        config.out
    );

    let next_game = AtomicU64::new(config.first_game);
    let end = config.first_game + config.games;
    let (sender, receiver) = crossbeam_channel::unbounded::<(u64, Record)>();
    let mut progress = Progress::new(config.games, config.format);
    std::thread::scope(|scope| -> Result<(), DatagenError> {
        for worker in 0..config.threads {
            let sender = sender.clone();
            let next_game = &next_game;
            let spawned = threads::spawn_scoped(scope, format!("datagen-{worker}"), move || {
                let tt = TranspositionTable::new(config.hash_mb);
                // The counter stops at `end`: run on past it, it could wrap to game 0
                // when `end` is near 2^64.
                let claim = |i: u64| (i < end).then_some(i + 1);
                while let Ok(index) =
                    next_game.fetch_update(Ordering::Relaxed, Ordering::Relaxed, claim)
                {
                    let record = play_game(config, index, &tt);
                    if sender.send((index, record)).is_err() {
                        break;
                    }
                }
            });
            if let Err(error) = spawned {
                // The games do not depend on the thread count: play on with fewer.
                log::warn!("cannot start datagen thread {worker}: {error}");
                if worker == 0 {
                    return Err(FileError::new("datagen thread 0", error).into());
                }
                break;
            }
        }
        drop(sender);

        // Write finished games in index order, whichever thread finished first.
        let mut pending: BTreeMap<u64, Record> = BTreeMap::new();
        let mut next_to_write = config.first_game;
        for (index, record) in receiver {
            pending.insert(index, record);
            while let Some(record) = pending.remove(&next_to_write) {
                write_record(&mut out, &record, config.format).at_path(&config.out)?;
                out.flush().at_path(&config.out)?;
                progress.add(&record);
                next_to_write += 1;
            }
            progress.report(next_to_write, false);
        }
        progress.report(next_to_write, true);
        Ok(())
    })
}

/// Appends one finished game in `format`.
fn write_record(out: &mut impl Write, record: &Record, format: Format) -> std::io::Result<()> {
    match format {
        Format::Text => {
            for line in record.lines() {
                writeln!(out, "{line}")?;
            }
        }
        Format::Viri => {
            let mut bytes = Vec::with_capacity(36 + 4 * record.moves.len());
            record.viri().write_to(&mut bytes);
            out.write_all(&bytes)?;
        }
    }
    Ok(())
}

/// Progress of a run, printed to stderr every few seconds.
struct Progress {
    format: Format,
    started: Instant,
    last_report: Instant,
    planned: u64,
    games: u64,
    positions: u64,
    nodes: u64,
    results: [u64; 3],
}

impl Progress {
    fn new(planned: u64, format: Format) -> Progress {
        Progress {
            format,
            started: Instant::now(),
            last_report: Instant::now(),
            planned,
            games: 0,
            positions: 0,
            nodes: 0,
            results: [0; 3],
        }
    }

    fn add(&mut self, record: &Record) {
        self.games += 1;
        self.nodes += record.nodes;
        self.positions += match self.format {
            Format::Text => record.samples.len(),
            Format::Viri => record.moves.len(),
        } as u64;
        self.results[match record.outcome {
            Outcome::WhiteWins => 0,
            Outcome::Draw => 1,
            Outcome::BlackWins => 2,
        }] += 1;
    }

    fn report(&mut self, next_game: u64, last: bool) {
        if !last && self.last_report.elapsed() < Duration::from_secs(10) {
            return;
        }
        self.last_report = Instant::now();
        let seconds = self.started.elapsed().as_secs_f64().max(1e-3);
        let per_game = seconds / self.games.max(1) as f64;
        let eta = per_game * self.planned.saturating_sub(self.games) as f64;
        eprintln!(
            "datagen: {}/{} games written (next --first-game {next_game}), {} positions, \
             {:.0} positions/s, {:.0} nodes/s, +{} ={} -{} (White's view), ETA {:.0} s",
            self.games,
            self.planned,
            self.positions,
            self.positions as f64 / seconds,
            self.nodes as f64 / seconds,
            self.results[0],
            self.results[1],
            self.results[2],
            if last { 0.0 } else { eta },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::words;

    #[test]
    fn flags_are_checked() {
        let config = parse_args(&words("--games 3 --nodes 1000 --out x.txt --seed 9")).unwrap();
        assert_eq!(
            (config.games, config.soft_nodes, config.threads, config.seed),
            (3, 1000, 1, 9)
        );
        for bad in [
            "--nodes 1000 --out x",
            "--games 0 --nodes 1000 --out x",
            "--games 1 --nodes 1000 --out x --threads 0",
            "--games 1 --nodes abc --out x",
            "--games 1 --nodes 10 --out x --book /nonexistent/book.epd",
            "--games 1 --nodes 10 --out x --colour white",
            "--games 2 --nodes 10 --out x --first-game 18446744073709551615",
            "--games 1 --nodes 10 --out x --net /dev/zero",
        ] {
            assert!(parse_args(&words(bad)).is_err(), "accepted: {bad}");
        }
    }

    /// Appending to a file that ends inside a game is refused with the size of its whole
    /// games; a file of whole games, a missing file and a device are fine.
    #[test]
    fn an_output_that_ends_inside_a_game_is_refused() {
        let dir =
            std::env::temp_dir().join(format!("cutoff-datagen-append-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let viri = dir.join("cut.viri");
        let mut bytes = vec![0u8; 32];
        bytes.extend([0, 0, 0, 0]);
        bytes.extend([1, 2, 3]);
        std::fs::write(&viri, &bytes).unwrap();
        let error = check_appendable(viri.to_str().unwrap(), Format::Viri).unwrap_err();
        assert!(error.to_string().contains("truncate -s 36 "), "{error}");
        std::fs::write(&viri, &bytes[..36]).unwrap();
        assert!(check_appendable(viri.to_str().unwrap(), Format::Viri).is_ok());
        let text = dir.join("cut.txt");
        std::fs::write(&text, "a line\nhalf a li").unwrap();
        let error = check_appendable(text.to_str().unwrap(), Format::Text).unwrap_err();
        assert!(error.to_string().contains("truncate -s 7 "), "{error}");
        let missing = dir.join("new.viri");
        assert!(check_appendable(missing.to_str().unwrap(), Format::Viri).is_ok());
        assert!(check_appendable("/dev/null", Format::Text).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A book that is no book for datagen is refused with the reason, never replaced by
    /// the initial position: a finished game (nothing to play from it), a line that is
    /// no position, or no position at all (the first bad line named).
    #[test]
    fn books_with_finished_games_or_bad_lines_are_refused() {
        let dir = std::env::temp_dir().join(format!("cutoff-datagen-books-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        let cases = [
            (
                "mate",
                format!("{good}\n7k/6Q1/6K1/8/8/8/8/8 b - - 0 1\n"),
                "position 2 is a finished game (checkmate)",
            ),
            (
                "kings",
                "8/8/4k3/8/8/4K3/8/8 w - - 0 1\n".to_string(),
                "(insufficient material)",
            ),
            ("bad", format!("{good}\nnot a fen\n"), "line 2:"),
            (
                "960",
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\n".to_string(),
                "no positions (line 1:",
            ),
        ];
        for (name, text, expected) in cases {
            let path = dir.join(format!("{name}.epd"));
            std::fs::write(&path, text).unwrap();
            let error = read_book(path.to_str().unwrap()).unwrap_err().to_string();
            assert!(error.contains(expected), "{name}: {error}");
        }
        let path = dir.join("good.epd");
        std::fs::write(&path, format!("{good}\n")).unwrap();
        assert_eq!(read_book(path.to_str().unwrap()).unwrap().len(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn same_seed_same_games() {
        let config = parse_args(&words("--games 1 --nodes 300 --out unused --hash 1")).unwrap();
        let tt = TranspositionTable::new(1);
        let a = play_game(&config, 5, &tt);
        let b = play_game(&config, 5, &tt);
        let c = play_game(&config, 6, &tt);
        assert_eq!(a.samples, b.samples);
        assert_ne!(a.samples, c.samples);
    }
}
