//! Standard Algebraic Notation: renders a legal move as SAN (`Nbd7`, `exd8=Q#`, `O-O`) and
//! finds the legal move a SAN or UCI token denotes, for the `bm`/`am` moves of EPD suites
//! (`analyze`) and the moves of PGN games (`pgn`).
//!
//! Castling is `O-O` (king side) or `O-O-O` in standard chess and Chess960 alike. Reading
//! is lenient where suites are: annotations (`+ # ! ?`) are ignored, `0-0` is castling, a
//! promotion may omit its `=`, and a move with more disambiguation than it needs
//! (`Ngf3` where `Nf3` is enough) or without its `x` is accepted when exactly one legal
//! move fits.

use cozy_chess::{Board, File, Move, Piece, Rank, Square};
use protocol::UciMove;

use crate::moves::is_castling;
use crate::position::{from_uci, legal_moves};

/// The SAN of `mv`, a legal move of `board`, with its `+` or `#` suffix.
pub fn to_san(board: &Board, mv: Move) -> String {
    let mut san = san_without_check(board, mv);
    let mut after = board.clone();
    after.play_unchecked(mv);
    if !after.checkers().is_empty() {
        let has_reply = after.generate_moves(|_| true);
        san.push(if has_reply { '+' } else { '#' });
    }
    san
}

/// The SAN of `mv` without the check suffix.
fn san_without_check(board: &Board, mv: Move) -> String {
    if is_castling(board, mv) {
        return if mv.to.file() > mv.from.file() {
            "O-O".to_string()
        } else {
            "O-O-O".to_string()
        };
    }
    let piece = board.piece_on(mv.from).unwrap_or(Piece::Pawn);
    let capture = crate::moves::is_capture(board, mv);
    let mut san = String::with_capacity(8);
    if piece == Piece::Pawn {
        if capture {
            san.push(char::from(mv.from.file()));
        }
    } else {
        san.push(char::from(piece).to_ascii_uppercase());
        san.push_str(&disambiguation(board, mv, piece));
    }
    if capture {
        san.push('x');
    }
    san.push_str(&mv.to.to_string());
    if let Some(promotion) = mv.promotion {
        san.push('=');
        san.push(char::from(promotion).to_ascii_uppercase());
    }
    san
}

/// What a piece move must say about its origin: nothing when no other piece of the same
/// kind can reach the square; else the file if that tells them apart, else the rank, else
/// both.
fn disambiguation(board: &Board, mv: Move, piece: Piece) -> String {
    let rivals: Vec<Square> = legal_moves(board)
        .into_iter()
        .filter(|other| {
            other.to == mv.to
                && other.from != mv.from
                && board.piece_on(other.from) == Some(piece)
                && !is_castling(board, *other)
        })
        .map(|other| other.from)
        .collect();
    if rivals.is_empty() {
        String::new()
    } else if rivals.iter().all(|s| s.file() != mv.from.file()) {
        mv.from.file().to_string()
    } else if rivals.iter().all(|s| s.rank() != mv.from.rank()) {
        mv.from.rank().to_string()
    } else {
        mv.from.to_string()
    }
}

/// The legal move of `board` that `token` denotes, in UCI (`e2e4`, `e7e8q`; castling as
/// `e1g1` or king-takes-rook in standard chess, king-takes-rook in Chess960) or in SAN.
pub fn parse_move(board: &Board, token: &str, chess960: bool) -> Option<Move> {
    if let Ok(uci) = token.parse::<UciMove>() {
        if let Some(mv) = from_uci(board, uci, chess960) {
            return Some(mv);
        }
    }
    parse_san(board, token)
}

/// Why a SAN token denotes no legal move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SanError {
    /// The token is not a move in SAN (nor in UCI-like long notation).
    #[error("not a move")]
    Unreadable,
    /// No legal move fits.
    #[error("illegal move")]
    Illegal,
    /// Several legal moves fit (the token lacks its disambiguation).
    #[error("ambiguous move ({0} legal moves fit)")]
    Ambiguous(usize),
}

/// The legal move of `board` that the SAN `token` denotes, if exactly one does (see
/// [`resolve_san`]).
pub fn parse_san(board: &Board, token: &str) -> Option<Move> {
    resolve_san(board, token).ok()
}

/// The legal move of `board` that the SAN `token` denotes, read as described in the
/// module comment, or why there is none. Castling, in Chess960 too, comes back as
/// cozy-chess writes it: the king taking its own rook.
pub fn resolve_san(board: &Board, token: &str) -> Result<Move, SanError> {
    let text = normalize(token);
    if text.is_empty() {
        return Err(SanError::Unreadable);
    }
    // The pattern describes every SAN rendering of a move, so when exactly one legal move
    // fits it, that move is the one an exact match would find.
    let pattern = Pattern::parse(&text).ok_or(SanError::Unreadable)?;
    let moves = legal_moves(board);
    let fits: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&mv| pattern.fits(board, mv))
        .collect();
    match fits.as_slice() {
        [mv] => Ok(*mv),
        [] => Err(SanError::Illegal),
        _ => fits
            .iter()
            .copied()
            .find(|&mv| normalize(&san_without_check(board, mv)) == text)
            .ok_or(SanError::Ambiguous(fits.len())),
    }
}

