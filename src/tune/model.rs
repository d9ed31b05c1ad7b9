//! The evaluation as a differentiable function of the weights, in floating point.
//!
//! It is the model of `eval/trace.rs` without the engine's integer truncations:
//!
//! ```text
//! L      = sum_i linear_i * w_i                        (an (mg, eg) pair)
//! D_c    = sum_i danger_c,i * w_i                      (only where c's danger gate applied)
//! P(D)   = (-max(D.mg, 0)^2 / DANGER_MG_DIVISOR, -max(D.eg, 0) / DANGER_EG_DIVISOR)
//! total  = L + P(D_white) - P(D_black)
//! eval   = total.mg * blend.mg + total.eg * blend.eg
//! blend  = (phase * scale / 3072, (24 - phase) * scale / 3072)
//! ```
//!
//! with phase and scale fixed per position. The gradient is exact: `d eval / d w_i` is
//! `linear_i * blend` for a linear weight and `± blend * P'(D_c) * danger_c,i` for a danger
//! weight (per half, `P'` being `-2 max(D.mg, 0) / DANGER_MG_DIVISOR` and `-[D.eg > 0] /
//! DANGER_EG_DIVISOR`).

use crate::eval::params::{DANGER_EG_DIVISOR, DANGER_MG_DIVISOR};
use crate::eval::{NUM_PARAMS, S};

use super::data::{Position, Term};

/// A weight vector in floating point: `[mg, eg]` per flat index.
pub type Weights = Vec<[f64; 2]>;

/// Phase at which the evaluation is all middlegame.
const MAX_PHASE: f64 = 24.0;
/// Divisor of the blended, scaled score: 24 phases times the normal scale of 128.
const BLEND_DIVISOR: f64 = 24.0 * 128.0;

/// The integer weight table as floats.
pub fn to_float(table: &[S]) -> Weights {
    table
        .iter()
        .map(|s| [f64::from(s.0), f64::from(s.1)])
        .collect()
}

/// Float weights rounded to the nearest integers, as a table (entries past `weights` stay
/// zero).
pub fn rounded(weights: &[[f64; 2]]) -> [S; NUM_PARAMS] {
    let mut table = [S::ZERO; NUM_PARAMS];
    for (slot, w) in table.iter_mut().zip(weights) {
        *slot = S(w[0].round() as i32, w[1].round() as i32);
    }
    table
}

/// The logistic function of `k * x`: a win probability for an evaluation of `x` centipawns.
#[inline]
pub fn sigmoid(k: f64, x: f64) -> f64 {
    1.0 / (1.0 + (-k * x).exp())
}

/// The model's value for one position and what the gradient needs of it.
#[derive(Clone, Copy, Debug)]
pub struct Forward {
    /// The White-relative evaluation in centipawns.
    pub eval: f64,
    /// `d eval / d total` per half: the phase blend times the scale.
    blend: [f64; 2],
    /// `d eval / d D_c` per king and half (zero where the penalty is flat).
    danger_slope: [[f64; 2]; 2],
}

/// `sum count * w` over `terms`, per half.
#[inline(always)]
fn dot(terms: &[Term], weights: &[[f64; 2]]) -> [f64; 2] {
    let mut sum = [0.0; 2];
    for t in terms {
        let w = weights[t.index as usize];
        let n = f64::from(t.count);
        sum[0] += w[0] * n;
        sum[1] += w[1] * n;
    }
    sum
}

/// Evaluates `pos` with `weights`.
#[inline]
pub fn forward(pos: &Position, weights: &[[f64; 2]]) -> Forward {
    let scale = f64::from(pos.scale) / BLEND_DIVISOR;
    let phase = f64::from(pos.phase);
    let blend = [phase * scale, (MAX_PHASE - phase) * scale];
    let mut total = dot(pos.linear, weights);
    let mut danger_slope = [[0.0; 2]; 2];
    for (side, terms) in pos.danger.iter().enumerate() {
        if terms.is_empty() {
            continue;
        }
        // The penalty against White's king counts for Black: subtracted from White's view.
        let sign = if side == 0 { 1.0 } else { -1.0 };
        let units = dot(terms, weights);
        let mg = units[0].max(0.0);
        let eg = units[1].max(0.0);
        total[0] -= sign * mg * mg / f64::from(DANGER_MG_DIVISOR);
        total[1] -= sign * eg / f64::from(DANGER_EG_DIVISOR);
        let eg_slope = if units[1] > 0.0 {
            1.0 / f64::from(DANGER_EG_DIVISOR)
        } else {
            0.0
        };
        danger_slope[side] = [
            -sign * blend[0] * 2.0 * mg / f64::from(DANGER_MG_DIVISOR),
            -sign * blend[1] * eg_slope,
        ];
    }
    Forward {
        eval: total[0] * blend[0] + total[1] * blend[1],
        blend,
        danger_slope,
    }
}

/// The White-relative evaluation of `pos` with `weights`.
pub fn eval(pos: &Position, weights: &[[f64; 2]]) -> f64 {
    forward(pos, weights).eval
}

/// Adds `d_eval * d eval / d w` for every weight `pos` uses to `grad`.
#[inline]
pub fn backward(pos: &Position, fwd: &Forward, d_eval: f64, grad: &mut [[f64; 2]]) {
    let add = |grad: &mut [[f64; 2]], terms: &[Term], slope: [f64; 2]| {
        let g = [d_eval * slope[0], d_eval * slope[1]];
        for t in terms {
            let n = f64::from(t.count);
            let slot = &mut grad[t.index as usize];
            slot[0] += g[0] * n;
            slot[1] += g[1] * n;
        }
    };
    add(grad, pos.linear, fwd.blend);
    for side in 0..2 {
        add(grad, pos.danger[side], fwd.danger_slope[side]);
    }
}

/// The squared error of the prediction `sigmoid(k * eval)` against `target`, and its
/// derivative with respect to `eval`.
#[inline]
pub fn error(eval: f64, k: f64, target: f64) -> (f64, f64) {
    let s = sigmoid(k, eval);
    let diff = s - target;
    (diff * diff, 2.0 * diff * s * (1.0 - s) * k)
}
