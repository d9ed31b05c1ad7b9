//! Tracing: who sees each weight the evaluation uses, and with what count.
//!
//! The evaluation is generic over a [`Tracer`]. The search uses [`NoTrace`], whose empty
//! methods compile away. [`coefficients`] uses a collecting tracer to turn a position into
//! the data a tuner needs: for every weight index the White-minus-Black count of the linear
//! terms, the per-king counts of the king-danger units, the phase and the scale factor.
//!
//! With those, the White-relative evaluation is (see [`Coefficients::white_eval`])
//!
//! ```text
//! L      = sum_i coeff_i * w_i                                   (an S pair)
//! D_c    = sum_i danger_c,i * w_i                                (units against c's king)
//! P(D)   = S(-max(D.mg,0)^2 / DANGER_MG_DIVISOR, -max(D.eg,0) / DANGER_EG_DIVISOR)
//! total  = L + P(D_white) - P(D_black)       (each P only where the danger gate applied)
//! eval   = (total.mg * phase + total.eg * (24 - phase)) * scale / (24 * 128)
//! ```
//!
//! so a gradient tuner (Texel / Adam over a sigmoid of `eval`) gets `d eval / d w_i.mg =
//! coeff_i * phase * scale / 3072`, the `eg` half with `24 - phase`, and the danger weights by
//! the chain rule through `P`, with phase and scale held fixed per position.

use cozy_chess::{Board, Color};

use super::king::danger_penalty;
use super::params::NUM_PARAMS;
use super::scale::{apply_scale, taper};
use super::score::S;

/// Receives every weight use of one evaluation.
pub trait Tracer {
    /// The linear weight `index` counts `count` times in favour of `color`.
    fn linear(&mut self, index: usize, color: Color, count: i32);
    /// The king-danger weight `index` counts `count` times against `king`'s king.
    fn danger(&mut self, index: usize, king: Color, count: i32);
    /// The evaluation is done: its phase (0..=24), its scale (out of 128) and whether each
    /// side's danger sum passed the gate and was applied.
    fn finish(&mut self, phase: i32, scale: i32, danger_applied: [bool; 2]);
}

/// The tracer of the search: does nothing, costs nothing.
pub struct NoTrace;

impl Tracer for NoTrace {
    #[inline(always)]
    fn linear(&mut self, _: usize, _: Color, _: i32) {}
    #[inline(always)]
    fn danger(&mut self, _: usize, _: Color, _: i32) {}
    #[inline(always)]
    fn finish(&mut self, _: i32, _: i32, _: [bool; 2]) {}
}

/// A position reduced to what a tuner needs (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coefficients {
    /// Game phase, 24 = all pieces on, 0 = pawns and kings only.
    pub phase: i32,
    /// Endgame scale factor out of 128.
    pub scale: i32,
    /// `(index, White count - Black count)` of every linear weight used, sorted, non-zero.
    pub linear: Vec<(usize, i32)>,
    /// `(index, count)` of the king-danger weights against White's, then Black's king.
    pub danger: [Vec<(usize, i32)>; 2],
    /// Whether each side's danger sum was applied.
    pub danger_applied: [bool; 2],
}

impl Coefficients {
    /// The White-relative evaluation these coefficients give with `weights`; with the default
    /// weights it equals the evaluation of the traced position exactly.
    pub fn white_eval(&self, weights: &[S; NUM_PARAMS]) -> i32 {
        let dot = |terms: &[(usize, i32)]| {
            terms
                .iter()
                .fold(S::ZERO, |sum, &(i, n)| sum + weights[i] * n)
        };
        let mut total = dot(&self.linear);
        if self.danger_applied[0] {
            total += danger_penalty(dot(&self.danger[0]));
        }
        if self.danger_applied[1] {
            total -= danger_penalty(dot(&self.danger[1]));
        }
        apply_scale(taper(total, self.phase), self.scale)
    }
}

/// Collects dense counts during one evaluation.
struct Collector {
    linear: Vec<i32>,
    danger: [Vec<i32>; 2],
    out: Coefficients,
}

impl Tracer for Collector {
    fn linear(&mut self, index: usize, color: Color, count: i32) {
        let sign = if color == Color::White { 1 } else { -1 };
        self.linear[index] += sign * count;
    }

    fn danger(&mut self, index: usize, king: Color, count: i32) {
        self.danger[king as usize][index] += count;
    }

    fn finish(&mut self, phase: i32, scale: i32, danger_applied: [bool; 2]) {
        self.out.phase = phase;
        self.out.scale = scale;
        self.out.danger_applied = danger_applied;
    }
}

/// Non-zero entries of a dense count vector.
fn sparse(dense: &[i32]) -> Vec<(usize, i32)> {
    dense
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n != 0)
        .map(|(i, &n)| (i, n))
        .collect()
}

/// Traces the evaluation of `board` with the default weights.
pub fn coefficients(board: &Board) -> Coefficients {
    let mut collector = Collector {
        linear: vec![0; NUM_PARAMS],
        danger: [vec![0; NUM_PARAMS], vec![0; NUM_PARAMS]],
        out: Coefficients::default(),
    };
    super::evaluate_white(board, &super::params::WEIGHTS, &mut collector);
    let mut out = collector.out;
    out.linear = sparse(&collector.linear);
    out.danger = [sparse(&collector.danger[0]), sparse(&collector.danger[1])];
    out
}
