//! Static exchange evaluation (SEE): the material outcome of the capture sequence a move
//! starts on its destination square, each side always recapturing with its least
//! valuable attacker and free to stop when continuing would lose material.
//!
//! Only the threshold form [`see_ge`] is offered: it answers "does this move win at least
//! `threshold`?" with the swap algorithm and stops as soon as the answer is known, which
//! is all that move ordering and pruning need. Sliders uncovered behind a capturing piece
//! (x-rays) join the exchange; pins and promotions during the recaptures are ignored.

use cozy_chess::{
    get_bishop_moves, get_king_moves, get_knight_moves, get_pawn_attacks, get_rook_moves, BitBoard,
    Board, Color, Move, Piece, Square,
};

/// Piece values of the exchange, indexed by `Piece as usize` (P, N, B, R, Q, K). The
/// king's value never counts: a king capture ends the exchange.
pub const SEE_VALUES: [i32; 6] = [100, 300, 300, 500, 900, 0];

/// The exchange value of `piece`.
#[inline(always)]
pub fn see_value(piece: Piece) -> i32 {
    SEE_VALUES[piece as usize]
}

/// Whether the static exchange that `mv` (a legal move of `board`) starts gains at least
/// `threshold` for the side to move.
///
/// En passant captures a pawn; a promotion gains the promoted piece less the pawn (and
/// that piece is what may be recaptured); castling gains nothing. A non-capture is
/// judged by whether the moved piece can be won on its destination.
pub fn see_ge(board: &Board, mv: Move, threshold: i32) -> bool {
    let us = board.side_to_move();
    let Some(moved) = board.piece_on(mv.from) else {
        return false;
    };
    // Castling, written king-takes-own-rook, exchanges nothing.
    if board.colors(us).has(mv.to) {
        return threshold <= 0;
    }
    let taken = crate::moves::captured(board, mv);
    let captured = taken.map_or(0, |(piece, _)| see_value(piece));
    let (mut on_square, promotion_gain) = match mv.promotion {
        Some(piece) => (piece, see_value(piece) - see_value(Piece::Pawn)),
        None => (moved, 0),
    };

    // Even if the opponent does not recapture, the threshold is out of reach.
    let mut balance = captured + promotion_gain - threshold;
    if balance < 0 {
        return false;
    }
    // Even losing the piece we moved, the threshold is met.
    balance -= see_value(on_square);
    if balance >= 0 {
        return true;
    }

    let mut occupied = (board.occupied() ^ mv.from.bitboard()) | mv.to.bitboard();
    if let Some((_, square)) = taken.filter(|&(_, square)| square != mv.to) {
        // En passant: the captured pawn leaves a square beside the destination.
        occupied ^= square.bitboard();
    }
    let diagonal = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    let orthogonal = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    let mut attackers = attackers_to(board, mv.to, occupied) & occupied;

    // `balance` is, from the point of view of `side` (who may recapture next), how far
    // above its target it ends if it stops now, less one, negated each turn: the side
    // that cannot improve on it loses the exchange.
    let mut side = !us;
    loop {
        let ours = attackers & board.colors(side);
        if ours.is_empty() {
            break;
        }
        let Some((piece, from)) = least_valuable(board, ours) else {
            break;
        };
        on_square = piece;
        occupied ^= from.bitboard();
        // Capturing may uncover a slider behind the capturing piece.
        if matches!(piece, Piece::Pawn | Piece::Bishop | Piece::Queen) {
            attackers |= get_bishop_moves(mv.to, occupied) & diagonal;
        }
        if matches!(piece, Piece::Rook | Piece::Queen) {
            attackers |= get_rook_moves(mv.to, occupied) & orthogonal;
        }
        attackers &= occupied;
        side = !side;
        balance = -balance - 1 - see_value(on_square);
        if balance >= 0 {
            // A king may only recapture if the square is no longer defended.
            if on_square == Piece::King && !(attackers & board.colors(side)).is_empty() {
                side = !side;
            }
            break;
        }
    }
    // The side to move when the exchange ends is the one that lost it.
    side != us
}

