//! Opening books as lists of positions: EPD or FEN files, one position a line. The first
//! four fields of a line are the position; an EPD line's operations after them (`bm e4;`,
//! `c0 "...";`, `hmvc 0; fmvn 1;`) are ignored, and a FEN line's halfmove and fullmove
//! numbers are kept. Castling may be standard, X-FEN or Shredder-FEN (Chess960 books) when
//! the reader is asked for Chess960. Blank lines and lines starting with `#` are skipped;
//! a line that is no position is set aside with its number and the reason, so that the
//! caller can report it and go on (`genfens`) or refuse the book (`datagen`).

use std::io::{BufRead, BufReader};

use crate::file_error::{AtPath, FileError};
use crate::position::{parse_fen, Game};

/// Why a book could not be read at all.
#[derive(Debug, thiserror::Error)]
pub enum EpdError {
    /// The file could not be opened or read.
    #[error(transparent)]
    File(#[from] FileError),
    /// The file holds no position; `first_bad` is its first line that is no position, if
    /// any (a Chess960 book read without Chess960, say).
    #[error("{path}: no positions{}", first_bad.as_ref().map_or(String::new(), BadLine::aside))]
    Empty {
        path: String,
        first_bad: Option<BadLine>,
    },
}

/// A line of a book that is no position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadLine {
    /// The line's number, from 1.
    pub line: usize,
    /// Why it was refused.
    pub why: String,
}

impl BadLine {
    /// ` (line N: why)`, said after another message.
    fn aside(&self) -> String {
        format!(" (line {}: {})", self.line, self.why)
    }
}

/// The positions of a book, in file order, and the lines that were set aside.
#[derive(Debug, Clone)]
pub struct EpdBook {
    pub positions: Vec<Game>,
    pub bad_lines: Vec<BadLine>,
}

/// Reads the book at `path`; `chess960` accepts Chess960 castling (X-FEN or Shredder-FEN).
/// Fails only when the file cannot be read or holds no position at all.
pub fn read(path: &str, chess960: bool) -> Result<EpdBook, EpdError> {
    let file = crate::file_error::open_regular_file(std::path::Path::new(path)).at_path(path)?;
    let mut reader = BufReader::new(file);
    let mut book = EpdBook {
        positions: Vec::new(),
        bad_lines: Vec::new(),
    };
    let mut bytes = Vec::new();
    for number in 1.. {
        bytes.clear();
        if reader.read_until(b'\n', &mut bytes).at_path(path)? == 0 {
            break;
        }
        let line = match number {
            1 => crate::file_error::without_bom(&bytes),
            _ => &bytes,
        };
        // A line that is not UTF-8 is refused by the FEN parser, with its number.
        match parse_line(&String::from_utf8_lossy(line), chess960) {
            None => {}
            Some(Ok(game)) => book.positions.push(game),
            Some(Err(why)) => book.bad_lines.push(BadLine { line: number, why }),
        }
    }
    if book.positions.is_empty() {
        return Err(EpdError::Empty {
            path: path.to_string(),
            first_bad: book.bad_lines.into_iter().next(),
        });
    }
    Ok(book)
}

/// The position of one line: `None` for a blank or comment line.
pub fn parse_line(line: &str, chess960: bool) -> Option<Result<Game, String>> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.is_empty() || fields[0].starts_with('#') {
        return None;
    }
    let numeric = |i: usize| fields.get(i).is_some_and(|f| f.parse::<u32>().is_ok());
    let take = if numeric(4) && numeric(5) { 6 } else { 4 };
    let fen = fields[..take.min(fields.len())].join(" ");
    Some(
        parse_fen(&fen, chess960)
            .map(Game::new)
            .map_err(|why| why.to_string()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_epd_or_fen_with_any_castling_notation() {
        let epd = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; c0 \"x\";";
        let game = parse_line(epd, false).unwrap().unwrap();
        assert_eq!(game.board.fullmove_number(), 1);
        let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        let game = parse_line(fen, false).unwrap().unwrap();
        assert_eq!(game.board.fullmove_number(), 2);
        assert!(parse_line("   ", false).is_none());
        assert!(parse_line("# a comment", false).is_none());
        // A Chess960 start (Shredder-FEN and X-FEN), refused without Chess960.
        let shredder = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let xfen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9";
        let a = parse_line(shredder, true).unwrap().unwrap();
        let b = parse_line(xfen, true).unwrap().unwrap();
        assert_eq!(a.board, b.board);
        assert!(parse_line(shredder, false).unwrap().is_err());
        assert!(parse_line("not a fen at all", true).unwrap().is_err());
    }

    /// A byte order mark before the first line (as some Windows editors save) is not
    /// part of the line: a book of one position saved so still has that position.
    #[test]
    fn a_byte_order_mark_before_the_first_line_is_skipped() {
        let path = std::env::temp_dir().join(format!("cutoff-epd-bom-{}.epd", std::process::id()));
        let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\r\n";
        std::fs::write(&path, format!("\u{feff}{fen}{fen}")).unwrap();
        let book = read(path.to_str().unwrap(), false).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(book.positions.len(), 2);
        assert!(book.bad_lines.is_empty(), "{:?}", book.bad_lines);
    }
}
