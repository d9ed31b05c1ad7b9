//! How a network's integer output becomes centipawns: the hidden layer's activation and
//! the quantisation constants QA, QB and SCALE. Cutoff's own trainer writes SCReLU at
//! 255 / 64 / 400 ([`Quantisation::STANDARD`]); a net trained elsewhere (bullet, imported
//! by `cutoff net import`) keeps its own, so that it scores exactly as it did where it
//! was trained.

use std::fmt;

use super::file::{QA, QB, SCALE};

/// The activation of the hidden layer, applied to each accumulator value `a`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Activation {
    /// Squared clipped ReLU, `clamp(a, 0, QA)²`: the output sum is divided by QA once
    /// more before the bias is added.
    #[default]
    SCReLU,
    /// Clipped ReLU, `clamp(a, 0, QA)`.
    CReLU,
}

impl Activation {
    /// The activation's code in the file header.
    pub fn code(self) -> u32 {
        match self {
            Activation::SCReLU => 0,
            Activation::CReLU => 1,
        }
    }

    /// The activation of a header code, if there is one.
    pub fn from_code(code: u32) -> Option<Activation> {
        match code {
            0 => Some(Activation::SCReLU),
            1 => Some(Activation::CReLU),
            _ => None,
        }
    }

    /// The name reports use.
    pub fn name(self) -> &'static str {
        match self {
            Activation::SCReLU => "SCReLU",
            Activation::CReLU => "CReLU",
        }
    }
}

impl fmt::Display for Activation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The quantisation of a network: feature weights and biases × QA (activations clamped
/// to [0, QA]), output weights × QB, output biases × QA·QB, and the output × SCALE is
/// centipawns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quantisation {
    pub qa: i32,
    pub qb: i32,
    pub scale: i32,
}

impl Default for Quantisation {
    fn default() -> Quantisation {
        Quantisation::STANDARD
    }
}

/// The largest QA and QB: a clamped activation (≤ QA) must fit in `i16`, and so must an
/// output weight quantised by QB.
pub const MAX_Q: i32 = i16::MAX as i32;
/// The largest SCALE a file may declare.
pub const MAX_SCALE: i32 = 100_000;

impl Quantisation {
    /// Cutoff's own: what its trainer writes.
    pub const STANDARD: Quantisation = Quantisation {
        qa: QA,
        qb: QB,
        scale: SCALE,
    };

    /// Whether every constant is within its range: QA and QB in 1..=[`MAX_Q`], SCALE in
    /// 1..=[`MAX_SCALE`].
    pub fn is_valid(self) -> bool {
        (1..=MAX_Q).contains(&self.qa)
            && (1..=MAX_Q).contains(&self.qb)
            && (1..=MAX_SCALE).contains(&self.scale)
    }

    /// The centipawns of an output `sum` (`Σ activation · w` over both halves, wrapped
    /// in `i32` as the kernels wrap it) and the bucket's `bias`:
    /// `(sum / QA + bias) · SCALE / (QA · QB)` for SCReLU, `(sum + bias) · SCALE / (QA · QB)`
    /// for CReLU, each division truncating as integer division does in the engines that
    /// bullet's nets are written for. Computed in `i64` (no intermediate overflows) and
    /// saturated to `i32`.
    #[inline]
    pub fn centipawns(self, activation: Activation, sum: i32, bias: i32) -> i32 {
        let summed = match activation {
            Activation::SCReLU => sum / self.qa,
            Activation::CReLU => sum,
        };
        let cp = (i64::from(summed) + i64::from(bias)) * i64::from(self.scale)
            / (i64::from(self.qa) * i64::from(self.qb));
        cp.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }
}

impl fmt::Display for Quantisation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "QA {} QB {} SCALE {}", self.qa, self.qb, self.scale)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centipawns_follow_the_formula_of_each_activation() {
        let standard = Quantisation::STANDARD;
        // SCReLU: (sum / QA + bias) · SCALE / (QA · QB), truncating.
        let sum = 255 * 64 * 255 * 3 / 2;
        assert_eq!(
            standard.centipawns(Activation::SCReLU, sum, 0),
            (sum / 255) * 400 / (255 * 64)
        );
        assert_eq!(standard.centipawns(Activation::SCReLU, sum, 0), 600);
        assert_eq!(standard.centipawns(Activation::SCReLU, -sum, 0), -600);
        // CReLU: (sum + bias) · SCALE / (QA · QB).
        let crelu = Quantisation {
            qa: 181,
            qb: 128,
            scale: 300,
        };
        assert_eq!(
            crelu.centipawns(Activation::CReLU, 181 * 128, 181 * 64),
            450
        );
        // Truncation toward zero on both sides.
        assert_eq!(crelu.centipawns(Activation::CReLU, 77, 0), 0);
        assert_eq!(crelu.centipawns(Activation::CReLU, -77_300, 0), -1000);
        // Extreme values saturate instead of wrapping.
        let huge = Quantisation {
            qa: 1,
            qb: 1,
            scale: MAX_SCALE,
        };
        assert_eq!(
            huge.centipawns(Activation::CReLU, i32::MAX, i32::MAX),
            i32::MAX
        );
    }

    #[test]
    fn ranges_and_codes() {
        assert!(Quantisation::STANDARD.is_valid());
        for bad in [(0, 64, 400), (255, 0, 400), (255, 64, 0), (40_000, 64, 400)] {
            let q = Quantisation {
                qa: bad.0,
                qb: bad.1,
                scale: bad.2,
            };
            assert!(!q.is_valid(), "{q}");
        }
        for activation in [Activation::SCReLU, Activation::CReLU] {
            assert_eq!(Activation::from_code(activation.code()), Some(activation));
        }
        assert_eq!(Activation::from_code(2), None);
    }
}
