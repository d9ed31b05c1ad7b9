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
    let occ = BitBoard(pos.occupied);
    let knight = |sq: usize| get_knight_moves(square(sq)).0;
    let bishop = |sq: usize| get_bishop_moves(square(sq), occ).0;
    let rook = |sq: usize| get_rook_moves(square(sq), occ).0;
    let queen = |sq: usize| bishop(sq) | rook(sq);
    let mut side = Activity {
        acc,
        pos,
        us,
        area: !pos.colors[us as usize] & !pos.pawn_attacks[!us as usize],
        zone: king_zone(!us, pos.king[!us as usize]),
        attacks: Attacks::new(pos, us),
    };
    side.kind(KNIGHT, idx::MOBILITY_KNIGHT, knight);
    side.kind(BISHOP, idx::MOBILITY_BISHOP, bishop);
    side.kind(ROOK, idx::MOBILITY_ROOK, rook);
    side.kind(QUEEN, idx::MOBILITY_QUEEN, queen);
    let mut attacks = side.attacks;
    attacks.all |= attacks.by[KNIGHT] | attacks.by[BISHOP] | attacks.by[ROOK] | attacks.by[QUEEN];
    placement(acc, pos, us);
    attacks
}

/// One side's pass over its pieces.
struct Activity<'s, 'a, T: Tracer> {
    acc: &'s mut Acc<'a, T>,
    pos: &'s Snapshot,
    us: Color,
    /// Mobility area: squares not holding own pieces, not attacked by enemy pawns.
    area: u64,
    /// The enemy king zone.
    zone: u64,
    attacks: Attacks,
}

impl<T: Tracer> Activity<'_, '_, T> {
    /// Mobility and king-zone attacks of every piece in `slot`, whose attacks from a square
    /// are `moves`; its mobility table starts at index `mobility`.
    #[inline(always)]
    fn kind(&mut self, slot: usize, mobility: usize, moves: impl Fn(usize) -> u64) {
        let them = !self.us;
        for sq in squares(self.pos.of(self.us, slot)) {
            let reach = moves(sq);
            self.attacks.by[slot] |= reach;
            let safe = (reach & self.area).count_ones() as usize;
            self.acc.add(mobility + safe, self.us, 1);
            let hits = reach & self.zone;
            if hits != 0 {
                self.attacks.king_attackers += 1;
                self.acc
                    .add_danger(idx::DANGER_ATTACKER + slot - KNIGHT, them, 1);
                let count = hits.count_ones() as i32;
                self.acc.add_danger(idx::DANGER_ZONE_ATTACK, them, count);
            }
        }
    }
}

/// Outposts, rooks on open files and the seventh rank, and the bishop pair.
#[inline(always)]
fn placement<T: Tracer>(acc: &mut Acc<T>, pos: &Snapshot, us: Color) {
    let them = !us;
    let own_pawns = pos.of(us, PAWN);
    let enemy_pawns = pos.of(them, PAWN);

    let outposts =
        (relative_rank_mask(us, 3) | relative_rank_mask(us, 4) | relative_rank_mask(us, 5))
            & pos.pawn_attacks[us as usize]
            & !attack_span(them, enemy_pawns);
    acc.add_set(idx::PIECE_KNIGHT_OUTPOST, us, pos.of(us, KNIGHT) & outposts);
    acc.add_set(idx::PIECE_BISHOP_OUTPOST, us, pos.of(us, BISHOP) & outposts);

    let rooks = pos.of(us, ROOK);
    let own_files = file_fill(own_pawns);
    let enemy_files = file_fill(enemy_pawns);
    acc.add_set(
        idx::PIECE_ROOK_OPEN_FILE,
        us,
        rooks & !own_files & !enemy_files,
    );
    acc.add_set(
        idx::PIECE_ROOK_SEMI_OPEN_FILE,
        us,
        rooks & !own_files & enemy_files,
    );
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
