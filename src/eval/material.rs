//! Material and piece-square tables.

use cozy_chess::Color;

use super::acc::Acc;
use super::bits::squares;
use super::params::idx;
use super::snapshot::Snapshot;
use super::trace::Tracer;

/// First index of each slot's piece-square table.
const PST: [usize; 6] = [
    idx::PST_PAWN,
    idx::PST_KNIGHT,
    idx::PST_BISHOP,
    idx::PST_ROOK,
    idx::PST_QUEEN,
    idx::PST_KING,
];

/// Adds `color`'s material values and piece-square entries.
#[inline(always)]
pub fn evaluate<T: Tracer>(acc: &mut Acc<T>, pos: &Snapshot, color: Color) {
    // The tables are written from White's side, rank 8 first.
    let flip = if color == Color::White { 56 } else { 0 };
    for (slot, &table) in PST.iter().enumerate() {
        // Material per piece inside the loop: cheaper than a popcount per piece kind.
        for sq in squares(pos.of(color, slot)) {
            acc.add(idx::MATERIAL + slot, color, 1);
            acc.add(table + (sq ^ flip), color, 1);
        }
    }
}
