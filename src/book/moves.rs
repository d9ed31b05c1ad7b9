//! Polyglot's 16-bit move encoding: to file (bits 0-2), to row (3-5), from file (6-8), from
//! row (9-11), promotion piece (12-14: none, knight, bishop, rook, queen). Castling is written
//! king-takes-rook (e1h1, e1a1, e8h8, e8a8), which is cozy-chess's own castling move.

use cozy_chess::{Board, File, Move, Piece, Rank, Square};

/// The move `raw` denotes, whether or not it is legal anywhere; `None` when the bits cannot
/// be a move at all (an unknown promotion piece).
pub fn decode_move(raw: u16) -> Option<Move> {
    let square = |shift: u16| {
        let file = File::index(usize::from((raw >> shift) & 7));
        let rank = Rank::index(usize::from((raw >> (shift + 3)) & 7));
        Square::new(file, rank)
    };
    let promotion = match (raw >> 12) & 7 {
        0 => None,
        1 => Some(Piece::Knight),
        2 => Some(Piece::Bishop),
        3 => Some(Piece::Rook),
        4 => Some(Piece::Queen),
        _ => return None,
    };
    Some(Move {
        from: square(6),
        to: square(0),
        promotion,
    })
}

/// The move `raw` denotes if it is legal in `board`; `None` for an illegal or corrupt entry.
pub fn decode_legal_move(board: &Board, raw: u16) -> Option<Move> {
    decode_move(raw).filter(|&mv| board.is_legal(mv))
}

/// The Polyglot encoding of `mv` (castling must be king-takes-rook): the inverse of
/// [`decode_move`], for writing books.
pub fn encode_move(mv: Move) -> u16 {
    let square = |s: Square| (s.rank() as u16) << 3 | s.file() as u16;
    let promotion = match mv.promotion {
        None => 0,
        Some(Piece::Knight) => 1,
        Some(Piece::Bishop) => 2,
        Some(Piece::Rook) => 3,
        Some(_) => 4,
    };
    promotion << 12 | square(mv.from) << 6 | square(mv.to)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Polyglot move from its fields (files and rows counted from 0).
    fn raw(from: (u16, u16), to: (u16, u16), promotion: u16) -> u16 {
        promotion << 12 | from.1 << 9 | from.0 << 6 | to.1 << 3 | to.0
    }

    #[test]
    fn decodes_ordinary_moves() {
        // e2e4: from file 4 row 1, to file 4 row 3.
        assert_eq!(raw((4, 1), (4, 3), 0), 0x031C);
        assert_eq!(decode_move(0x031C), Some("e2e4".parse().unwrap()));
        assert_eq!(
            decode_move(raw((6, 7), (5, 5), 0)),
            Some("g8f6".parse().unwrap())
        );
        assert_eq!(decode_move(0), Some("a1a1".parse().unwrap()));
    }

    #[test]
    fn decodes_promotions() {
        for (code, letter) in [(1, 'n'), (2, 'b'), (3, 'r'), (4, 'q')] {
            let expected: Move = format!("b7a8{letter}").parse().unwrap();
            assert_eq!(decode_move(raw((1, 6), (0, 7), code)), Some(expected));
            assert_eq!(encode_move(expected), raw((1, 6), (0, 7), code));
        }
        for code in 5..8 {
            assert_eq!(decode_move(raw((1, 6), (0, 7), code)), None);
        }
    }

    #[test]
    fn castling_is_king_takes_rook_and_legal_in_cozy_chess() {
        let board = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false).unwrap();
        for uci in ["e1h1", "e1a1"] {
            let mv: Move = uci.parse().unwrap();
            assert_eq!(
                decode_legal_move(&board, encode_move(mv)),
                Some(mv),
                "{uci}"
            );
        }
        let black = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", false).unwrap();
        for uci in ["e8h8", "e8a8"] {
            let mv: Move = uci.parse().unwrap();
            assert_eq!(
                decode_legal_move(&black, encode_move(mv)),
                Some(mv),
                "{uci}"
            );
        }
        // Without the right, e1h1 is no move at all.
        let no_rights = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1", false).unwrap();
        assert_eq!(
            decode_legal_move(&no_rights, encode_move("e1h1".parse().unwrap())),
            None
        );
    }

    #[test]
    fn illegal_entries_are_dropped() {
        let board = Board::default();
        assert!(decode_legal_move(&board, 0x031C).is_some());
        // e2e5, a black move, a promotion without a pawn on the seventh rank.
        for uci in ["e2e5", "e7e5", "e2e4q"] {
            let mv: Move = uci.parse().unwrap();
            assert_eq!(decode_legal_move(&board, encode_move(mv)), None, "{uci}");
        }
        assert_eq!(decode_legal_move(&board, raw((4, 1), (4, 3), 7)), None);
    }

    #[test]
    fn exactly_the_legal_moves_decode_as_legal() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/1P6/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1",
            "r3k2r/1P6/8/8/3pP3/8/6p1/R3K2R b KQkq e3 0 1",
        ];
        for fen in fens {
            let board = Board::from_fen(fen, false).unwrap();
            let mut decoded: Vec<Move> = (0..0x8000)
                .filter_map(|raw| decode_legal_move(&board, raw))
                .collect();
            let mut legal = crate::position::legal_moves(&board);
            let key = |mv: &Move| encode_move(*mv);
            decoded.sort_by_key(key);
            legal.sort_by_key(key);
            assert_eq!(decoded, legal, "{fen}");
        }
    }

    #[test]
    fn encode_inverts_decode() {
        for raw in (0..=u16::MAX).step_by(7) {
            if let Some(mv) = decode_move(raw) {
                assert_eq!(encode_move(mv), raw & 0x7FFF);
            }
        }
    }
}
