//! The project's PGN reader: games as fastchess, cutechess-cli, OpenBench, GUIs and
//! databases write them, with each main-line move resolved to the legal move it denotes.
//!
//! ```text
//! let text = pgn::read_text("games.pgn")?;     // "-" reads standard input
//! for game in pgn::games(&text) {
//!     match game {
//!         Ok(game) => ...,                     // PgnGame
//!         Err(error) => ...,                   // PgnError: game number, ply, token, why,
//!     }                                        // and the game up to the bad move
//! }
//! ```
//!
//! What it reads: several games a file; tag pairs (kept in file order); a start position
//! from `FEN` (with or without `SetUp "1"`), in X-FEN or Shredder-FEN for Chess960, which
//! `Variant "fischerandom"` / `"chess960"` (or a castling field only Chess960 can have)
//! selects; `{...}` and `;` comments (a move keeps the comments that follow it, joined by
//! a space; the comments before the first move are the game's); NAGs `$n` and the suffixes
//! `!`, `?`, `!!`, `??`, `!?`, `?!` (as NAGs 1 to 6), each kept with its move; variations,
//! nested or not, skipped with everything in them; move numbers `12.` and `12...`;
//! castling as `O-O` or `0-0` (the king taking its own rook, as cozy-chess writes it);
//! promotions `e8=Q` or `e8Q`; `+`/`#` marks; the result tokens `1-0`, `0-1`, `1/2-1/2`
//! and `*`; `%` escape lines. A game ends at its result token, at the tag pairs of the
//! next game, or at the end of the text (its result is then `None`).
//!
//! A game that cannot be read (a bad tag pair or FEN, an unreadable, illegal or ambiguous
//! move, an unsupported variant) is an `Err`; the reader then goes on with the next game.

mod lexer;
mod reader;
#[cfg(test)]
mod tests;

use cozy_chess::{Board, Color, Move};

pub use reader::Games;

/// One game of a PGN file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnGame {
    /// The game's number in the file, from 1.
    pub number: usize,
    /// The tag pairs in file order (`("White", "Cutoff")`).
    pub tags: Vec<(String, String)>,
    /// The position before the first move (the `FEN` tag's, else the standard start).
    pub start: Board,
    /// Whether the game is Chess960 (castling is then king-takes-rook in every sense).
    pub chess960: bool,
    /// The comments before the first move, joined by a space.
    pub comment: Option<String>,
    /// The main line.
    pub moves: Vec<PgnMove>,
    /// The result token that ended the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`), `None`
    /// when the game ran to the end of the text (or to the next game's tags) without one.
    pub result: Option<String>,
}

/// One move of a game's main line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnMove {
    /// The move as written, without its `!`/`?` suffix (check marks kept: `Nf3+`).
    pub san: String,
    /// The legal move it denotes (castling as the king taking its own rook).
    pub mv: Move,
    /// The comments after the move (before the next move), joined by a space.
    pub comment: Option<String>,
    /// Its NAGs in order, `!`-style suffixes included as NAGs 1 to 6.
    pub nags: Vec<u8>,
}

impl PgnGame {
    /// The value of the first tag called `name` (the case of the name matters, as in PGN).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(tag, _)| tag == name)
            .map(|(_, value)| value.as_str())
    }

    /// The game's result: the `Result` tag when it is `1-0`, `0-1` or `1/2-1/2`, else the
    /// movetext's result token when it is one of those; `None` for `*` or nothing.
    pub fn outcome(&self) -> Option<Outcome> {
        let tag = self.tag("Result").and_then(Outcome::from_token);
        tag.or_else(|| self.result.as_deref().and_then(Outcome::from_token))
    }

    /// The position after the last move.
    pub fn end(&self) -> Board {
        let mut board = self.start.clone();
        for m in &self.moves {
            board.play_unchecked(m.mv);
        }
        board
    }

    /// Each move with the position it was played from.
    pub fn positions(&self) -> impl Iterator<Item = (Board, &PgnMove)> + '_ {
        let mut board = self.start.clone();
        self.moves.iter().map(move |m| {
            let before = board.clone();
            board.play_unchecked(m.mv);
            (before, m)
        })
    }
}

/// A decided or drawn game's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    WhiteWins,
    BlackWins,
    Draw,
}

impl Outcome {
    /// `1-0`, `0-1`, `1/2-1/2` (or `1/2`); anything else is `None`.
    pub fn from_token(token: &str) -> Option<Outcome> {
        match token.trim() {
            "1-0" => Some(Outcome::WhiteWins),
            "0-1" => Some(Outcome::BlackWins),
            "1/2-1/2" | "1/2" => Some(Outcome::Draw),
            _ => None,
        }
    }
}

/// Why a game could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PgnErrorKind {
    /// Text that is no PGN token (a malformed tag pair, a stray character).
    #[error("{0}")]
    Syntax(String),
    /// The `FEN` tag is not a legal position.
    #[error("bad FEN {fen:?}: {why}")]
    Fen { fen: String, why: String },
    /// A `Variant` other than standard chess or Chess960.
    #[error("unsupported variant {0:?}")]
    Variant(String),
    /// A move that denotes no single legal move.
    #[error("{0}")]
    Move(#[from] crate::san::SanError),
}

/// A game that could not be read: which one, where, and the part read before the error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("game {game}, {}", self.detail())]
pub struct PgnError {
    /// The game's number in the file, from 1.
    pub game: usize,
    /// The line of the file the bad token is on, from 1.
    pub line: usize,
    /// For a bad move: its ply in the game, from 1 (the first move is ply 1).
    pub ply: Option<usize>,
    /// The token that could not be read, as written.
    pub token: Option<String>,
    pub kind: PgnErrorKind,
    /// The game up to the error (tags, start position and the moves before it), when its
    /// start position could be read; its `result` is `None`.
    pub partial: Option<Box<PgnGame>>,
}

impl PgnError {
    /// Where and why, without the game's number: `line 5, ply 6 (3...), "Nf9": not a
    /// move`.
    pub fn detail(&self) -> String {
        let mut text = format!("line {}", self.line);
        if let (Some(ply), Some(partial)) = (self.ply, &self.partial) {
            let board = partial.end();
            let dots = if board.side_to_move() == Color::White {
                "."
            } else {
                "..."
            };
            text += &format!(", ply {ply} ({}{dots})", board.fullmove_number());
        }
        if let Some(token) = &self.token {
            text += &format!(", {token:?}");
        }
        text + &format!(": {}", self.kind)
    }
}

/// The games of PGN `text`, in order.
pub fn games(text: &str) -> Games<'_> {
    Games::new(text)
}

/// The text of the PGN file at `path`, or of standard input when `path` is `-`. Bytes that
/// are not UTF-8 (Latin-1 names in old files) become U+FFFD.
pub fn read_text(path: &str) -> std::io::Result<String> {
    let bytes = if path == "-" {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)?;
        bytes
    } else {
        crate::file_error::read_regular_file(std::path::Path::new(path))?
    };
    Ok(match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => String::from_utf8_lossy(error.as_bytes()).into_owned(),
    })
}
