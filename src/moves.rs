//! What a move does to the board: the piece it moves, what it captures and where, what it
//! places, and the rook a castling move carries along. The one place that answers "what
//! does this move capture", for the search, move ordering, the network's incremental
//! update and the tools.

use cozy_chess::{Board, Color, File, Move, Piece, Rank, Square};

/// The piece `mv` captures and the square it stood on (en passant included), or `None`.
/// Castling (cozy-chess writes it as the king taking its own rook) captures nothing.
#[inline(always)]
pub fn captured(board: &Board, mv: Move) -> Option<(Piece, Square)> {
    let them = board.colors(!board.side_to_move());
    if them.has(mv.to) {
        return board.piece_on(mv.to).map(|piece| (piece, mv.to));
    }
    let us = board.side_to_move();
    if mv.from.file() != mv.to.file() && board.colored_pieces(us, Piece::Pawn).has(mv.from) {
        // A pawn moving diagonally onto an empty square captures en passant: the pawn it
        // takes stands beside it, on the rank it left.
        return Some((Piece::Pawn, Square::new(mv.to.file(), mv.from.rank())));
    }
    None
}

/// Whether `mv` (a move of `board`'s side to move) captures something, en passant included.
#[inline(always)]
pub fn is_capture(board: &Board, mv: Move) -> bool {
    let us = board.side_to_move();
    board.colors(!us).has(mv.to)
        || (mv.from.file() != mv.to.file() && board.colored_pieces(us, Piece::Pawn).has(mv.from))
}

/// Whether `mv` (a legal move of `board`) captures en passant: what it captures does not
/// stand on the square it moves to.
#[inline(always)]
pub fn is_en_passant(board: &Board, mv: Move) -> bool {
    captured(board, mv).is_some_and(|(_, square)| square != mv.to)
}

/// Whether `mv` castles: the king moves onto a rook of its own colour.
#[inline(always)]
pub fn is_castling(board: &Board, mv: Move) -> bool {
    board.colors(board.side_to_move()).has(mv.to)
}

/// Everything a move changes on the board, recorded so that an incremental evaluation can
/// update from the parent position without looking at either board again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveDelta {
    /// The side that moved.
    pub mover: Color,
    /// The piece that moved (the king, for castling).
    pub piece: Piece,
    pub from: Square,
    /// Where the moved piece lands (for castling, the king's destination square, not the
    /// rook's square that the move is written with).
    pub to: Square,
    /// The piece standing on `to` afterwards: the promotion piece, or `piece`.
    pub placed: Piece,
    /// The captured piece (always the opponent's) and the square it stood on.
    pub captured: Option<(Piece, Square)>,
    /// For castling, the rook's origin and destination squares.
    pub rook: Option<(Square, Square)>,
}