/// The pieces of both colours that attack `square` given the occupancy `occupied`.
#[inline(always)]
fn attackers_to(board: &Board, square: Square, occupied: BitBoard) -> BitBoard {
    let pawns = board.pieces(Piece::Pawn);
    let diagonal = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    let orthogonal = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    (get_pawn_attacks(square, Color::White) & pawns & board.colors(Color::Black))
        | (get_pawn_attacks(square, Color::Black) & pawns & board.colors(Color::White))
        | (get_knight_moves(square) & board.pieces(Piece::Knight))
        | (get_king_moves(square) & board.pieces(Piece::King))
        | (get_bishop_moves(square, occupied) & diagonal)
        | (get_rook_moves(square, occupied) & orthogonal)
}

/// The least valuable piece among `candidates` and its square.
#[inline(always)]
fn least_valuable(board: &Board, candidates: BitBoard) -> Option<(Piece, Square)> {
    Piece::ALL.into_iter().find_map(|piece| {
        (candidates & board.pieces(piece))
            .next_square()
            .map(|square| (piece, square))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::parse_fen;

    /// Exchange-evaluation test positions with their exact SEE, in the values of
    /// [`SEE_VALUES`]: a widely shared suite, with castling written king-takes-rook.
    const SUITE: &[(&str, &str, i32)] = &[
        (
            "6k1/1pp4p/p1pb4/6q1/3P1pRr/2P4P/PP1Br1P1/5RKN w - -",
            "f1f4",
            -100,
        ),
        (
            "5rk1/1pp2q1p/p1pb4/8/3P1NP1/2P5/1P1BQ1P1/5RK1 b - -",
            "d6f4",
            0,
        ),
        (
            "4R3/2r3p1/5bk1/1p1r3p/p2PR1P1/P1BK1P2/1P6/8 b - -",
            "h5g4",
            0,
        ),
        (
            "4R3/2r3p1/5bk1/1p1r1p1p/p2PR1P1/P1BK1P2/1P6/8 b - -",
            "h5g4",
            0,
        ),
        (
            "4r1k1/5pp1/nbp4p/1p2p2q/1P2P1b1/1BP2N1P/1B2QPPK/3R4 b - -",
            "g4f3",
            0,
        ),
        (
            "2r1r1k1/pp1bppbp/3p1np1/q3P3/2P2P2/1P2B3/P1N1B1PP/2RQ1RK1 b - -",
            "d6e5",
            100,
        ),
        (
            "7r/5qpk/p1Qp1b1p/3r3n/BB3p2/5p2/P1P2P2/4RK1R w - -",
            "e1e8",
            0,
        ),
        (
            "6rr/6pk/p1Qp1b1p/2n5/1B3p2/5p2/P1P2P2/4RK1R w - -",
            "e1e8",
            -500,
        ),
        (
            "7r/5qpk/2Qp1b1p/1N1r3n/BB3p2/5p2/P1P2P2/4RK1R w - -",
            "e1e8",
            -500,
        ),
        ("6RR/4bP2/8/8/5r2/3K4/5p2/4k3 w - -", "f7f8q", 200),
        ("6RR/4bP2/8/8/5r2/3K4/5p2/4k3 w - -", "f7f8n", 200),
        ("7R/5P2/8/8/6r1/3K4/5p2/4k3 w - -", "f7f8q", 800),
        ("7R/5P2/8/8/6r1/3K4/5p2/4k3 w - -", "f7f8b", 200),
        ("7R/4bP2/8/8/1q6/3K4/5p2/4k3 w - -", "f7f8r", -100),
        ("8/4kp2/2npp3/1Nn5/1p2PQP1/7q/1PP1B3/4KR1r b - -", "h1f1", 0),
        ("8/4kp2/2npp3/1Nn5/1p2P1P1/7q/1PP1B3/4KR1r b - -", "h1f1", 0),
        (
            "2r2r1k/6bp/p7/2q2p1Q/3PpP2/1B6/P5PP/2RR3K b - -",
            "c5c1",
            100,
        ),
        (
            "r2qk1nr/pp2ppbp/2b3p1/2p1p3/8/2N2N2/PPPP1PPP/R1BQR1K1 w kq -",
            "f3e5",
            100,
        ),
        (
            "6r1/4kq2/b2p1p2/p1pPb3/p1P2B1Q/2P4P/2B1R1P1/6K1 w - -",
            "f4e5",
            0,
        ),
        (
            "3q2nk/pb1r1p2/np6/3P2Pp/2p1P3/2R4B/PQ3P1P/3R2K1 w - h6",
            "g5h6",
            0,
        ),
        (
            "3q2nk/pb1r1p2/np6/3P2Pp/2p1P3/2R1B2B/PQ3P1P/3R2K1 w - h6",
            "g5h6",
            100,
        ),
        (
            "2r4r/1P4pk/p2p1b1p/7n/BB3p2/2R2p2/P1P2P2/4RK2 w - -",
            "c3c8",
            500,
        ),
        (
            "2r4k/2r4p/p7/2b2p1b/4pP2/1BR5/P1R3PP/2Q4K w - -",
            "c3c5",
            300,
        ),
        ("8/pp6/2pkp3/4bp2/2R3b1/2P5/PP4B1/1K6 w - -", "g2c6", -200),
        (
            "4q3/1p1pr1k1/1B2rp2/6p1/p3PP2/P3R1P1/1P2R1K1/4Q3 b - -",
            "e6e4",
            -400,
        ),
        (
            "4q3/1p1pr1kb/1B2rp2/6p1/p3PP2/P3R1P1/1P2R1K1/4Q3 b - -",
            "h7e4",
            100,
        ),
        ("3r3k/3r4/2n1n3/8/3p4/2PR4/1B1Q4/3R3K w - -", "d3d4", -100),
        (
            "1k1r4/1ppn3p/p4b2/4n3/8/P2N2P1/1PP1R1BP/2K1Q3 w - -",
            "d3e5",
            100,
        ),
        (
            "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - -",
            "d3e5",
            -200,
        ),
        (
            "rnb2b1r/ppp2kpp/5n2/4P3/q2P3B/5R2/PPP2PPP/RN1QKB2 w Q -",
            "h4f6",
            100,
        ),
        (
            "r2q1rk1/2p1bppp/p2p1n2/1p2P3/4P1b1/1nP1BN2/PP3PPP/RN1QR1K1 b - -",
            "g4f3",
            0,
        ),
        (
            "r1bqkb1r/2pp1ppp/p1n5/1p2p3/3Pn3/1B3N2/PPP2PPP/RNBQ1RK1 b kq -",
            "c6d4",
            0,
        ),
        (
            "r1bq1r2/pp1ppkbp/4N1p1/n3P1B1/8/2N5/PPP2PPP/R2QK2R w KQ -",
            "e6g7",
            0,
        ),
        (
            "r1bq1r2/pp1ppkbp/4N1pB/n3P3/8/2N5/PPP2PPP/R2QK2R w KQ -",
            "e6g7",
            300,
        ),
        (
            "rnq1k2r/1b3ppp/p2bpn2/1p1p4/3N4/1BN1P3/PPP2PPP/R1BQR1K1 b kq -",
            "d6h2",
            -200,
        ),
        (
            "rn2k2r/1bq2ppp/p2bpn2/1p1p4/3N4/1BN1P3/PPP2PPP/R1BQR1K1 b kq -",
            "d6h2",
            100,
        ),
        (
            "r2qkbn1/ppp1pp1p/3p1rp1/3Pn3/4P1b1/2N2N2/PPP2PPP/R1BQKB1R b KQq -",
            "g4f3",
            100,
        ),
        (
            "rnbq1rk1/pppp1ppp/4pn2/8/1bPP4/P1N5/1PQ1PPPP/R1B1KBNR b KQ -",
            "b4c3",
            0,
        ),
        (
            "r4rk1/3nppbp/bq1p1np1/2pP4/8/2N2NPP/PP2PPB1/R1BQR1K1 b - -",
            "b6b2",
            -800,
        ),
        (
            "r4rk1/1q1nppbp/b2p1np1/2pP4/8/2N2NPP/PP2PPB1/R1BQR1K1 b - -",
            "f6d5",
            -200,
        ),
        (
            "1r3r2/5p2/4p2p/2k1n1P1/2PN1nP1/1P3P2/8/2KR1B1R b - -",
            "b8b3",
            -400,
        ),
        (
            "1r3r2/5p2/4p2p/4n1P1/kPPN1nP1/5P2/8/2KR1B1R b - -",
            "b8b4",
            100,
        ),
        (
            "2r2rk1/5pp1/pp5p/q2p4/P3n3/1Q3NP1/1P2PP1P/2RR2K1 b - -",
            "c8c1",
            0,
        ),
        (
            "5rk1/5pp1/2r4p/5b2/2R5/6Q1/R1P1qPP1/5NK1 b - -",
            "f5c2",
            -100,
        ),
        (
            "1r3r1k/p4pp1/2p1p2p/qpQP3P/2P5/3R4/PP3PP1/1K1R4 b - -",
            "a5a2",
            -800,
        ),
        (
            "1r5k/p4pp1/2p1p2p/qpQP3P/2P2P2/1P1R4/P4rP1/1K1R4 b - -",
            "a5a2",
            100,
        ),
        (
            "r2q1rk1/1b2bppp/p2p1n2/1ppNp3/3nP3/P2P1N1P/BPP2PP1/R1BQR1K1 w - -",
            "d5e7",
            0,
        ),
        (
            "rnbqrbn1/pp3ppp/3p4/2p2k2/4p3/3B1K2/PPP2PPP/RNB1Q1NR w - -",
            "d3e4",
            100,
        ),
        (
            "rnb1k2r/p3p1pp/1p3p1b/7n/1N2N3/3P1PB1/PPP1P1PP/R2QKB1R w KQkq -",
            "e4d6",
            -200,
        ),
        (
            "r1b1k2r/p4npp/1pp2p1b/7n/1N2N3/3P1PB1/PPP1P1PP/R2QKB1R w KQkq -",
            "e4d6",
            0,
        ),
        (
            "2r1k2r/pb4pp/5p1b/2KB3n/4N3/2NP1PB1/PPP1P1PP/R2Q3R w k -",
            "d5c6",
            -300,
        ),
        (
            "2r1k2r/pb4pp/5p1b/2KB3n/1N2N3/3P1PB1/PPP1P1PP/R2Q3R w k -",
            "d5c6",
            0,
        ),
        (
            "2r1k3/pbr3pp/5p1b/2KB3n/1N2N3/3P1PB1/PPP1P1PP/R2Q3R w - -",
            "d5c6",
            -300,
        ),
        (
            "5k2/p2P2pp/8/1pb5/1Nn1P1n1/6Q1/PPP4P/R3K1NR w KQ -",
            "d7d8q",
            800,
        ),
        (
            "r4k2/p2P2pp/8/1pb5/1Nn1P1n1/6Q1/PPP4P/R3K1NR w KQ -",
            "d7d8q",
            -100,
        ),
        (
            "5k2/p2P2pp/1b6/1p6/1Nn1P1n1/8/PPP4P/R2QK1NR w KQ -",
            "d7d8q",
            200,
        ),
        (
            "4kbnr/p1P1pppp/b7/4q3/7n/8/PP1PPPPP/RNBQKBNR w KQk -",
            "c7c8q",
            -100,
        ),
        (
            "4kbnr/p1P1pppp/b7/4q3/7n/8/PPQPPPPP/RNB1KBNR w KQk -",
            "c7c8q",
            200,
        ),
        (
            "4kbnr/p1P4p/b1q5/5pP1/4n3/5Q2/PP1PPP1P/RNB1KBNR w KQk f6",
            "g5f6",
            0,
        ),
        (
            "4kbnr/p1P4p/b1q5/5pP1/4n2Q/8/PP1PPP1P/RNB1KBNR w KQk f6",
            "g5f6",
            0,
        ),
        (
            "1n2kb1r/p1P4p/2qb4/5pP1/4n2Q/8/PP1PPP1P/RNB1KBNR w KQk -",
            "c7b8q",
            200,
        ),
        (
            "rnbqk2r/pp3ppp/2p1pn2/3p4/3P4/N1P1BN2/PPB1PPPb/R2Q1RK1 w kq -",
            "g1h2",
            300,
        ),
        ("3N4/2K5/2n5/1k6/8/8/8/8 b - -", "c6d8", 0),
        ("3n3r/2P5/8/1k6/8/8/3Q4/4K3 w - -", "c7d8q", 700),
        ("r2n3r/2P1P3/4N3/1k6/8/8/8/4K3 w - -", "e6d8", 300),
        ("8/8/8/1k6/6b1/4N3/2p3K1/3n4 w - -", "e3d1", 0),
        ("8/8/1k6/8/8/2N1N3/4p1K1/3n4 w - -", "c3d1", 100),
        (
            "r1bqk1nr/pppp1ppp/2n5/1B2p3/1b2P3/5N2/PPPP1PPP/RNBQK2R w KQkq -",
            "e1h1",
            0,
        ),
    ];

    fn board_and_move(fen: &str, uci: &str) -> (Board, Move) {
        let board = parse_fen(fen, false).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let mv: Move = uci.parse().unwrap_or_else(|_| panic!("bad move {uci}"));
        assert!(board.is_legal(mv), "{uci} is illegal in {fen}");
        (board, mv)
    }

    /// The exact exchange value, found by bisection over the threshold.
    fn see_value_of(board: &Board, mv: Move) -> i32 {
        let (mut low, mut high) = (-2000, 2000);
        while high - low > 1 {
            let mid = (low + high) / 2;
            if see_ge(board, mv, mid) {
                low = mid;
            } else {
                high = mid;
            }
        }
        low
    }

    #[test]
    fn suite_signs() {
        for &(fen, uci, value) in SUITE {
            let (board, mv) = board_and_move(fen, uci);
            assert_eq!(
                see_ge(&board, mv, 0),
                value >= 0,
                "{fen} {uci}: SEE {value}"
            );
        }
    }

    #[test]
    fn suite_exact_values() {
        let mut failures = Vec::new();
        for &(fen, uci, value) in SUITE {
            let (board, mv) = board_and_move(fen, uci);
            let got = see_value_of(&board, mv);
            if got != value {
                failures.push(format!("{fen} {uci}: expected {value}, got {got}"));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn classic_swap_positions() {
        let (board, mv) = board_and_move("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - -", "e1e5");
        assert!(see_ge(&board, mv, 100));
        assert!(!see_ge(&board, mv, 101));
        let (board, mv) = board_and_move(
            "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - -",
            "d3e5",
        );
        assert!(!see_ge(&board, mv, 0));
        assert!(see_ge(&board, mv, -200));
    }

    #[test]
    fn quiet_moves() {
        // A knight stepping onto a pawn-guarded square loses it.
        let (board, mv) = board_and_move("4k3/8/3p4/8/8/8/8/1N2K3 w - -", "b1c3");
        assert!(see_ge(&board, mv, 0));
        let (board, mv) = board_and_move("4k3/8/3p4/8/8/8/8/2N1K3 w - -", "c1b3");
        assert!(see_ge(&board, mv, 0));
        let (board, mv) = board_and_move("4k3/8/3p4/8/8/5N2/8/4K3 w - -", "f3e5");
        assert!(!see_ge(&board, mv, 0));
        assert!(see_ge(&board, mv, -300));
        // Chess960 castling gains nothing and loses nothing.
        let board =
            parse_fen("4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1", true).unwrap_or_else(|e| panic!("{e}"));
        for uci in ["e1b1", "e1g1"] {
            let mv: Move = uci.parse().unwrap_or_else(|_| panic!("bad move"));
            assert!(board.is_legal(mv));
            assert!(see_ge(&board, mv, 0));
            assert!(!see_ge(&board, mv, 1));
        }
    }

    #[test]
    fn en_passant_uncovers_the_rook() {
        // After gxf6 e.p. the f-file opens: Rxf6 would lose the rook to Rf1xf6, so
        // black does not recapture and white wins the pawn.
        let (board, mv) = board_and_move("5r1k/8/8/5pP1/8/8/8/5RK1 w - f6", "g5f6");
        assert!(see_ge(&board, mv, 100));
        assert!(!see_ge(&board, mv, 101));
        // Without the white rook the pawn is simply lost back.
        let (board, mv) = board_and_move("5r1k/8/8/5pP1/8/8/8/6K1 w - f6", "g5f6");
        assert!(see_ge(&board, mv, 0));
        assert!(!see_ge(&board, mv, 1));
    }

    #[test]
    fn king_cannot_recapture_a_defended_piece() {
        let (board, mv) = board_and_move("4r1k1/8/8/8/8/8/4p3/4QK2 w - -", "e1e2");
        // QxP, RxQ, KxR: +100 - 900 + 500 = -300.
        assert!(see_ge(&board, mv, -300));
        assert!(!see_ge(&board, mv, -299));
        let (board, mv) = board_and_move("4r1k1/8/8/1b6/8/8/4p3/4QK2 w - -", "e1e2");
        // The bishop recaptures first and the rook still guards e2, so the king may
        // not take back: +100 - 900 = -800.
        assert!(see_ge(&board, mv, -800));
        assert!(!see_ge(&board, mv, -799));
    }
}
