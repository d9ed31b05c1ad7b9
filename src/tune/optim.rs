//! Fitting: the sigmoid scale `K`, the training targets, the loss and its gradient over the
//! data set, and the Adam optimiser.
//!
//! Loss: `E = mean (sigmoid(K * eval(w)) - t)^2` with `t = lambda * result + (1 - lambda) *
//! sigmoid(K * score)`. Adam (beta1 0.9, beta2 0.999) runs on mini-batches of a fresh
//! deterministic shuffle each epoch; its learning rate is in centipawns per step (Adam's
//! steps are about the learning rate in size, whatever the gradient's scale), multiplied by
//! a decay factor after every epoch. A held-out tail of the data set (later games, unseen
//! by the optimiser) measures how well the weights generalise; with one, the weights of the
//! epoch with the lowest held-out loss are the result (early stopping).
//!
//! Regularisation: an optional pull `l2 * (w - start)^2` per weight half keeps the weights
//! that few positions inform (rare piece-square entries, high mobility counts) near their
//! starting values, while the ones the data set knows well are free to move. It changes
//! the steps only; the losses reported are the data's.

use std::time::Instant;

use super::data::Dataset;
use super::model::{backward, error, eval, forward, sigmoid, Weights};
use crate::par::{map_ranges, map_shares};
use crate::rng::SplitMix64;

/// Smallest `K` (per centipawn) the fit considers.
const K_MIN: f64 = 1e-4;
/// Largest `K` the fit considers.
const K_MAX: f64 = 0.1;
/// Points of the coarse logarithmic scan over `K_MIN..=K_MAX`.
const K_SCAN_STEPS: usize = 48;
/// Golden-section iterations after the scan.
const K_REFINE_STEPS: usize = 60;

/// Adam's decay of the mean gradient.
const BETA1: f64 = 0.9;
/// Adam's decay of the mean squared gradient.
const BETA2: f64 = 0.999;
/// Adam's guard against division by zero.
const EPSILON: f64 = 1e-8;

/// The mean squared error of `sigmoid(k * eval)` against `result` over `(eval, result)`
/// pairs.
fn result_error(pairs: &[(f64, f64)], k: f64, threads: usize) -> f64 {
    let sums = map_shares(pairs, threads, |share| {
        share
            .iter()
            .map(|&(e, r)| (sigmoid(k, e) - r).powi(2))
            .sum::<f64>()
    });
    sums.iter().sum::<f64>() / pairs.len().max(1) as f64
}