/// `token` without annotations, check marks, `e.p.` or `=`, and with `0-0` as `O-O`.
fn normalize(token: &str) -> String {
    let mut text = token.trim();
    loop {
        let trimmed = text
            .trim_end_matches(['+', '#', '!', '?'])
            .trim_end_matches("e.p.")
            .trim_end();
        if trimmed == text {
            break;
        }
        text = trimmed;
    }
    text.replace('0', "O").replace('=', "")
}

/// A SAN move taken apart: which piece, what it says about its origin, where it goes.
#[derive(Debug, PartialEq, Eq)]
enum Pattern {
    Castle {
        king_side: bool,
    },
    Move {
        piece: Piece,
        from_file: Option<File>,
        from_rank: Option<Rank>,
        to: Square,
        promotion: Option<Piece>,
    },
}

impl Pattern {
    /// Reads a normalized token (see [`normalize`]).
    fn parse(text: &str) -> Option<Pattern> {
        match text {
            "O-O" => return Some(Pattern::Castle { king_side: true }),
            "O-O-O" => return Some(Pattern::Castle { king_side: false }),
            _ => {}
        }
        let mut chars: Vec<char> = text.chars().collect();
        let promotion = match chars.last() {
            Some(&c) if "QRBN".contains(c) => {
                chars.pop();
                Some(Piece::try_from(c.to_ascii_lowercase()).ok()?)
            }
            _ => None,
        };
        let piece = match chars.first() {
            Some(&c) if "KQRBN".contains(c) => {
                chars.remove(0);
                Piece::try_from(c.to_ascii_lowercase()).ok()?
            }
            _ => Piece::Pawn,
        };
        if chars.len() < 2 {
            return None;
        }
        let to_text: String = chars.split_off(chars.len() - 2).into_iter().collect();
        let to: Square = to_text.parse().ok()?;
        // What is left says where the piece comes from: a file, a rank, or both, with
        // `x`, `:` or `-` between it and the destination.
        chars.retain(|c| !matches!(c, 'x' | ':' | '-'));
        let (mut from_file, mut from_rank) = (None, None);
        for c in chars {
            if let (Ok(file), None) = (File::try_from(c), from_file) {
                if from_rank.is_some() {
                    return None;
                }
                from_file = Some(file);
            } else if let (Ok(rank), None) = (Rank::try_from(c), from_rank) {
                from_rank = Some(rank);
            } else {
                return None;
            }
        }
        Some(Pattern::Move {
            piece,
            from_file,
            from_rank,
            to,
            promotion,
        })
    }

