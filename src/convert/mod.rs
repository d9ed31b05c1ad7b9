//! `cutoff convert GAMES.pgn --out DATA.viri`: the PGNs of fastchess, cutechess-cli and
//! OpenBench's DATAGEN workloads as viriformat training data (`viri.rs`), read by
//! `cutoff train` as it reads `datagen`'s files.
//!
//! Every ply of every game the PGN reader (`pgn`) can read is written, with the score of its
//! move comment (`score.rs`) turned to White's view, and the result of the `Result` tag
//! (else the result token). A move without a score (no comment, `book`, an engine that
//! sent none) gets [`MISSING_SCORE`], `i16::MIN`: lower than any score a search gives
//! (mates end at ±32000), and a decisive score to `cutoff train`, which skips the position
//! (`train::data::keep`) and ends a `--lookahead` mean there, as at a mate score. Mate
//! scores are written as Cutoff's own (`mate_in`/`mated_in` of the plies given), which the
//! trainer skips too.
//!
//! A game that cannot be used is skipped whole, with `skipped game N: reason` on stderr:
//! one the reader refuses (a bad FEN or tag, an unreadable, illegal or ambiguous move), one
//! without a result (`*` or none), one without moves, and one whose `Termination` says the
//! result did not come from the board (`abandoned`, `unterminated`, `stall`, `illegal
//! move`, `rules infraction`, `emergency`). A summary line follows. The exit status is 0
//! once the file has been read and a game converted (or the file has no game at all),
//! however many games were skipped; non-zero when the PGN cannot be read, when it has
//! games but none can be converted, or when the output cannot be written. The output is
//! written whole at the end (through a temporary file), so a failed run leaves an
//! existing `--out` as it was.

mod score;
#[cfg(test)]
mod tests;

use std::io::Write;
use std::time::Instant;

use cozy_chess::Color;

use crate::cli::CliError;
use crate::file_error::{AtPath, FileError};
use crate::pgn::{Outcome, PgnGame};
use crate::viri::{GameResult, ViriGame};

pub use score::comment_score;

/// The score written for a move whose comment has none (see the module comment).
pub const MISSING_SCORE: i16 = i16::MIN;

/// `Termination` values whose result says nothing about the position (lower case).
const RESULT_NOT_FROM_PLAY: [&str; 6] = [
    "abandoned",
    "unterminated",
    "stall",
    "illegal move",
    "rules infraction",
    "emergency",
];

/// Why `convert` could not run.
#[derive(Debug, thiserror::Error)]
pub enum ConvertError {
    /// A bad command line.
    #[error("{0}")]
    Flags(#[from] CliError),
    /// The PGN could not be read or the output written.
    #[error(transparent)]
    File(#[from] FileError),
    /// The PGN has games, and every one was skipped.
    #[error("{path}: none of its {skipped} games can be converted; {out} not written")]
    NoGames {
        path: String,
        skipped: usize,
        out: String,
    },
}

/// Why one game was skipped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SkipReason {
    /// The PGN reader refused it.
    #[error("{0}")]
    Unreadable(String),
    /// Its result is `*` or missing.
    #[error("no result (the Result tag and the result token are missing or '*')")]
    NoResult,
    /// It has no moves.
    #[error("no moves")]
    NoMoves,
    /// Its `Termination` says the result did not come from the board.
    #[error("Termination {0:?}: the result did not come from the board")]
    Termination(String),
}

/// The command line of `cutoff convert`.
#[derive(Debug, clap::Parser)]
#[command(
    name = "cutoff convert",
    about = "Converts PGN games with engine scores in their move comments (fastchess, \
             cutechess-cli, OpenBench) to viriformat training data for `cutoff train`."
)]
pub struct Args {
    /// The PGN file (`-`: standard input).
    games: String,
    /// The viriformat file to write (replaced if it exists).
    #[arg(long)]
    out: String,
}

/// What a run did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Summary {
    pub games: usize,
    pub plies: usize,
    pub missing_scores: usize,
    pub skipped: usize,
}

