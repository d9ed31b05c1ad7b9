//! Pawn structure (isolated, doubled, backward, supported, phalanx) and passed pawns.

use cozy_chess::Color;

use super::acc::Acc;
use super::bits::{
    attack_span, distance, file_fill, forward, front_span, neighbours, relative_rank, squares,
};
use super::params::idx;
use super::snapshot::{Snapshot, PAWN};
use super::trace::Tracer;

/// Evaluates `us`'s pawns.
#[inline(always)]
pub fn evaluate<T: Tracer>(acc: &mut Acc<T>, pos: &Snapshot, us: Color) {
    let them = !us;
    let ours = pos.of(us, PAWN);
    let theirs = pos.of(them, PAWN);

    let isolated = ours & !neighbours(file_fill(ours));
    acc.add_set(idx::PAWN_ISOLATED, us, isolated);

    // A pawn with an own pawn in front of it on its file.
    let behind_own = front_span(them, ours);
    acc.add_set(idx::PAWN_DOUBLED, us, ours & behind_own);

    // Stop square attacked by an enemy pawn, and no own pawn beside or behind on an
    // adjacent file that could ever defend it.
    let stops = forward(us, ours) & !attack_span(us, ours) & pos.pawn_attacks[them as usize];
    let backward = forward(them, stops) & ours & !isolated;
    acc.add_set(idx::PAWN_BACKWARD, us, backward);

    for sq in squares(ours & pos.pawn_attacks[us as usize]) {
        acc.add(idx::PAWN_SUPPORTED + relative_rank(us, sq), us, 1);
    }
    for sq in squares(ours & neighbours(ours)) {
        acc.add(idx::PAWN_PHALANX + relative_rank(us, sq), us, 1);
    }

    let blocked = front_span(them, theirs) | attack_span(them, theirs) | behind_own;
    for sq in squares(ours & !blocked) {
        passed(acc, pos, us, sq);
    }
}

/// Scores `us`'s passed pawn on `sq`.
#[inline(always)]
fn passed<T: Tracer>(acc: &mut Acc<T>, pos: &Snapshot, us: Color, sq: usize) {
    let rank = relative_rank(us, sq);
    acc.add(idx::PASSED_RANK + rank, us, 1);
    if front_span(us, 1 << sq) & pos.occupied == 0 {
        acc.add(idx::PASSED_FREE_PATH + rank, us, 1);
    }
    let promotion = match us {
        Color::White => 56 + sq % 8,
        Color::Black => sq % 8,
    };
    let own_king = distance(pos.king[us as usize], promotion);
    let enemy_king = distance(pos.king[!us as usize], promotion);
    acc.add(idx::PASSED_OWN_KING_DISTANCE + rank, us, own_king);
    acc.add(idx::PASSED_ENEMY_KING_DISTANCE + rank, us, enemy_king);
}