/// The classic Texel fit: the `K` that minimises the mean squared error between
/// `sigmoid(K * eval)` and the game result, over `(eval, result)` pairs. A logarithmic scan
/// of `1e-4..=0.1` per centipawn, then golden-section search around the best point.
pub fn fit_k(pairs: &[(f64, f64)], threads: usize) -> f64 {
    let ln_min = K_MIN.ln();
    let step = (K_MAX.ln() - ln_min) / K_SCAN_STEPS as f64;
    let cost = |ln_k: f64| result_error(pairs, ln_k.exp(), threads);
    let best = (0..=K_SCAN_STEPS)
        .map(|n| (n, cost(ln_min + step * n as f64)))
        .fold((0, f64::INFINITY), |best, next| {
            if next.1 < best.1 {
                next
            } else {
                best
            }
        })
        .0;
    let mut lo = ln_min + step * best.saturating_sub(1) as f64;
    let mut hi = ln_min + step * (best + 1).min(K_SCAN_STEPS) as f64;
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let mut a = hi - ratio * (hi - lo);
    let mut b = lo + ratio * (hi - lo);
    let (mut cost_a, mut cost_b) = (cost(a), cost(b));
    for _ in 0..K_REFINE_STEPS {
        if cost_a <= cost_b {
            hi = b;
            b = a;
            cost_b = cost_a;
            a = hi - ratio * (hi - lo);
            cost_a = cost(a);
        } else {
            lo = a;
            a = b;
            cost_a = cost_b;
            b = lo + ratio * (hi - lo);
            cost_b = cost(b);
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// How many of `len` positions train when the last `fraction` (0 to 1) is held out.
pub fn training_count(len: usize, fraction: f64) -> usize {
    let held = (len as f64 * fraction.clamp(0.0, 1.0)).round() as usize;
    len - held.min(len)
}

/// A data set with its training targets: what the optimiser minimises.
pub struct Problem<'a> {
    /// The positions.
    pub data: &'a Dataset,
    /// The target win probability of each position.
    pub targets: Vec<f32>,
    /// The sigmoid scale per centipawn.
    pub k: f64,
    /// Positions `0..training` train the weights; the rest are held out.
    training: usize,
}

impl<'a> Problem<'a> {
    /// Targets `lambda * result + (1 - lambda) * sigmoid(k * score)` for every position.
    pub fn new(data: &'a Dataset, k: f64, lambda: f64) -> Problem<'a> {
        let targets = data
            .positions()
            .map(|p| {
                let t =
                    lambda * f64::from(p.result) + (1.0 - lambda) * sigmoid(k, f64::from(p.score));
                t as f32
            })
            .collect();
        Problem {
            data,
            targets,
            k,
            training: data.len(),
        }
    }

    /// Holds the last `fraction` (0 to 1) of the positions out of training, to measure
    /// the loss on positions the optimiser never saw. Data files are written a game at a
    /// time, so the tail is later games rather than neighbours of the training positions.
    pub fn hold_out(mut self, fraction: f64) -> Problem<'a> {
        self.training = training_count(self.data.len(), fraction);
        self
    }

    /// How many positions train the weights.
    pub fn training_len(&self) -> usize {
        self.training
    }

    /// How many positions are held out.
    pub fn held_out_len(&self) -> usize {
        self.data.len() - self.training
    }

    /// `(eval with weights, result)` of the first `count` positions, for [`fit_k`].
    pub fn eval_result_pairs(
        data: &Dataset,
        weights: &[[f64; 2]],
        count: usize,
    ) -> Vec<(f64, f64)> {
        data.positions()
            .take(count)
            .map(|p| (eval(&p, weights), f64::from(p.result)))
            .collect()
    }

    /// The mean loss over the training positions.
    pub fn loss(&self, weights: &[[f64; 2]], threads: usize) -> f64 {
        self.mean_loss(0, self.training, weights, threads)
    }

    /// The mean loss over the held-out positions, if any are held out.
    pub fn held_out_loss(&self, weights: &[[f64; 2]], threads: usize) -> Option<f64> {
        (self.held_out_len() > 0)
            .then(|| self.mean_loss(self.training, self.held_out_len(), weights, threads))
    }

    /// The mean loss over the `len` positions from `first`.
    fn mean_loss(&self, first: usize, len: usize, weights: &[[f64; 2]], threads: usize) -> f64 {
        let sums = map_ranges(len, threads, |range| {
            range
                .map(|n| {
                    let n = first + n;
                    let e = eval(&self.data.position(n), weights);
                    error(e, self.k, f64::from(self.targets[n])).0
                })
                .sum::<f64>()
        });
        sums.iter().sum::<f64>() / len.max(1) as f64
    }

    /// The gradient of the mean loss over the positions `batch`, and that mean loss.
    pub fn gradient(&self, weights: &[[f64; 2]], batch: &[u32], threads: usize) -> (Weights, f64) {
        let parts = map_shares(batch, threads, |share| {
            let mut grad = vec![[0.0; 2]; weights.len()];
            let mut loss = 0.0;
            for &n in share {
                let pos = self.data.position(n as usize);
                let fwd = forward(&pos, weights);
                let (sq, d_eval) = error(fwd.eval, self.k, f64::from(self.targets[n as usize]));
                loss += sq;
                backward(&pos, &fwd, d_eval, &mut grad);
            }
            (grad, loss)
        });
        let mut grad = vec![[0.0; 2]; weights.len()];
        let mut loss = 0.0;
        for (part, part_loss) in parts {
            for (sum, g) in grad.iter_mut().zip(&part) {
                sum[0] += g[0];
                sum[1] += g[1];
            }
            loss += part_loss;
        }
        let scale = 1.0 / batch.len().max(1) as f64;
        for g in &mut grad {
            g[0] *= scale;
            g[1] *= scale;
        }
        (grad, loss * scale)
    }
}

/// Settings of [`train`].
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Passes over the data.
    pub epochs: usize,
    /// Positions per Adam step.
    pub batch_size: usize,
    /// Adam's step size in centipawns.
    pub learning_rate: f64,
    /// Factor applied to the learning rate after each epoch.
    pub decay: f64,
    /// Seed of the shuffles.
    pub seed: u64,
    /// Threads of the gradient and loss passes.
    pub threads: usize,
    /// Strength of the pull of each weight towards its starting value (`l2 * (w -
    /// start)^2` per weight half, added to the loss the steps follow); 0 for none.
    pub l2: f64,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            epochs: 20,
            batch_size: 16384,
            learning_rate: 1.0,
            decay: 0.95,
            seed: 1,
            threads: 1,
            l2: 0.0,
        }
    }
}

