//! AdamW over the flat parameter vector, the learning-rate schedule, and the clipping that
//! keeps the weights quantisable.

use crate::nnue::file::WEIGHT_CLIP;

/// AdamW (Loshchilov and Hutter, 2019): Adam with the weight decay applied to the weights
/// directly rather than through the gradient.
#[derive(Debug, Clone)]
pub struct AdamW {
    pub beta1: f32,
    pub beta2: f32,
    pub epsilon: f32,
    /// Decoupled weight decay per step, multiplied by the learning rate.
    pub decay: f32,
    /// A pull towards these weights (the starting network) of this strength per step,
    /// multiplied by the learning rate, as the decay pulls towards zero (`--anchor`).
    pub anchor: Option<(Vec<f32>, f32)>,
    moments: Moments,
}

/// What AdamW carries from step to step: its running means of the gradient and of its
/// square, and how many steps it has taken (for the bias correction). A resumed run
/// (`resume.rs`) starts from the moments of the run that stopped.
#[derive(Debug, Clone, PartialEq)]
pub struct Moments {
    pub momentum: Vec<f32>,
    pub velocity: Vec<f32>,
    pub steps: u64,
}

impl AdamW {
    /// An optimiser for `len` parameters with the usual constants (β 0.9 / 0.999, ε 1e-8)
    /// and the trainer's default weight decay ([`super::DEFAULT_DECAY`], `--decay`).
    pub fn new(len: usize) -> AdamW {
        AdamW {
            beta1: 0.9,
            beta2: 0.999,
            epsilon: 1e-8,
            decay: super::DEFAULT_DECAY,
            anchor: None,
            moments: Moments {
                momentum: vec![0.0; len],
                velocity: vec![0.0; len],
                steps: 0,
            },
        }
    }

    /// The moments as they stand.
    pub fn moments(&self) -> &Moments {
        &self.moments
    }

    /// Goes on from `moments` (of as many parameters as this optimiser has).
    pub fn restore(&mut self, moments: Moments) {
        assert_eq!(moments.momentum.len(), self.moments.momentum.len());
        assert_eq!(moments.velocity.len(), self.moments.velocity.len());
        self.moments = moments;
    }

    /// One step of rate `lr` along `grad`; afterwards the first `clipped` parameters are
    /// clamped to ±[`WEIGHT_CLIP`] (the quantised inference needs them there).
    pub fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32, clipped: usize) {
        assert_eq!(params.len(), grad.len());
        assert_eq!(params.len(), self.moments.momentum.len());
        self.moments.steps += 1;
        let steps = i32::try_from(self.moments.steps).unwrap_or(i32::MAX);
        let (b1, b2) = (self.beta1, self.beta2);
        // Bias correction folded into the rate and into ε.
        let correction1 = 1.0 - b1.powi(steps);
        let correction2 = (1.0 - b2.powi(steps)).sqrt();
        let rate = lr * correction2 / correction1;
        let epsilon = self.epsilon * correction2;
        let shrink = 1.0 - lr * self.decay;
        for (((p, g), m), v) in params
            .iter_mut()
            .zip(grad)
            .zip(&mut self.moments.momentum)
            .zip(&mut self.moments.velocity)
        {
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            *p = *p * shrink - rate * *m / (v.sqrt() + epsilon);
        }
        if let Some((start, strength)) = &self.anchor {
            let pull = lr * strength;
            for (p, a) in params.iter_mut().zip(start) {
                *p -= pull * (*p - a);
            }
        }
        for p in &mut params[..clipped] {
            *p = p.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
    }
}

/// A cosine learning-rate schedule: `base` at the first step, falling smoothly to
/// `last` at the last.
#[derive(Debug, Clone, Copy)]
pub struct Schedule {
    pub base: f32,
    pub last: f32,
    pub total_steps: usize,
}

impl Schedule {
    /// The rate of step `step` (0-based).
    pub fn rate(&self, step: usize) -> f32 {
        let progress = if self.total_steps > 1 {
            (step as f32 / (self.total_steps - 1) as f32).min(1.0)
        } else {
            0.0
        };
        let low = self.last;
        low + 0.5 * (self.base - low) * (1.0 + (std::f32::consts::PI * progress).cos())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_runs_from_base_to_final() {
        let schedule = Schedule {
            base: 1e-3,
            last: 1e-4,
            total_steps: 101,
        };
        assert!((schedule.rate(0) - 1e-3).abs() < 1e-9);
        assert!((schedule.rate(50) - 5.5e-4).abs() < 1e-7);
        assert!((schedule.rate(100) - 1e-4).abs() < 1e-9);
    }

    #[test]
    fn adamw_moves_against_the_gradient_and_clips() {
        let mut adam = AdamW::new(3);
        let mut params = [0.0, 1.97, 5.0];
        adam.step(&mut params, &[1.0, -1.0, -1.0], 0.1, 2);
        assert!((params[0] + 0.1).abs() < 1e-4);
        assert_eq!(params[1], WEIGHT_CLIP);
        assert!(params[2] > 5.0, "the last parameter is not clipped");
    }

    #[test]
    fn the_decay_shrinks_weights_the_gradient_leaves_alone() {
        let mut decayed = AdamW::new(2);
        decayed.decay = 0.5;
        let mut undecayed = AdamW::new(2);
        undecayed.decay = 0.0;
        let (mut p_decayed, mut p_undecayed) = ([1.0, -1.0], [1.0, -1.0]);
        for _ in 0..10 {
            decayed.step(&mut p_decayed, &[0.0, 0.0], 0.1, 0);
            undecayed.step(&mut p_undecayed, &[0.0, 0.0], 0.1, 0);
        }
        // Each step multiplies by 1 - lr × decay = 0.95.
        let expected = 0.95f32.powi(10);
        assert!((p_decayed[0] - expected).abs() < 1e-5, "{}", p_decayed[0]);
        assert!((p_decayed[1] + expected).abs() < 1e-5, "{}", p_decayed[1]);
        assert_eq!(p_undecayed, [1.0, -1.0]);
    }

    #[test]
    fn the_anchor_pulls_weights_back_towards_the_start() {
        let start = vec![0.5, -0.5];
        let mut free = AdamW::new(2);
        let mut anchored = AdamW::new(2);
        anchored.anchor = Some((start.clone(), 100.0));
        let (mut p_free, mut p_anchored) = (start.clone(), start.clone());
        for _ in 0..200 {
            free.step(&mut p_free, &[1.0, -1.0], 1e-3, 0);
            anchored.step(&mut p_anchored, &[1.0, -1.0], 1e-3, 0);
        }
        for i in 0..2 {
            let (moved_free, moved_anchored) = (
                (p_free[i] - start[i]).abs(),
                (p_anchored[i] - start[i]).abs(),
            );
            assert!(moved_free > 0.15, "free moved {moved_free}");
            // Adam steps about 1e-3 a step; the pull 0.1 × distance stops it near 0.01.
            assert!(moved_anchored < 0.02, "anchored moved {moved_anchored}");
            assert!(moved_anchored > 0.005, "anchored moved {moved_anchored}");
        }
    }
}
