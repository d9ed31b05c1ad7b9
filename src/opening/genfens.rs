//! `genfens N seed S book <None|PATH> [extra]`: opening positions for OpenBench's data
//! generation, printed as `info string genfens <FEN>` lines (OpenBench's client keeps
//! every stdout line that begins so, and plays its games from them).
//!
//! Each position is a start from `super::candidate`: the start position (`book None`) or a
//! position of the book chosen by the seed, then random plies (8 or 9 from the start
//! position, 2 or 3 from a book, as `datagen` plays them). It is kept when the game is
//! still on (the side to move has a legal move, no draw by rule), the side to move is not
//! in check, it differs from every position printed before in the same call (placement,
//! side, castling and en passant), and a search of a few hundred nodes scores it within
//! [`super::MAX_START_SCORE`] centipawns. The same arguments (and the same evaluation)
//! give the same positions: the searches have a hash table of their own, cleared for
//! each position, and share their move-ordering histories from one position to the next
//! in the order the positions are tried (fresh histories cost more than the search).
//!
//! The extra words set, as `name value` pairs: `plies N` (random plies: N or N+1),
//! `nodes N` (soft node budget of the balance search) and `maxscore CP` (the largest
//! score kept). Anything else is refused.

use std::collections::HashSet;

use protocol::{quote, GenfensParams};

use super::epd::{self, EpdError};
use super::{candidate, default_plies, is_balanced, MAX_START_SCORE};
use crate::position::{to_fen, Game};
use crate::rng::{stream_seed, SplitMix64};
use crate::search::history::HistoryStore;
use crate::search::tt::TranspositionTable;
use crate::search::Settings;

/// Soft node budget of the balance search (`nodes`). Measured on 2026-12-02 (10,000
/// positions from the start position, seed 7): 300 nodes take 4.1 s of CPU, 1,000 nodes
/// 11.0 s; of the positions kept, a 20,000-node search scores 1.6% (300) and 1.2% (1,000)
/// beyond 300 cp, and 0.1% beyond 500 cp with either.
pub const DEFAULT_NODES: u64 = 300;
/// The most positions one call may ask for (a few minutes of work).
pub const MAX_COUNT: u64 = 1_000_000;
/// The most random plies (`plies`).
pub const MAX_PLIES: u64 = 64;
/// The largest balance-search budget (`nodes`).
pub const MAX_NODES: u64 = 1_000_000;
/// The largest score bound (`maxscore`), in centipawns.
pub const MAX_SCORE_BOUND: u64 = 10_000;
/// Candidates tried per position asked for before the call gives up (a tiny book with
/// few plies has few distinct positions).
const ATTEMPTS_PER_POSITION: u64 = 200;
/// The bad lines of a book reported one by one; the rest are counted.
const BAD_LINES_SHOWN: usize = 5;
/// The hash table of the balance searches, in MiB: small, since each is cleared.
const HASH_MB: usize = 1;

/// Why `genfens` cannot run, or stopped short.
#[derive(Debug, thiserror::Error)]
pub enum GenfensError {
    #[error("genfens: at most {MAX_COUNT} positions per call, not {0}")]
    TooMany(u64),
    #[error("genfens: unknown extra argument {} (known: plies, nodes, maxscore)", quote(.0))]
    UnknownExtra(String),
    #[error("genfens: {name} needs a number from {min} to {max}, not {}", quote(.value))]
    BadValue {
        name: &'static str,
        value: String,
        min: u64,
        max: u64,
    },
    #[error("genfens: book {0}")]
    Book(#[from] EpdError),
    #[error("genfens: only {found} distinct playable positions found in {attempts} tries")]
    Exhausted { found: u64, attempts: u64 },
}

/// A checked `genfens` request, its book read.
#[derive(Debug, Clone)]
pub struct Genfens {
    pub count: u64,
    pub seed: u64,
    /// The book's positions; empty for `book None`.
    pub book: Vec<Game>,
    /// Random plies: this many or one more.
    pub plies: usize,
    /// Soft node budget of the balance search.
    pub nodes: u64,
    /// The largest absolute score kept, in centipawns.
    pub max_score: i32,
}

/// A prepared request and the book lines that were skipped (one message each, with the
/// rest counted), for the caller to report.
pub struct Prepared {
    pub genfens: Genfens,
    pub skipped: Vec<String>,
}

/// How a run ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Ending {
    /// Every position asked for was printed.
    Complete,
    /// `stop` arrived after this many positions.
    Stopped(u64),
}

