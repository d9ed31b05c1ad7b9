//! The accumulator every term adds to: applies a weight, tells the tracer.
//!
//! Going through [`Acc::add`] / [`Acc::add_danger`] is the only way a term reaches the score,
//! so the trace always matches the evaluation.

use cozy_chess::Color;

use super::params::NUM_PARAMS;
use super::score::S;
use super::trace::Tracer;

/// Running sums of one evaluation.
pub struct Acc<'a, T: Tracer> {
    weights: &'a [S; NUM_PARAMS],
    /// The tracer told of every weight use.
    pub tracer: &'a mut T,
    linear: S,
    danger: [S; 2],
}

impl<'a, T: Tracer> Acc<'a, T> {
    /// Empty sums over `weights`.
    #[inline(always)]
    pub fn new(weights: &'a [S; NUM_PARAMS], tracer: &'a mut T) -> Self {
        Acc {
            weights,
            tracer,
            linear: S::ZERO,
            danger: [S::ZERO; 2],
        }
    }

    /// Adds `count` times linear weight `index` for `color`.
    #[inline(always)]
    pub fn add(&mut self, index: usize, color: Color, count: i32) {
        // One running White-minus-Black sum (not one per side indexed by colour) stays in
        // registers even where the colour is not a compile-time constant.
        let signed = if color == Color::White { count } else { -count };
        self.linear += self.weights[index] * signed;
        self.tracer.linear(index, color, count);
    }

    /// Adds linear weight `index` for `color` once per square of `set` (no work when empty:
    /// most such sets are, and a popcount is not free on a baseline x86-64 build).
    #[inline(always)]
    pub fn add_set(&mut self, index: usize, color: Color, set: u64) {
        if set != 0 {
            self.add(index, color, set.count_ones() as i32);
        }
    }

    /// Adds `count` times king-danger weight `index` against `king`'s king. Callers pass a
    /// colour known at compile time after inlining, so both sums stay in registers.
    #[inline(always)]
    pub fn add_danger(&mut self, index: usize, king: Color, count: i32) {
        self.danger[king as usize] += self.weights[index] * count;
        self.tracer.danger(index, king, count);
    }

    /// The linear terms, White minus Black.
    #[inline(always)]
    pub fn linear(&self) -> S {
        self.linear
    }

    /// The king-danger units against `king`'s king.
    #[inline(always)]
    pub fn danger(&self, king: Color) -> S {
        self.danger[king as usize]
    }
}
