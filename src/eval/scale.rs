//! Game phase, the middlegame/endgame blend, and endgame scaling of drawish material.

use cozy_chess::Color;

use super::bits::DARK_SQUARES;
use super::params::{SCALE_OCB_PURE, SCALE_OCB_WITH_PIECES, SCALE_PAWNLESS_SMALL_EDGE};
use super::score::S;
use super::snapshot::{Snapshot, BISHOP, KNIGHT, PAWN, QUEEN, ROOK};

/// The phase when every piece is on the board.
pub const MAX_PHASE: i32 = 24;
/// The scale factor that leaves a score unchanged.
pub const NORMAL_SCALE: i32 = 128;

/// Game phase from non-pawn material (N = B = 1, R = 2, Q = 4), at most 24.
#[inline(always)]
pub fn phase(pos: &Snapshot) -> i32 {
    let all = |slot: usize| pos.pieces[0][slot] | pos.pieces[1][slot];
    let count = |set: u64| if set == 0 { 0 } else { set.count_ones() as i32 };
    let phase = count(all(KNIGHT) | all(BISHOP)) + 2 * count(all(ROOK)) + 4 * count(all(QUEEN));
    phase.min(MAX_PHASE)
}

/// `24 ×` the phase-weighted blend of a score pair (divided later, with the scale).
#[inline(always)]
pub fn taper(score: S, phase: i32) -> i32 {
    score.mg() * phase + score.eg() * (MAX_PHASE - phase)
}

/// The final centipawns from a [`taper`]ed value and a scale factor out of 128. Integer
/// division truncates towards zero, so negating the input negates the output exactly.
#[inline(always)]
pub fn apply_scale(tapered: i32, scale: i32) -> i32 {
    tapered * scale / (MAX_PHASE * NORMAL_SCALE)
}

/// Material in rough pawn units (N = B = 3, R = 5, Q = 9) of `color`'s non-pawn pieces.
fn piece_points(pos: &Snapshot, color: Color) -> u32 {
    let n = |slot: usize| pos.of(color, slot).count_ones();
    3 * (n(KNIGHT) + n(BISHOP)) + 5 * n(ROOK) + 9 * n(QUEEN)
}

/// The scale factor (out of 128) for a position whose [`taper`]ed score is `tapered`.
#[inline(always)]
pub fn factor(pos: &Snapshot, tapered: i32) -> i32 {
    if tapered == 0 {
        return NORMAL_SCALE;
    }
    let strong = if tapered > 0 {
        Color::White
    } else {
        Color::Black
    };
    if pos.of(strong, PAWN) == 0 {
        if let Some(scale) = pawnless(pos, strong) {
            return scale;
        }
    }
    opposite_bishops(pos)
}

/// The scale when the stronger side has no pawns, if its edge is too small to win.
#[cold]
fn pawnless(pos: &Snapshot, strong: Color) -> Option<i32> {
    let weak = !strong;
    let strong_points = piece_points(pos, strong);
    let weak_points = piece_points(pos, weak);
    let only_knights = pos.of(strong, KNIGHT).count_ones() == 2 && strong_points == 6;
    if strong_points <= 3 || (only_knights && pos.of(weak, PAWN) == 0) {
        // A lone minor piece (or less), or two knights against a bare king: no mate.
        Some(0)
    } else if strong_points <= weak_points + 3 {
        Some(SCALE_PAWNLESS_SMALL_EDGE)
    } else {
        None
    }
}

/// The scale for opposite-coloured bishops (one each), else normal.
#[inline(always)]
fn opposite_bishops(pos: &Snapshot) -> i32 {
    let white = pos.pieces[0][BISHOP];
    let black = pos.pieces[1][BISHOP];
    let one_each = white.count_ones() == 1 && black.count_ones() == 1;
    if !one_each || ((white | black) & DARK_SQUARES).count_ones() != 1 {
        return NORMAL_SCALE;
    }
    let others = |c: usize| pos.pieces[c][KNIGHT] | pos.pieces[c][ROOK] | pos.pieces[c][QUEEN];
    if others(0) | others(1) == 0 {
        SCALE_OCB_PURE
    } else {
        SCALE_OCB_WITH_PIECES
    }
}