impl Genfens {
    /// Checks the arguments and reads the book (Chess960 castling allowed). Nothing is
    /// printed here.
    pub fn prepare(params: &GenfensParams) -> Result<Prepared, GenfensError> {
        if params.count > MAX_COUNT {
            return Err(GenfensError::TooMany(params.count));
        }
        let (book, skipped) = match &params.book {
            None => (Vec::new(), Vec::new()),
            Some(path) => {
                let book = epd::read(path, true)?;
                (book.positions, skipped_lines(path, &book.bad_lines))
            }
        };
        let mut genfens = Genfens {
            count: params.count,
            seed: params.seed,
            plies: default_plies(&book),
            book,
            nodes: DEFAULT_NODES,
            max_score: MAX_START_SCORE,
        };
        genfens.set_extra(&params.extra)?;
        Ok(Prepared { genfens, skipped })
    }

    /// Applies the extra `name value` pairs.
    fn set_extra(&mut self, extra: &[String]) -> Result<(), GenfensError> {
        let mut words = extra.iter();
        while let Some(name) = words.next() {
            let (name, min, max): (&'static str, u64, u64) =
                match name.to_ascii_lowercase().as_str() {
                    "plies" => ("plies", 0, MAX_PLIES),
                    "nodes" => ("nodes", 1, MAX_NODES),
                    "maxscore" => ("maxscore", 0, MAX_SCORE_BOUND),
                    _ => return Err(GenfensError::UnknownExtra(name.clone())),
                };
            let text = words.next().map_or("", String::as_str);
            let value = text
                .parse::<u64>()
                .ok()
                .filter(|value| (min..=max).contains(value))
                .ok_or_else(|| GenfensError::BadValue {
                    name,
                    value: text.to_string(),
                    min,
                    max,
                })?;
            // The bounds above keep every value within its field's type.
            match name {
                "plies" => self.plies = value as usize,
                "nodes" => self.nodes = value,
                _ => self.max_score = value as i32,
            }
        }
        Ok(())
    }

    /// Finds the positions and hands each FEN to `emit` as soon as it is found, asking
    /// `stop` between candidates. `settings` carries the evaluation of the balance search.
    pub fn run(
        &self,
        settings: &Settings,
        stop: &mut dyn FnMut() -> bool,
        emit: &mut dyn FnMut(&str),
    ) -> Result<Ending, GenfensError> {
        let mut rng = SplitMix64::new(stream_seed(self.seed, 0));
        let tt = TranspositionTable::new(HASH_MB);
        let histories = HistoryStore::new();
        let mut seen = HashSet::new();
        let mut found = 0;
        let mut attempts = 0;
        let max_attempts = self.count.saturating_mul(ATTEMPTS_PER_POSITION).max(1000);
        while found < self.count {
            if stop() {
                return Ok(Ending::Stopped(found));
            }
            if attempts == max_attempts {
                return Err(GenfensError::Exhausted { found, attempts });
            }
            attempts += 1;
            let Some(game) = candidate(&self.book, self.plies, &mut rng) else {
                continue;
            };
            if !game.board.checkers().is_empty() {
                continue;
            }
            let fen = to_fen(&game.board);
            // Placement, side, castling and en passant: the position without its clocks.
            let key: String = fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
            // A position met once is never tried again, kept or not.
            if !seen.insert(key) {
                continue;
            }
            if is_balanced(&game, self.nodes, self.max_score, &tt, &histories, settings) {
                emit(&fen);
                found += 1;
            }
        }
        log::debug!("genfens: {found} positions from {attempts} candidates");
        Ok(Ending::Complete)
    }
}

/// The messages for a book's bad lines: the first few one by one, then their count.
fn skipped_lines(path: &str, bad_lines: &[epd::BadLine]) -> Vec<String> {
    let mut messages: Vec<String> = bad_lines
        .iter()
        .take(BAD_LINES_SHOWN)
        .map(|bad| format!("genfens: {path}:{}: {} (line skipped)", bad.line, bad.why))
        .collect();
    if bad_lines.len() > BAD_LINES_SHOWN {
        messages.push(format!(
            "genfens: {path}: {} more bad lines skipped",
            bad_lines.len() - BAD_LINES_SHOWN
        ));
    }
    messages
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(line: &str) -> GenfensParams {
        match protocol::parse_command(line).unwrap() {
            protocol::Command::Genfens(params) => params,
            other => panic!("{other:?}"),
        }
    }

    fn prepare(line: &str) -> Result<Genfens, GenfensError> {
        Genfens::prepare(&params(line)).map(|prepared| prepared.genfens)
    }

    /// Runs `genfens` to its end (or its error) with the hand-crafted evaluation.
    fn fens(genfens: &Genfens) -> (Vec<String>, Result<Ending, GenfensError>) {
        let settings = Settings {
            network: None,
            ..Settings::default()
        };
        let mut fens = Vec::new();
        let ending = genfens.run(&settings, &mut || false, &mut |fen| {
            fens.push(fen.to_string());
        });
        (fens, ending)
    }

    #[test]
    fn extra_words_set_plies_nodes_and_maxscore() {
        let plain = prepare("genfens 5 seed 1 book None").unwrap();
        assert_eq!(
            (plain.plies, plain.nodes, plain.max_score),
            (8, DEFAULT_NODES, MAX_START_SCORE)
        );
        let set = prepare("genfens 5 seed 1 book None plies 3 NODES 50 maxscore 120").unwrap();
        assert_eq!((set.plies, set.nodes, set.max_score), (3, 50, 120));
        for (line, message) in [
            (
                "genfens 5 seed 1 book None plies",
                "plies needs a number from 0 to 64, not ''",
            ),
            ("genfens 5 seed 1 book None plies 65", "not '65'"),
            (
                "genfens 5 seed 1 book None nodes 0",
                "nodes needs a number from 1",
            ),
            (
                "genfens 5 seed 1 book None depth 3",
                "unknown extra argument 'depth'",
            ),
            (
                "genfens 1000001 seed 1 book None",
                "at most 1000000 positions",
            ),
            (
                "genfens 5 seed 1 book /nonexistent/x.epd",
                "genfens: book /nonexistent/x.epd",
            ),
        ] {
            let error = prepare(line).unwrap_err().to_string();
            assert!(error.contains(message), "{line}: {error}");
        }
    }

    #[test]
    fn positions_are_reproducible_and_stop_is_obeyed() {
        let genfens = prepare("genfens 6 seed 9 book None nodes 200").unwrap();
        let (first, ending) = fens(&genfens);
        assert_eq!(ending.unwrap(), Ending::Complete);
        assert_eq!(first.len(), 6);
        assert_eq!(fens(&genfens).0, first);
        let mut printed = 0;
        let mut polls = 0;
        let ending = genfens.run(
            &Settings::default(),
            &mut || {
                polls += 1;
                polls > 3
            },
            &mut |_| printed += 1,
        );
        assert_eq!(ending.unwrap(), Ending::Stopped(printed));
        assert!(printed <= 3);
    }

    #[test]
    fn too_few_distinct_positions_end_in_an_error_after_those_found() {
        // The start position and the 20 after one ply are all there is with `plies 0`.
        let genfens =
            prepare("genfens 30 seed 1 book None plies 0 nodes 50 maxscore 10000").unwrap();
        let (fens, ending) = fens(&genfens);
        assert_eq!(fens.len(), 21);
        assert!(matches!(
            ending,
            Err(GenfensError::Exhausted { found: 21, .. })
        ));
    }

    #[test]
    fn bad_book_lines_are_listed_then_counted() {
        let bad: Vec<epd::BadLine> = (1..=8)
            .map(|line| epd::BadLine {
                line,
                why: "no".into(),
            })
            .collect();
        let messages = skipped_lines("b.epd", &bad);
        assert_eq!(messages.len(), BAD_LINES_SHOWN + 1);
        assert_eq!(messages[0], "genfens: b.epd:1: no (line skipped)");
        assert_eq!(messages[5], "genfens: b.epd: 3 more bad lines skipped");
    }
}