/// What [`train`] reports after each epoch.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    /// 1-based epoch number.
    pub epoch: usize,
    /// The loss over the training positions after the epoch.
    pub loss: f64,
    /// The loss over the held-out positions after the epoch, if any are held out.
    pub held_out: Option<f64>,
    /// Whether these are the weights [`train`] returns so far: the lowest held-out loss
    /// yet, or the latest epoch when nothing is held out.
    pub kept: bool,
    /// The learning rate the epoch used.
    pub learning_rate: f64,
    /// Seconds the epoch took (its loss pass included).
    pub seconds: f64,
}

/// Adam's running moments.
struct Adam {
    mean: Weights,
    square: Weights,
    steps: i32,
}

impl Adam {
    fn new(len: usize) -> Adam {
        Adam {
            mean: vec![[0.0; 2]; len],
            square: vec![[0.0; 2]; len],
            steps: 0,
        }
    }

    /// One step against `grad` on the weights `trainable` allows (all if `None`).
    fn step(
        &mut self,
        weights: &mut [[f64; 2]],
        grad: &[[f64; 2]],
        lr: f64,
        trainable: Option<&[bool]>,
    ) {
        self.steps += 1;
        let unbias1 = 1.0 - BETA1.powi(self.steps);
        let unbias2 = 1.0 - BETA2.powi(self.steps);
        for (i, w) in weights.iter_mut().enumerate() {
            if trainable.is_some_and(|mask| !mask.get(i).copied().unwrap_or(false)) {
                continue;
            }
            for half in 0..2 {
                let g = grad[i][half];
                let m = &mut self.mean[i][half];
                let v = &mut self.square[i][half];
                *m = BETA1 * *m + (1.0 - BETA1) * g;
                *v = BETA2 * *v + (1.0 - BETA2) * g * g;
                w[half] -= lr * (*m / unbias1) / ((*v / unbias2).sqrt() + EPSILON);
            }
        }
    }
}

/// Adds the gradient of `l2 * (w - start)^2`, summed over every weight half, to `grad`.
fn pull_towards(grad: &mut [[f64; 2]], weights: &[[f64; 2]], start: &[[f64; 2]], l2: f64) {
    if l2 == 0.0 {
        return;
    }
    for ((g, w), s) in grad.iter_mut().zip(weights).zip(start) {
        for half in 0..2 {
            g[half] += 2.0 * l2 * (w[half] - s[half]);
        }
    }
}

/// Minimises the training loss of `problem` with Adam from `start` (one `[mg, eg]` pair per
/// flat index), changing only the weights `trainable` marks (one flag per flat index; all
/// when `None`). Returns the weights of the last epoch, or with held-out positions those of
/// the epoch with the lowest held-out loss. Calls `on_epoch` after every epoch.
/// Deterministic for a given configuration (thread count included).
pub fn train(
    problem: &Problem,
    start: &[[f64; 2]],
    trainable: Option<&[bool]>,
    config: &TrainConfig,
    mut on_epoch: impl FnMut(&EpochReport),
) -> Weights {
    let mut weights = start.to_vec();
    let mut adam = Adam::new(weights.len());
    let mut rng = SplitMix64::new(config.seed);
    let mut order: Vec<u32> = (0..problem.training as u32).collect();
    let mut best: Option<(f64, Weights)> = None;
    let mut lr = config.learning_rate;
    for epoch in 1..=config.epochs {
        let started = Instant::now();
        rng.shuffle(&mut order);
        for batch in order.chunks(config.batch_size.max(1)) {
            let (mut grad, _) = problem.gradient(&weights, batch, config.threads);
            pull_towards(&mut grad, &weights, start, config.l2);
            adam.step(&mut weights, &grad, lr, trainable);
        }
        let held_out = problem.held_out_loss(&weights, config.threads);
        let kept = match held_out {
            None => true,
            Some(loss) => best.as_ref().is_none_or(|(lowest, _)| loss < *lowest),
        };
        if let (true, Some(loss)) = (kept, held_out) {
            best = Some((loss, weights.clone()));
        }
        on_epoch(&EpochReport {
            epoch,
            loss: problem.loss(&weights, config.threads),
            held_out,
            kept,
            learning_rate: lr,
            seconds: started.elapsed().as_secs_f64(),
        });
        lr *= config.decay;
    }
    best.map_or(weights, |(_, kept)| kept)
}
