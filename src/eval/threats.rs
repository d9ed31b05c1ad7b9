//! Threats: enemy pieces attacked by pawns, by lesser pieces, and hanging pieces.

use cozy_chess::Color;

use super::acc::Acc;
use super::bits::squares;
use super::params::idx;
use super::snapshot::{Attacks, Snapshot, BISHOP, KNIGHT, PAWN, QUEEN, ROOK};
use super::trace::Tracer;

/// The slot of the piece on `sq` among `pieces` (pawn when none).
#[inline(always)]
fn slot_on(pieces: &[u64; 6], sq: usize) -> usize {
    (KNIGHT..=QUEEN).fold(0, |acc, s| acc | (s * ((pieces[s] >> sq) & 1) as usize))
}

/// Evaluates `us`'s threats against the enemy pieces.
#[inline(always)]
pub fn evaluate<T: Tracer>(acc: &mut Acc<T>, pos: &Snapshot, us: Color, attacks: &[Attacks; 2]) {
    let them = !us;
    let ours = &attacks[us as usize];
    let undefended = !attacks[them as usize].all;
    let victims = &pos.pieces[them as usize];
    let pawns = victims[PAWN];
    let pieces = victims[KNIGHT] | victims[BISHOP] | victims[ROOK] | victims[QUEEN];
    let heavy = victims[ROOK] | victims[QUEEN];

    // Each loop visits only the victims actually hit: usually none.
    for sq in squares(ours.by[PAWN] & pieces) {
        acc.add(idx::THREAT_BY_PAWN + slot_on(victims, sq) - KNIGHT, us, 1);
    }
    // Minors always threaten rooks and queens; pawns and minors only when undefended.
    let minors = ours.by[KNIGHT] | ours.by[BISHOP];
    for sq in squares(minors & (heavy | ((pawns | pieces) & undefended))) {
        acc.add(idx::THREAT_BY_MINOR + slot_on(victims, sq), us, 1);
    }
    // Rooks always threaten queens; anything else only when undefended.
    for sq in squares(ours.by[ROOK] & (victims[QUEEN] | ((pawns | pieces) & undefended))) {
        acc.add(idx::THREAT_BY_ROOK + slot_on(victims, sq), us, 1);
    }
    acc.add_set(idx::THREAT_HANGING, us, pieces & ours.all & undefended);
}