/// Runs `convert` with the words after the subcommand name.
pub fn main(args: &[String]) -> Result<(), ConvertError> {
    let args: Args = crate::cli::parse("convert", args)?;
    let start = Instant::now();
    let text = crate::pgn::read_text(&args.games).at_path(&args.games)?;
    crate::file_error::check_writable(std::path::Path::new(&args.out)).at_path(&args.out)?;
    let mut out = Vec::new();
    let mut stderr = std::io::stderr().lock();
    let summary = convert_text(&text, &mut out, &mut |line| {
        // A closed stderr is no reason to stop converting.
        let _ = writeln!(stderr, "{line}");
    })
    .at_path(&args.out)?;
    if summary.games == 0 && summary.skipped > 0 {
        return Err(ConvertError::NoGames {
            path: args.games,
            skipped: summary.skipped,
            out: args.out,
        });
    }
    crate::file_error::write_via_part(&args.out, &out).at_path(&args.out)?;
    let seconds = start.elapsed().as_secs_f64();
    eprintln!(
        "converted {} games ({} plies, {} without a score) to {}, skipped {} games, \
         in {seconds:.2} s ({:.0} games/s)",
        summary.games,
        summary.plies,
        summary.missing_scores,
        args.out,
        summary.skipped,
        (summary.games + summary.skipped) as f64 / seconds.max(1e-9),
    );
    Ok(())
}

/// Converts every game of PGN `text` to viriformat on `out`, telling `report` of each game
/// skipped (`skipped game N: reason`).
pub fn convert_text(
    text: &str,
    out: &mut impl Write,
    report: &mut impl FnMut(&str),
) -> std::io::Result<Summary> {
    let mut summary = Summary::default();
    let mut bytes = Vec::new();
    for game in crate::pgn::games(text) {
        let converted = match game {
            Ok(game) => convert_game(&game).map_err(|why| (game.number, why)),
            Err(error) => Err((error.game, SkipReason::Unreadable(error.detail()))),
        };
        match converted {
            Ok(viri) => {
                summary.games += 1;
                summary.plies += viri.plies.len();
                summary.missing_scores += viri
                    .plies
                    .iter()
                    .filter(|(_, score)| *score == MISSING_SCORE)
                    .count();
                bytes.clear();
                viri.write_to(&mut bytes);
                out.write_all(&bytes)?;
            }
            Err((number, why)) => {
                summary.skipped += 1;
                report(&format!("skipped game {number}: {why}"));
            }
        }
    }
    Ok(summary)
}

/// One game as viriformat: every ply with its comment's score from White's view.
pub fn convert_game(game: &PgnGame) -> Result<ViriGame, SkipReason> {
    if let Some(termination) = game.tag("Termination") {
        if RESULT_NOT_FROM_PLAY.contains(&termination.trim().to_ascii_lowercase().as_str()) {
            return Err(SkipReason::Termination(termination.to_string()));
        }
    }
    let result = match game.outcome().ok_or(SkipReason::NoResult)? {
        Outcome::WhiteWins => GameResult::WhiteWins,
        Outcome::BlackWins => GameResult::BlackWins,
        Outcome::Draw => GameResult::Draw,
    };
    if game.moves.is_empty() {
        return Err(SkipReason::NoMoves);
    }
    let plies = game
        .positions()
        .map(|(board, m)| {
            let score = m.comment.as_deref().and_then(comment_score);
            let white = |score: i32| match board.side_to_move() {
                Color::White => score,
                Color::Black => -score,
            };
            (m.mv, score.map_or(MISSING_SCORE, |s| viri_score(white(s))))
        })
        .collect();
    Ok(ViriGame {
        start: game.start.clone(),
        result,
        plies,
    })
}

/// A White-view score in the format's 16 bits, never [`MISSING_SCORE`] itself.
fn viri_score(white_score: i32) -> i16 {
    white_score.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16
}
