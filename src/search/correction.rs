//! Correction history: how far the static evaluation has been from what the search found
//! in positions with the same pawns, used to correct the evaluation of the next such
//! position. An evaluation blind to something a pawn structure brings (a passer the
//! search sees run, a fortress) keeps erring the same way in every position of that
//! structure; the search's verdicts teach the table that error.
//!
//! Each entry is a running average of `search score - static eval`, in 1/`GRAIN`
//! centipawns, weighted by the depth of the search that found it.

use cozy_chess::{Board, Color, Piece};

use super::params;

/// Entries per side to move (a power of two).
const SIZE: usize = 16_384;
/// Entries hold corrections in 1/GRAIN centipawns.
const GRAIN: i32 = 256;
/// A new verdict's weight is `min(depth + 1, params::corr_max_weight())` out of
/// `WEIGHT_SCALE`.
const WEIGHT_SCALE: i32 = 256;
/// The largest correction, in 1/GRAIN centipawns (`params::corr_max()` cp;
/// 64 cp measured 179-195-153, about -11 Elo, after 527 of 1,000 games at 10,000 nodes per
/// move).
#[inline(always)]
fn max_correction() -> i32 {
    params::corr_max() * GRAIN
}

/// The correction table of one search thread, indexed `[side to move][pawn key]`.
///
/// (Tables by each side's pieces other than pawns, as Stockfish has, were tried on top:
/// -0.7 ± 18.5 Elo, 1,000 games at 10,000 nodes per move. A table by the piece and
/// destination of the move that led to the position, updated and read beside the pawn
/// table: +5.9 ± 17.4 Elo, 1,000 games at 10,000 nodes per move, seed 93. Left out.)
pub struct CorrectionHistory {
    pawn: Box<[[i16; SIZE]; Color::NUM]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        Self::new()
    }
}

impl CorrectionHistory {
    /// An empty table: no correction.
    pub fn new() -> CorrectionHistory {
        CorrectionHistory {
            pawn: Box::new([[0; SIZE]; Color::NUM]),
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.pawn.fill([0; SIZE]);
    }

    /// `raw_eval` (the side to move's view of `board`) corrected by the table.
    #[inline]
    pub fn correct(&self, board: &Board, raw_eval: i32) -> i32 {
        let entry = self.pawn[board.side_to_move() as usize][pawn_index(board)];
        raw_eval + i32::from(entry) / GRAIN
    }

    /// Records that a search of `depth` found `board` worth `error` centipawns more
    /// than its raw static evaluation said: moves the entry towards the error by
    /// `min(depth + 1, params::corr_max_weight())` / `WEIGHT_SCALE` of the way. (The
    /// error against the corrected evaluation would be the part the entry does not
    /// already hold, and the entry would settle at half the error.)
    pub fn update(&mut self, board: &Board, depth: i32, error: i32) {
        let entry = &mut self.pawn[board.side_to_move() as usize][pawn_index(board)];
        let weight = (depth + 1).min(params::corr_max_weight());
        let max = max_correction();
        let target = (error * GRAIN).clamp(-max, max);
        let blended =
            (i32::from(*entry) * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
        *entry = blended.clamp(-max, max) as i16;
    }
}

/// The table index of `board`'s pawn structure: a hash of both sides' pawn bitboards.
#[inline]
fn pawn_index(board: &Board) -> usize {
    let pawns = board.pieces(Piece::Pawn);
    let white = (pawns & board.colors(Color::White)).0;
    let black = (pawns & board.colors(Color::Black)).0;
    let mut h = white.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(31);
    h ^= h >> 29;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    (h >> (64 - SIZE.trailing_zeros())) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen, false).expect("valid FEN")
    }

    #[test]
    fn verdicts_pull_the_evaluation_their_way_and_stay_bounded() {
        let mut table = CorrectionHistory::new();
        let start = Board::default();
        assert_eq!(table.correct(&start, 17), 17);
        for _ in 0..200 {
            table.update(&start, 10, 50);
        }
        // Converges to the error, capped at `corr_max` (within the rounding).
        let cap = params::corr_max();
        assert!(cap < 50);
        assert!((17 + cap - 1..=17 + cap).contains(&table.correct(&start, 17)));
        for _ in 0..400 {
            table.update(&start, 10, -12);
        }
        let corrected = table.correct(&start, 0);
        assert!((-12..=-11).contains(&corrected), "{corrected}");
        table.clear();
        assert_eq!(table.correct(&start, 5), 5);
    }

    #[test]
    fn the_same_pawns_share_an_entry_and_the_side_to_move_does_not() {
        let mut table = CorrectionHistory::new();
        let a = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        // The same pawns, both sides' pieces moved.
        let b = board("r1bqkbnr/pppppppp/2n5/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2");
        // Black to move with the same pawns.
        let c = board("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
        // Other pawns.
        let d = board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        for _ in 0..100 {
            table.update(&a, 8, 20);
        }
        assert_eq!(table.correct(&b, 0), table.correct(&a, 0));
        assert!((19..=20).contains(&table.correct(&a, 0)));
        assert_eq!(table.correct(&c, 0), 0);
        assert_ne!(pawn_index(&a), pawn_index(&d));
        assert_eq!(table.correct(&d, 0), 0);
    }
}