    /// Whether the legal move `mv` of `board` is one this pattern describes.
    fn fits(&self, board: &Board, mv: Move) -> bool {
        let castling = is_castling(board, mv);
        match *self {
            Pattern::Castle { king_side } => {
                castling && (mv.to.file() > mv.from.file()) == king_side
            }
            Pattern::Move {
                piece,
                from_file,
                from_rank,
                to,
                promotion,
            } => {
                !castling
                    && board.piece_on(mv.from) == Some(piece)
                    && mv.to == to
                    && mv.promotion == promotion
                    && from_file.is_none_or(|f| mv.from.file() == f)
                    && from_rank.is_none_or(|r| mv.from.rank() == r)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::parse_fen;

    fn board(fen: &str) -> Board {
        parse_fen(fen, false).unwrap()
    }

    fn board960(fen: &str) -> Board {
        parse_fen(fen, true).unwrap()
    }

    /// The legal move from `from` to `to` (king-takes-rook for castling).
    fn mv(board: &Board, from: &str, to: &str, promotion: Option<Piece>) -> Move {
        let wanted = Move {
            from: from.parse().unwrap(),
            to: to.parse().unwrap(),
            promotion,
        };
        assert!(board.is_legal(wanted), "{wanted} is not legal");
        wanted
    }

    /// Checks that `mv` renders as `san` and that `san` reads back as `mv`.
    fn round_trip(board: &Board, mv: Move, san: &str) {
        assert_eq!(to_san(board, mv), san);
        assert_eq!(parse_san(board, san), Some(mv), "{san}");
    }

    #[test]
    fn every_legal_move_reads_back_from_its_san() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "N1N5/8/8/8/8/8/1k5K/N1N5 w - - 0 1",
        ];
        for fen in fens {
            let board = board(fen);
            for mv in legal_moves(&board) {
                let san = to_san(&board, mv);
                assert_eq!(parse_san(&board, &san), Some(mv), "{fen}: {san}");
            }
        }
    }

    #[test]
    fn disambiguates_by_file_then_rank_then_square() {
        // Knights on a1, c1, a8 and c8 can all reach b3 or b6 in pairs.
        let b = board("N1N5/8/8/8/8/8/1k5K/N1N5 w - - 0 1");
        round_trip(&b, mv(&b, "a1", "b3", None), "Nab3");
        round_trip(&b, mv(&b, "c1", "b3", None), "Ncb3");
        // Rooks on the same file: the rank tells them apart.
        let b = board("R7/7k/8/8/8/8/8/R5K1 w - - 0 1");
        round_trip(&b, mv(&b, "a1", "a4", None), "R1a4");
        round_trip(&b, mv(&b, "a8", "a4", None), "R8a4");
        // Three queens reach d4: b2 shares a file with b6 and a rank with f2.
        let b = board("k7/8/1Q6/8/8/8/1Q3Q2/7K w - - 0 1");
        round_trip(&b, mv(&b, "b2", "d4", None), "Qb2d4");
        round_trip(&b, mv(&b, "b6", "d4", None), "Q6d4");
        round_trip(&b, mv(&b, "f2", "d4", None), "Qfd4");
        // A pinned rival does not count: the knight on c3 is pinned to the king.
        let b = board("4k3/8/8/b7/8/2N5/8/4K1N1 w - - 0 1");
        round_trip(&b, mv(&b, "g1", "e2", None), "Ne2");
    }

    #[test]
    fn captures_promotions_and_en_passant() {
        let b = board("3r3k/4P3/8/3pP3/8/8/8/4K3 w - d6 0 1");
        round_trip(&b, mv(&b, "e5", "d6", None), "exd6");
        round_trip(&b, mv(&b, "e7", "d8", Some(Piece::Queen)), "exd8=Q+");
        round_trip(&b, mv(&b, "e7", "e8", Some(Piece::Knight)), "e8=N");
        round_trip(&b, mv(&b, "e7", "d8", Some(Piece::Rook)), "exd8=R+");
        assert_eq!(
            parse_san(&b, "exd8Q"),
            Some(mv(&b, "e7", "d8", Some(Piece::Queen)))
        );
        assert_eq!(parse_san(&b, "exd6e.p."), Some(mv(&b, "e5", "d6", None)));
        // A promotion must name its piece.
        assert_eq!(parse_san(&b, "e8"), None);
    }

    #[test]
    fn checks_and_mates() {
        let b = board("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
        round_trip(&b, mv(&b, "a1", "a8", None), "Ra8#");
        round_trip(&b, mv(&b, "a1", "e1", None), "Re1");
        let b = board("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
        round_trip(&b, mv(&b, "h5", "f7", None), "Qxf7#");
        round_trip(&b, mv(&b, "c4", "f7", None), "Bxf7+");
    }

    #[test]
    fn castling_standard_and_chess960() {
        let b = board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        round_trip(&b, mv(&b, "e1", "h1", None), "O-O");
        round_trip(&b, mv(&b, "e1", "a1", None), "O-O-O");
        assert_eq!(parse_san(&b, "0-0"), Some(mv(&b, "e1", "h1", None)));
        assert_eq!(parse_san(&b, "0-0-0+"), Some(mv(&b, "e1", "a1", None)));
        // The king's own move to f1 is not castling.
        round_trip(&b, mv(&b, "e1", "f1", None), "Kf1");
        // Chess960: king on b1, rooks on a1 and g1; king and rook swap for O-O-O.
        let b = board960("1k4r1/6p1/8/8/8/8/8/RK4R1 w GAg - 0 1");
        round_trip(&b, mv(&b, "b1", "g1", None), "O-O");
        round_trip(&b, mv(&b, "b1", "a1", None), "O-O-O");
        assert_eq!(parse_move(&b, "b1a1", true), Some(mv(&b, "b1", "a1", None)));
    }

    #[test]
    fn lenient_reading_and_uci() {
        let b = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let nf3 = mv(&b, "g1", "f3", None);
        for token in ["Nf3", "Nf3!", "Nf3?!", "Ngf3", "Ng1f3", "Ng1-f3", "g1f3"] {
            assert_eq!(parse_move(&b, token, false), Some(nf3), "{token}");
        }
        assert_eq!(parse_move(&b, "e4", false), Some(mv(&b, "e2", "e4", None)));
        // Illegal, ambiguous or malformed tokens denote nothing.
        for token in ["Nd4", "e5", "Kxe2", "Z9", "", "O-O", "e2e5", "0000", "N"] {
            assert_eq!(parse_move(&b, token, false), None, "{token}");
        }
        // Standard castling in UCI: e1g1 and king-takes-rook e1h1.
        let b = board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let castle = mv(&b, "e1", "h1", None);
        assert_eq!(parse_move(&b, "e1g1", false), Some(castle));
        assert_eq!(parse_move(&b, "e1h1", false), Some(castle));
        // Two rooks can reach d1: the bare move is ambiguous.
        let b = board("4k3/8/8/8/8/8/4K3/R6R w - - 0 1");
        assert_eq!(parse_san(&b, "Rd1"), None);
        assert_eq!(parse_san(&b, "Rad1"), Some(mv(&b, "a1", "d1", None)));
    }
}
