//! Moves in UCI long algebraic notation (`e2e4`, `e7e8q`, `0000`): syntax only.

use std::fmt;

/// A square, `0` = a1, `7` = h1, `63` = h8.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Square(u8);

impl Square {
    /// The square on `file` (0 = a) and `rank` (0 = first rank), if both are below 8.
    pub fn new(file: u8, rank: u8) -> Option<Square> {
        (file < 8 && rank < 8).then_some(Square(rank * 8 + file))
    }
    /// The square's index, 0 (a1) to 63 (h8).
    pub fn index(self) -> u8 {
        self.0
    }
    /// The file, 0 (a) to 7 (h).
    pub fn file(self) -> u8 {
        self.0 % 8
    }
    /// The rank, 0 (first) to 7 (eighth).
    pub fn rank(self) -> u8 {
        self.0 / 8
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

/// The piece a pawn promotes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Promotion {
    /// `n`.
    Knight,
    /// `b`.
    Bishop,
    /// `r`.
    Rook,
    /// `q`.
    Queen,
}

impl Promotion {
    /// The lower-case letter UCI uses for this piece.
    pub fn letter(self) -> char {
        match self {
            Promotion::Knight => 'n',
            Promotion::Bishop => 'b',
            Promotion::Rook => 'r',
            Promotion::Queen => 'q',
        }
    }
}

/// A move as UCI writes it. `Null` is `0000`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UciMove {
    /// `0000`: no move (a null move, or `bestmove 0000` when there is no legal move).
    Null,
    /// A move from one square to another, as UCI writes it.
    Normal {
        /// The square the piece leaves.
        from: Square,
        /// The square it lands on; for castling, the king's destination (`e1g1`) or,
        /// in Chess960, the rook's square (king takes rook).
        to: Square,
        /// The piece a pawn promotes to, if the move is a promotion.
        promotion: Option<Promotion>,
    },
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciMove::Null => f.write_str("0000"),
            UciMove::Normal {
                from,
                to,
                promotion,
            } => {
                write!(f, "{from}{to}")?;
                if let Some(p) = promotion {
                    write!(f, "{}", p.letter())?;
                }
                Ok(())
            }
        }
    }
}

impl std::str::FromStr for UciMove {
    type Err = crate::ParseError;

    /// Parses `e2e4`, `e7e8q` (promotion letter in either case) or `0000`.
    fn from_str(text: &str) -> Result<UciMove, crate::ParseError> {
        crate::parse::parse_move(text)
    }
}
