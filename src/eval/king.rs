//! King safety: the pawn shelter (linear) and the king danger (non-linear in its units).

use cozy_chess::{get_bishop_moves, get_knight_moves, get_rook_moves, BitBoard, Color};

use super::acc::Acc;
use super::bits::{file_mask, king_zone, nearest, ranks_from, square};
use super::params::{idx, DANGER_EG_DIVISOR, DANGER_MG_DIVISOR};
use super::score::S;
use super::snapshot::{Attacks, Snapshot, BISHOP, KNIGHT, PAWN, QUEEN, ROOK};
use super::trace::Tracer;

/// Evaluates the safety of `us`'s king. Returns whether its danger sum applies: enough
/// attackers (two, or one with a queen on the board) reached the zone. The rest of the
/// danger units are only counted then, as they would not change the score otherwise.
#[inline(always)]
pub fn evaluate<T: Tracer>(
    acc: &mut Acc<T>,
    pos: &Snapshot,
    us: Color,
    attacks: &[Attacks; 2],
) -> bool {
    shelter(acc, pos, us);
    let enemy_queens = pos.of(!us, QUEEN);
    let queens = if enemy_queens == 0 {
        0
    } else {
        enemy_queens.count_ones() as i32
    };
    let applies = attacks[!us as usize].king_attackers > 1 - queens;
    if applies {
        danger(acc, pos, us, attacks, queens);
    }
    applies
}

/// The penalty (negative) for `units` of king danger.
#[inline(always)]
pub fn danger_penalty(units: S) -> S {
    let mg = units.mg().max(0);
    let eg = units.eg().max(0);
    S(-(mg * mg) / DANGER_MG_DIVISOR, -eg / DANGER_EG_DIVISOR)
}

/// Shield pawns, storming pawns and open files on the king's file and its two neighbours.
#[inline(always)]
fn shelter<T: Tracer>(acc: &mut Acc<T>, pos: &Snapshot, us: Color) {
    let king = pos.king[us as usize];
    let ahead = ranks_from(us, king);
    let ours = pos.of(us, PAWN);
    let theirs = pos.of(!us, PAWN);
    let rank_gap = |sq: usize| (sq / 8).abs_diff(king / 8);
    let center = (king % 8).clamp(1, 6);
    for file in center - 1..=center + 1 {
        let mask = file_mask(file);
        let own = ours & mask;
        let enemy = theirs & mask;
        let shield = own & ahead;
        if shield != 0 {
            let gap = rank_gap(nearest(us, shield)).min(3);
            acc.add(idx::SHELTER_PAWN + gap, us, 1);
        } else if own == 0 {
            let open = if enemy == 0 {
                idx::SHELTER_OPEN_FILE
            } else {
                idx::SHELTER_SEMI_OPEN_FILE
            };
            acc.add(open, us, 1);
        }
        let storm = enemy & ahead;
        if storm != 0 {
            let gap = rank_gap(nearest(us, storm)).clamp(1, 5) - 1;
            acc.add(idx::SHELTER_STORM + gap, us, 1);
        }
    }
}

/// Adds the remaining danger units against `us`'s king, attacked by `queens` enemy queens.
#[inline(always)]
fn danger<T: Tracer>(
    acc: &mut Acc<T>,
    pos: &Snapshot,
    us: Color,
    attacks: &[Attacks; 2],
    queens: i32,
) {
    let them = !us;
    let ours = &attacks[us as usize];
    let theirs = &attacks[them as usize];
    let king = pos.king[us as usize];
    let count = |set: u64| set.count_ones() as i32;

    // Attacked zone squares that only the king or the queen defends.
    let minor_defence = ours.by[PAWN] | ours.by[KNIGHT] | ours.by[BISHOP] | ours.by[ROOK];
    let weak = king_zone(us, king) & theirs.all & !minor_defence;
    acc.add_danger(idx::DANGER_WEAK_SQUARE, us, count(weak));

    let safe = !ours.all & !pos.colors[them as usize];
    let occ = BitBoard(pos.occupied);
    let knight_lines = get_knight_moves(square(king)).0;
    let bishop_lines = get_bishop_moves(square(king), occ).0;
    let rook_lines = get_rook_moves(square(king), occ).0;
    let checks = [
        knight_lines & theirs.by[KNIGHT],
        bishop_lines & theirs.by[BISHOP],
        rook_lines & theirs.by[ROOK],
        (bishop_lines | rook_lines) & theirs.by[QUEEN],
    ];
    for (n, squares) in checks.into_iter().enumerate() {
        acc.add_danger(idx::DANGER_SAFE_CHECK + n, us, count(squares & safe));
    }

    if queens == 0 {
        acc.add_danger(idx::DANGER_NO_QUEEN, us, 1);
    }
    acc.add_danger(idx::DANGER_OFFSET, us, 1);
}
