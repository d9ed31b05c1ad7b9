//! The (middlegame, endgame) score pair every evaluation weight is made of.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A pair of centipawn values: `S(middlegame, endgame)`.
///
/// The evaluation sums pairs and blends the two halves by the game phase at the very end
/// (see `scale::taper`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct S(pub i32, pub i32);

impl S {
    /// The zero pair.
    pub const ZERO: S = S(0, 0);

    /// The middlegame half.
    pub const fn mg(self) -> i32 {
        self.0
    }

    /// The endgame half.
    pub const fn eg(self) -> i32 {
        self.1
    }
}

impl Add for S {
    type Output = S;
    #[inline(always)]
    fn add(self, other: S) -> S {
        S(self.0 + other.0, self.1 + other.1)
    }
}

impl Sub for S {
    type Output = S;
    #[inline(always)]
    fn sub(self, other: S) -> S {
        S(self.0 - other.0, self.1 - other.1)
    }
}

impl Neg for S {
    type Output = S;
    #[inline(always)]
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline(always)]
    fn mul(self, n: i32) -> S {
        S(self.0 * n, self.1 * n)
    }
}

impl AddAssign for S {
    #[inline(always)]
    fn add_assign(&mut self, other: S) {
        *self = *self + other;
    }
}

impl SubAssign for S {
    #[inline(always)]
    fn sub_assign(&mut self, other: S) {
        *self = *self - other;
    }
}
