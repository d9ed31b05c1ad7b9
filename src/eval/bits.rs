//! Set-wise bitboard helpers on raw `u64` squares sets (bit `n` = square `n`, a1 = 0).

use cozy_chess::{get_king_moves, Color, Square};

/// The a-file.
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
/// The h-file.
pub const FILE_H: u64 = FILE_A << 7;
/// The dark squares (a1 is dark).
pub const DARK_SQUARES: u64 = 0xAA55_AA55_AA55_AA55;

/// The squares of file `file` (0 = a).
#[inline(always)]
pub const fn file_mask(file: usize) -> u64 {
    FILE_A << file
}

/// The squares of rank `rank` (0 = first rank).
#[inline(always)]
pub const fn rank_mask(rank: usize) -> u64 {
    0xFF << (8 * rank)
}

/// The squares of `color`'s relative rank `rank` (0 = its first rank).
#[inline(always)]
pub const fn relative_rank_mask(color: Color, rank: usize) -> u64 {
    match color {
        Color::White => rank_mask(rank),
        Color::Black => rank_mask(7 - rank),
    }
}

/// The rank of `sq` as seen from `color` (0 = its first rank).
#[inline(always)]
pub const fn relative_rank(color: Color, sq: usize) -> usize {
    match color {
        Color::White => sq / 8,
        Color::Black => 7 - sq / 8,
    }
}

/// Chebyshev (king-move) distance between two squares.
#[inline(always)]
pub fn distance(a: usize, b: usize) -> i32 {
    let files = (a % 8).abs_diff(b % 8);
    let ranks = (a / 8).abs_diff(b / 8);
    files.max(ranks) as i32
}

/// Every square on or north of a square in `b`.
#[inline(always)]
pub const fn north_fill(mut b: u64) -> u64 {
    b |= b << 8;
    b |= b << 16;
    b | (b << 32)
}

/// Every square on or south of a square in `b`.
#[inline(always)]
pub const fn south_fill(mut b: u64) -> u64 {
    b |= b >> 8;
    b |= b >> 16;
    b | (b >> 32)
}

/// Every file holding a square of `b`, as a full-file set.
#[inline(always)]
pub const fn file_fill(b: u64) -> u64 {
    north_fill(b) | south_fill(b)
}

/// `b` moved one rank towards `color`'s promotion rank.
#[inline(always)]
pub const fn forward(color: Color, b: u64) -> u64 {
    match color {
        Color::White => b << 8,
        Color::Black => b >> 8,
    }
}

/// Squares strictly in front of the squares of `b`, from `color`'s point of view.
#[inline(always)]
pub const fn front_span(color: Color, b: u64) -> u64 {
    match color {
        Color::White => north_fill(b << 8),
        Color::Black => south_fill(b >> 8),
    }
}

/// Squares attacked by `color`'s pawns standing on `b`.
#[inline(always)]
pub const fn pawn_attacks(color: Color, b: u64) -> u64 {
    let west = b & !FILE_A;
    let east = b & !FILE_H;
    match color {
        Color::White => (west << 7) | (east << 9),
        Color::Black => (west >> 9) | (east >> 7),
    }
}

/// Squares `color`'s pawns on `b` attack now or could attack after advancing.
#[inline(always)]
pub const fn attack_span(color: Color, b: u64) -> u64 {
    match color {
        Color::White => north_fill(pawn_attacks(color, b)),
        Color::Black => south_fill(pawn_attacks(color, b)),
    }
}

/// The squares directly left and right of the squares of `b`.
#[inline(always)]
pub const fn neighbours(b: u64) -> u64 {
    ((b & !FILE_A) >> 1) | ((b & !FILE_H) << 1)
}

/// The squares on `color`'s relative rank of `sq` and every rank in front of it.
#[inline(always)]
pub const fn ranks_from(color: Color, sq: usize) -> u64 {
    let rank = sq / 8;
    match color {
        Color::White => !0u64 << (8 * rank),
        Color::Black => !0u64 >> (8 * (7 - rank)),
    }
}

/// The square of `b` nearest to `color`'s first rank (`b` must be non-empty).
#[inline(always)]
pub const fn nearest(color: Color, b: u64) -> usize {
    match color {
        Color::White => b.trailing_zeros() as usize,
        Color::Black => 63 - b.leading_zeros() as usize,
    }
}

/// Iterates the square indices of `b`, lowest first.
#[inline(always)]
pub fn squares(b: u64) -> Squares {
    Squares(b)
}

/// The iterator of [`squares`].
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(sq)
    }
}

/// The `Square` of index `sq` (0..64).
#[inline(always)]
pub fn square(sq: usize) -> Square {
    Square::index(sq & 63)
}

/// King zones: the king's square, its neighbours and the squares one rank further forward.
static KING_ZONE: [[u64; 64]; 2] = build_king_zones();

const fn build_king_zones() -> [[u64; 64]; 2] {
    let mut zones = [[0; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let near = get_king_moves(Square::index_const(sq)).0 | (1 << sq);
        zones[0][sq] = near | forward(Color::White, near);
        zones[1][sq] = near | forward(Color::Black, near);
        sq += 1;
    }
    zones
}

/// The king zone of `color`'s king standing on `sq`.
#[inline(always)]
pub fn king_zone(color: Color, sq: usize) -> u64 {
    KING_ZONE[color as usize][sq & 63]
}