impl MoveDelta {
    /// The delta of `mv`, a legal move of `board`, in either castling notation's board
    /// (cozy-chess always writes castling as king-takes-rook, in standard chess too).
    pub fn new(board: &Board, mv: Move) -> MoveDelta {
        let mover = board.side_to_move();
        let piece = board.piece_on(mv.from).unwrap_or(Piece::Pawn);
        if piece == Piece::King && is_castling(board, mv) {
            let rank = Rank::First.relative_to(mover);
            let short = mv.to.file() > mv.from.file();
            let (king_file, rook_file) = if short {
                (File::G, File::F)
            } else {
                (File::C, File::D)
            };
            return MoveDelta {
                mover,
                piece,
                from: mv.from,
                to: Square::new(king_file, rank),
                placed: Piece::King,
                captured: None,
                rook: Some((mv.to, Square::new(rook_file, rank))),
            };
        }
        MoveDelta {
            mover,
            piece,
            from: mv.from,
            to: mv.to,
            placed: mv.promotion.unwrap_or(piece),
            captured: captured(board, mv),
            rook: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{legal_moves, parse_fen};
    use crate::rng::SplitMix64;

    fn delta(fen: &str, chess960: bool, mv: &str) -> MoveDelta {
        let board = parse_fen(fen, chess960).unwrap();
        let mv = legal_moves(&board)
            .into_iter()
            .find(|m| m.to_string() == mv)
            .unwrap_or_else(|| panic!("{mv} is not legal in {fen}"));
        MoveDelta::new(&board, mv)
    }

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn each_move_kind_has_its_delta() {
        let quiet = delta("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", false, "g1f3");
        assert_eq!(
            quiet,
            MoveDelta {
                mover: Color::White,
                piece: Piece::Knight,
                from: sq("g1"),
                to: sq("f3"),
                placed: Piece::Knight,
                captured: None,
                rook: None
            }
        );
        let capture = delta("4k3/8/8/3r4/8/8/8/3QK3 w - - 0 1", false, "d1d5");
        assert_eq!(capture.captured, Some((Piece::Rook, sq("d5"))));
        assert_eq!(
            (capture.piece, capture.placed),
            (Piece::Queen, Piece::Queen)
        );

        let en_passant = delta("4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 2", false, "d5e6");
        assert_eq!(en_passant.captured, Some((Piece::Pawn, sq("e5"))));
        assert_eq!(en_passant.to, sq("e6"));
        let black_en_passant = delta("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 2", false, "d4e3");
        assert_eq!(black_en_passant.captured, Some((Piece::Pawn, sq("e4"))));
        assert_eq!(black_en_passant.mover, Color::Black);

        for (promotion, piece) in [
            ("q", Piece::Queen),
            ("r", Piece::Rook),
            ("b", Piece::Bishop),
            ("n", Piece::Knight),
        ] {
            let push = delta(
                "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
                false,
                &format!("b7b8{promotion}"),
            );
            assert_eq!(
                (push.piece, push.placed, push.captured),
                (Piece::Pawn, piece, None)
            );
            let take = delta(
                "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
                false,
                &format!("b7a8{promotion}"),
            );
            assert_eq!(take.placed, piece);
            assert_eq!(take.captured, Some((Piece::Rook, sq("a8"))));
        }
    }

    #[test]
    fn castling_moves_the_king_and_the_rook_in_both_notations() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        // Standard chess: cozy-chess writes castling king-takes-rook in both modes.
        for chess960 in [false, true] {
            let board = parse_fen(fen, chess960).unwrap();
            let short = Move {
                from: sq("e1"),
                to: sq("h1"),
                promotion: None,
            };
            let d = MoveDelta::new(&board, short);
            assert_eq!((d.to, d.rook), (sq("g1"), Some((sq("h1"), sq("f1")))));
            assert_eq!(d.captured, None);
            let long = Move {
                from: sq("e1"),
                to: sq("a1"),
                promotion: None,
            };
            let d = MoveDelta::new(&board, long);
            assert_eq!((d.to, d.rook), (sq("c1"), Some((sq("a1"), sq("d1")))));
        }
        // Chess960: the king on b8 castles long with the rook on a8 ...
        let d = delta("rk5r/8/8/8/8/8/8/4K3 b kq - 0 1", true, "b8a8");
        assert_eq!((d.from, d.to), (sq("b8"), sq("c8")));
        assert_eq!(d.rook, Some((sq("a8"), sq("d8"))));
        // ... and a king already on g1 castles short without moving.
        let d = delta("4k3/8/8/8/8/8/8/6KR w K - 0 1", true, "g1h1");
        assert_eq!((d.from, d.to), (sq("g1"), sq("g1")));
        assert_eq!(d.rook, Some((sq("h1"), sq("f1"))));
    }

    /// Replaying deltas on a square map gives the board the move makes, for every legal move
    /// of many random games, standard and Chess960.
    #[test]
    fn deltas_replay_every_move_of_random_games() {
        let mut rng = SplitMix64::new(3);
        let starts = [
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                false,
            ),
            (
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                true,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                false,
            ),
        ];
        for game in 0..60 {
            let (fen, chess960) = starts[game % starts.len()];
            let mut board = parse_fen(fen, chess960).unwrap();
            for _ in 0..150 {
                let moves = legal_moves(&board);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len())];
                let d = MoveDelta::new(&board, mv);
                let mut squares: Vec<Option<(Piece, Color)>> = Square::ALL
                    .iter()
                    .map(|&s| board.piece_on(s).zip(board.color_on(s)))
                    .collect();
                squares[d.from as usize] = None;
                if let Some((piece, at)) = d.captured {
                    assert_eq!(squares[at as usize], Some((piece, !d.mover)));
                    squares[at as usize] = None;
                }
                if let Some((from, to)) = d.rook {
                    squares[from as usize] = None;
                    squares[to as usize] = Some((Piece::Rook, d.mover));
                }
                squares[d.to as usize] = Some((d.placed, d.mover));
                board.play_unchecked(mv);
                for &s in &Square::ALL {
                    let actual = board.piece_on(s).zip(board.color_on(s));
                    assert_eq!(
                        squares[s as usize], actual,
                        "{mv} in game {game}, square {s}"
                    );
                }
            }
        }
    }
}
