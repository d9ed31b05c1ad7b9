//! Piece activity: mobility, king-zone attacks, outposts, rook files, the bishop pair.
//! Also builds each side's attack maps for the king-safety and threat terms.

use cozy_chess::{get_bishop_moves, get_knight_moves, get_rook_moves, BitBoard, Color};

use super::acc::Acc;
use super::bits::{
    attack_span, file_fill, king_zone, relative_rank_mask, square, squares, DARK_SQUARES,
};
use super::params::idx;
use super::snapshot::{Attacks, Snapshot, BISHOP, KNIGHT, PAWN, QUEEN, ROOK};
use super::trace::Tracer;

/// Evaluates `us`'s knights, bishops, rooks and queens and returns `us`'s attack maps.
#[inline(always)]
pub fn evaluate<T: Tracer>(acc: &mut Acc<T>, pos: &Snapshot, us: Color) -> Attacks {
    let mut attacks = Attacks::new(pos, us);
    let occ = pos.occupied;
    let knight = |sq: usize| get_knight_moves(square(sq)).0;
    let bishop = |sq: usize| get_bishop_moves(square(sq), BitBoard(occ)).0;
    let rook = |sq: usize| get_rook_moves(square(sq), BitBoard(occ)).0;
    let queen = |sq: usize| bishop(sq) | rook(sq);
    piece_kind(acc, pos, us, &mut attacks, KNIGHT, idx::MOBILITY_KNIGHT, knight);
    piece_kind(acc, pos, us, &mut attacks, BISHOP, idx::MOBILITY_BISHOP, bishop);
    piece_kind(acc, pos, us, &mut attacks, ROOK, idx::MOBILITY_ROOK, rook);
    piece_kind(acc, pos, us, &mut attacks, QUEEN, idx::MOBILITY_QUEEN, queen);
    attacks.all |= attacks.by[KNIGHT] | attacks.by[BISHOP] | attacks.by[ROOK] | attacks.by[QUEEN];
    placement(acc, pos, us);
    attacks
}

/// Mobility and king-zone attacks of every `us` piece in `slot`, whose attacks are `moves`.
#[inline(always)]
fn piece_kind<T: Tracer>(
    acc: &mut Acc<T>,
    pos: &Snapshot,
    us: Color,
    attacks: &mut Attacks,
    slot: usize,
    mobility: usize,
    moves: impl Fn(usize) -> u64,
) {
    let them = !us;
    let area = !pos.colors[us as usize] & !pos.pawn_attacks[them as usize];
    let zone = king_zone(them, pos.king[them as usize]);
    for sq in squares(pos.of(us, slot)) {
        let reach = moves(sq);
        attacks.by[slot] |= reach;
        acc.add(mobility + (reach & area).count_ones() as usize, us, 1);
        let hits = reach & zone;
        if hits != 0 {
            attacks.king_attackers += 1;
            acc.add_danger(idx::DANGER_ATTACKER + slot - KNIGHT, them, 1);
            acc.add_danger(idx::DANGER_ZONE_ATTACK, them, hits.count_ones() as i32);
        }
    }
}

/// Outposts, rooks on open files and the seventh rank, and the bishop pair.
#[inline(always)]
fn placement<T: Tracer>(acc: &mut Acc<T>, pos: &Snapshot, us: Color) {
    let them = !us;
    let own_pawns = pos.of(us, PAWN);
    let enemy_pawns = pos.of(them, PAWN);

    let outposts = (relative_rank_mask(us, 3) | relative_rank_mask(us, 4) | relative_rank_mask(us, 5))
        & pos.pawn_attacks[us as usize]
        & !attack_span(them, enemy_pawns);
    acc.add_set(idx::PIECE_KNIGHT_OUTPOST, us, pos.of(us, KNIGHT) & outposts);
    acc.add_set(idx::PIECE_BISHOP_OUTPOST, us, pos.of(us, BISHOP) & outposts);

    let rooks = pos.of(us, ROOK);
    let own_files = file_fill(own_pawns);
    let enemy_files = file_fill(enemy_pawns);
    acc.add_set(idx::PIECE_ROOK_OPEN_FILE, us, rooks & !own_files & !enemy_files);
    acc.add_set(idx::PIECE_ROOK_SEMI_OPEN_FILE, us, rooks & !own_files & enemy_files);
    let seventh = relative_rank_mask(us, 6);
    let king_trapped = relative_rank_mask(us, 7) & (1 << pos.king[them as usize]) != 0;
    if king_trapped || enemy_pawns & seventh != 0 {
        acc.add_set(idx::PIECE_ROOK_SEVENTH, us, rooks & seventh);
    }

    let bishops = pos.of(us, BISHOP);
    if bishops & DARK_SQUARES != 0 && bishops & !DARK_SQUARES != 0 {
        acc.add(idx::PIECE_BISHOP_PAIR, us, 1);
    }
}
