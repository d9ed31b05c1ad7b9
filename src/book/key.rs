//! The Polyglot key of a position: the XOR of the Random64 values of its pieces, castling
//! rights, en-passant file and side to move, as the book format specification defines it.

use cozy_chess::{Board, Color, Piece, Rank};

use super::random::RANDOM64;

/// Where the castling keys start: white short, white long, black short, black long.
const CASTLING_OFFSET: usize = 768;
/// Where the en-passant keys (one per file, a to h) start.
const EN_PASSANT_OFFSET: usize = 772;
/// The key XORed in when White is to move.
const TURN_OFFSET: usize = 780;

/// The Polyglot key of `board`, the key its entries have in a `.bin` book.
pub fn polyglot_key(board: &Board) -> u64 {
    let mut key = 0;
    for color in [Color::White, Color::Black] {
        for piece in Piece::ALL {
            for square in board.colored_pieces(color, piece) {
                key ^= RANDOM64[64 * piece_kind(piece, color) + square as usize];
            }
        }
    }
    key ^= castling_key(board);
    key ^= en_passant_key(board);
    if board.side_to_move() == Color::White {
        key ^= RANDOM64[TURN_OFFSET];
    }
    key
}

/// Polyglot's piece numbering: black pawn 0, white pawn 1, black knight 2, ... white king 11.
fn piece_kind(piece: Piece, color: Color) -> usize {
    let kind = match piece {
        Piece::Pawn => 0,
        Piece::Knight => 1,
        Piece::Bishop => 2,
        Piece::Rook => 3,
        Piece::Queen => 4,
        Piece::King => 5,
    };
    2 * kind + usize::from(color == Color::White)
}

fn castling_key(board: &Board) -> u64 {
    let mut key = 0;
    for (index, color) in [Color::White, Color::Black].into_iter().enumerate() {
        let rights = board.castle_rights(color);
        if rights.short.is_some() {
            key ^= RANDOM64[CASTLING_OFFSET + 2 * index];
        }
        if rights.long.is_some() {
            key ^= RANDOM64[CASTLING_OFFSET + 2 * index + 1];
        }
    }
    key
}

/// The en-passant file counts only if a pawn of the side to move stands next to the pawn
/// that has just advanced two squares (whether the capture would be legal is irrelevant,
/// as in the specification). The board remembers every double push, so this is checked.
fn en_passant_key(board: &Board) -> u64 {
    let Some(file) = board.en_passant() else {
        return 0;
    };
    let us = board.side_to_move();
    let capturers = board.colored_pieces(us, Piece::Pawn)
        & file.adjacent()
        & Rank::Fifth.relative_to(us).bitboard();
    if capturers.is_empty() {
        0
    } else {
        RANDOM64[EN_PASSANT_OFFSET + file as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays `moves` (in cozy-chess notation) from the starting position.
    fn after(moves: &str) -> Board {
        let mut board = Board::default();
        for mv in moves.split_whitespace() {
            board.play(mv.parse().unwrap());
        }
        board
    }

    #[test]
    fn the_published_test_keys_match() {
        // From the Polyglot book format specification.
        let cases = [
            ("", 0x463b96181691fc9c),
            ("e2e4", 0x823c9b50fd114196),
            ("e2e4 d7d5", 0x0756b94461c50fb0),
            ("e2e4 d7d5 e4e5", 0x662fafb965db29d4),
            ("e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78),
            ("e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1),
            ("e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9),
            ("a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637),
            ("a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560),
        ];
        for (moves, key) in cases {
            assert_eq!(polyglot_key(&after(moves)), key, "after '{moves}'");
        }
    }

    #[test]
    fn keys_of_assorted_positions_match_python_chess() {
        // Keys computed with python-chess 1.11 (`chess.polyglot.zobrist_hash`): random
        // games with en-passant files that count and ones that do not, partial castling
        // rights, and an en-passant capture that is pseudo-legal but illegal (it counts).
        let cases = [
            (
                "1r3bnr/1b3k1p/p3p3/npPp2pP/PP2p1P1/3Q3N/2P1NK1R/R1B2B2 w - d6 0 18",
                0xcce091654fb3a8ca,
            ),
            (
                "r1b2qnr/3k4/1p1b3p/p1pPppp1/PP2NPPP/8/3PNK2/1RBQ1B1R w - c6 0 15",
                0x888a7708f89f94e5,
            ),
            (
                "1nb1kbnr/2p5/rp2p2p/p1Pp1pp1/1P3PP1/4P2K/P2P3P/RNBQ1BNR w k d6 0 12",
                0x842eb865ae699b3f,
            ),
            (
                "rnbqk2r/4bp2/p4n2/QpPpN1pp/PPP1P3/8/5PPP/RNB1KB1R w KQkq d6 0 11",
                0x257ddfda73caf6e8,
            ),
            (
                "3rk1nr/p4p2/7b/qpNP1bPp/2PPpp2/1N5P/R3K3/2BQ1B1R b k d3 0 20",
                0x5b731fea23491f85,
            ),
            (
                "rnbqkbnr/ppp1p1p1/3p4/5p1p/3P1P1P/8/PPP1PKP1/RNBQ1BNR b kq - 0 4",
                0x2a1df41b29d6bd48,
            ),
            (
                "rn1qkbn1/7r/1p2b3/p1PpppPP/P7/2PPP3/2Q3BP/RNB1K1NR w KQq - 0 13",
                0x40c0b915affc8ae2,
            ),
            (
                "r2q3r/pbp1k1b1/n1P4n/1p3P2/1P1P1pPp/B2B4/P3pN1R/RN1QK3 b Q - 1 19",
                0x24d36940f7edf124,
            ),
            (
                "rn2k3/1b1q1pbr/1p3n1p/pp4pP/P2pPpP1/2PP1Q2/2NN1K2/R1B2B1R b q - 0 16",
                0x87f873a737c61527,
            ),
            (
                "4kbQ1/r5pr/b4p2/ppp4p/Pn2P2P/B1qP2P1/3RB2R/1N2K1N1 b - - 7 28",
                0xfd0d8abd8d3d209b,
            ),
            (
                "rnbqkbnr/1p2p1pp/3p1p2/p1p5/5P2/NP4P1/P1PPP2P/R1BQKBNR w KQkq - 0 5",
                0x890f1414ac400471,
            ),
            ("8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1", 0xecba303cd610b817),
            ("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1", 0xa9b9ef726b8f1263),
            ("r3k2r/8/8/8/8/8/8/R3K2R b Qk - 0 1", 0x2a55e47313293883),
        ];
        for (fen, key) in cases {
            let board = Board::from_fen(fen, false).unwrap();
            assert_eq!(polyglot_key(&board), key, "{fen}");
        }
    }
}
