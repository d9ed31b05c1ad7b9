//! The board as plain bitboards, and the per-side attack maps the terms share.

use cozy_chess::{get_king_moves, Board, Color, Piece};

use super::bits::{pawn_attacks, square};

/// Piece slots used for every `[_; 6]` array: pawn, knight, bishop, rook, queen, king.
pub const PAWN: usize = 0;
/// Knight slot.
pub const KNIGHT: usize = 1;
/// Bishop slot.
pub const BISHOP: usize = 2;
/// Rook slot.
pub const ROOK: usize = 3;
/// Queen slot.
pub const QUEEN: usize = 4;
/// King slot.
pub const KING: usize = 5;

/// The position's sets as raw `u64`s, indexed `[color as usize][slot]`.
pub struct Snapshot {
    /// Every occupied square.
    pub occupied: u64,
    /// Each side's pieces.
    pub colors: [u64; 2],
    /// Each side's pieces by slot.
    pub pieces: [[u64; 6]; 2],
    /// Each side's king square index.
    pub king: [usize; 2],
    /// Squares each side's pawns attack.
    pub pawn_attacks: [u64; 2],
    /// The side to move.
    pub side_to_move: Color,
}

impl Snapshot {
    /// Reads `board`.
    #[inline(always)]
    pub fn new(board: &Board) -> Self {
        let side = |color: Color| {
            let own = board.colors(color).0;
            Piece::ALL.map(|piece| board.pieces(piece).0 & own)
        };
        let pieces = [side(Color::White), side(Color::Black)];
        Snapshot {
            occupied: board.occupied().0,
            colors: [board.colors(Color::White).0, board.colors(Color::Black).0],
            king: [
                board.king(Color::White) as usize,
                board.king(Color::Black) as usize,
            ],
            pawn_attacks: [
                pawn_attacks(Color::White, pieces[0][PAWN]),
                pawn_attacks(Color::Black, pieces[1][PAWN]),
            ],
            pieces,
            side_to_move: board.side_to_move(),
        }
    }

    /// `color`'s pieces in `slot`.
    #[inline(always)]
    pub fn of(&self, color: Color, slot: usize) -> u64 {
        self.pieces[color as usize][slot]
    }
}

/// What one side attacks.
#[derive(Clone, Copy, Default)]
pub struct Attacks {
    /// Squares attacked, by attacker slot.
    pub by: [u64; 6],
    /// Squares attacked by anything.
    pub all: u64,
    /// Number of knights, bishops, rooks and queens attacking the enemy king zone.
    pub king_attackers: i32,
}

impl Attacks {
    /// The pawn and king attacks of `color`; pieces are added by the mobility pass.
    #[inline(always)]
    pub fn new(pos: &Snapshot, color: Color) -> Self {
        let mut by = [0; 6];
        by[PAWN] = pos.pawn_attacks[color as usize];
        by[KING] = get_king_moves(square(pos.king[color as usize])).0;
        Attacks {
            by,
            all: by[PAWN] | by[KING],
            king_attackers: 0,
        }
    }
}
