//! The float network the trainer fits, with its sparse forward and backward passes.
//!
//! Per perspective `acc = b + Σ W[f]` over the active features (`H` units, one set of
//! weights for both perspectives); `act = clamp(acc, 0, 1)²` (SCReLU);
//! `out = Σ act_stm · ow_b[..H] + Σ act_nstm · ow_b[H..] + ob_b`, where `b` is the output
//! bucket of the position's piece count (`file::output_bucket`); the prediction is
//! `sigmoid(out)` and the evaluation `out · 400` centipawns for the side to move. The
//! network learns to lower `|sigmoid(out) − target|^p` ([`Objective`]; `p` = 2 unless
//! `--loss-power` says otherwise); the loss it reports is the squared error `(sigmoid(out)
//! − target)²` whatever `p`, so that the losses of all runs compare.
//!
//! All parameters live in one flat vector (see [`Network`]) so that the optimiser, the
//! gradient buffers and their reduction are plain loops over slices.

use cozy_chess::Board;

use super::data::{Record, MAX_FEATURES};
use crate::nnue::file::{output_bucket, Inputs, INPUTS, SCALE};
use crate::rng::SplitMix64;

/// Lanes of the partial sums in dot products, so that they vectorise (floating-point
/// addition is not associative, so the compiler will not reorder one running sum).
const LANES: usize = 8;
/// Units per tile of the sparse passes (see [`accumulate`]); hidden sizes are multiples.
const TILE: usize = 16;

/// A float network: `params` holds, in order, the feature weights (`INPUTS × hidden`,
/// feature-major), the feature biases (`hidden`), the output weights (`buckets × 2 ×
/// hidden`, per bucket the side to move's half first) and the output biases (`buckets`).
#[derive(Debug, Clone, PartialEq)]
pub struct Network {
    hidden: usize,
    buckets: usize,
    /// How the inputs see the board (plain unless set by [`Network::with_inputs`]).
    inputs: Inputs,
    pub params: Vec<f32>,
}

impl Network {
    /// A network of `hidden` units (a positive multiple of 16) and `buckets` output
    /// buckets with seeded random weights: feature weights uniform in ±1/√32 (32 = the
    /// most active inputs, the effective fan-in of the sparse layer, so an accumulator
    /// starts with a spread of about ±0.5), output weights uniform in ±1/√(2H), biases zero.
    pub fn new(hidden: usize, buckets: usize, seed: u64) -> Network {
        assert!(
            hidden > 0 && hidden.is_multiple_of(TILE),
            "hidden must be a multiple of 16"
        );
        assert!(buckets > 0, "a network has at least one output bucket");
        let mut net = Network {
            hidden,
            buckets,
            inputs: Inputs::Plain,
            params: vec![0.0; Network::param_count(hidden, buckets)],
        };
        let mut rng = SplitMix64::new(seed);
        let mut uniform = |bound: f32| ((2.0 * rng.unit() - 1.0) as f32) * bound;
        let feature_bound = 1.0 / (MAX_FEATURES as f32).sqrt();
        for w in &mut net.params[..INPUTS * hidden] {
            *w = uniform(feature_bound);
        }
        let output_bound = 1.0 / ((2 * hidden) as f32).sqrt();
        let output = net.output_start();
        for w in &mut net.params[output..output + buckets * 2 * hidden] {
            *w = uniform(output_bound);
        }
        net
    }

    /// A network with the given flat parameters (see the type's comment for the layout).
    pub fn from_params(hidden: usize, buckets: usize, params: Vec<f32>) -> Network {
        assert_eq!(params.len(), Network::param_count(hidden, buckets));
        Network {
            hidden,
            buckets,
            inputs: Inputs::Plain,
            params,
        }
    }

    /// This network with the input layout `inputs` (the weights unchanged).
    pub fn with_inputs(mut self, inputs: Inputs) -> Network {
        self.inputs = inputs;
        self
    }

    /// How the inputs see the board.
    pub fn inputs(&self) -> Inputs {
        self.inputs
    }

    /// The number of parameters of a network of `hidden` units and `buckets` buckets.
    pub fn param_count(hidden: usize, buckets: usize) -> usize {
        INPUTS * hidden + hidden + buckets * (2 * hidden + 1)
    }

    /// This one-bucket network with its output layer copied into each of `buckets`
    /// buckets: the same function, ready to learn a different output per bucket.
    pub fn with_buckets(&self, buckets: usize) -> Network {
        assert_eq!(self.buckets, 1, "only a one-bucket network is split");
        let mut params = self.params[..self.output_start()].to_vec();
        for _ in 0..buckets {
            params.extend_from_slice(self.output_weights());
        }
        params.extend(std::iter::repeat_n(self.output_bias()[0], buckets));
        Network::from_params(self.hidden, buckets, params).with_inputs(self.inputs)
    }

    /// This network with `hidden` units instead of its own (no fewer): the extra units
    /// get random feature weights as [`Network::new`] draws them (seed `seed`) and zero
    /// output weights, so the widened network computes the same function and the new
    /// units start to learn from the first step.
    pub fn widened(&self, hidden: usize, seed: u64) -> Network {
        assert!(hidden >= self.hidden, "a network is only widened");
        let old = self.hidden;
        let mut wide = Network::new(hidden, self.buckets, seed).with_inputs(self.inputs);
        for (wide_row, row) in wide.params[..INPUTS * hidden]
            .chunks_exact_mut(hidden)
            .zip(self.feature_weights().chunks_exact(old))
        {
            wide_row[..old].copy_from_slice(row);
        }
        let bias_start = wide.bias_start();
        wide.params[bias_start..bias_start + old].copy_from_slice(self.feature_bias());
        let output_start = wide.output_start();
        for (wide_half, half) in wide.params[output_start..output_start + self.buckets * 2 * hidden]
            .chunks_exact_mut(hidden)
            .zip(self.output_weights().chunks_exact(old))
        {
            wide_half[..old].copy_from_slice(half);
            wide_half[old..].fill(0.0);
        }
        let output_bias_start = wide.output_bias_start();
        wide.params[output_bias_start..].copy_from_slice(self.output_bias());
        wide
    }

    pub fn hidden(&self) -> usize {
        self.hidden
    }

    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// Where the feature biases start in `params`.
    pub fn bias_start(&self) -> usize {
        INPUTS * self.hidden
    }

    /// Where the output weights start in `params`.
    pub fn output_start(&self) -> usize {
        INPUTS * self.hidden + self.hidden
    }

    /// Where the output biases start in `params` (the last `buckets` parameters).
    pub fn output_bias_start(&self) -> usize {
        self.params.len() - self.buckets
    }

    pub fn feature_weights(&self) -> &[f32] {
        &self.params[..self.bias_start()]
    }

    pub fn feature_bias(&self) -> &[f32] {
        &self.params[self.bias_start()..self.output_start()]
    }

    pub fn output_weights(&self) -> &[f32] {
        &self.params[self.output_start()..self.output_bias_start()]
    }

    pub fn output_bias(&self) -> &[f32] {
        &self.params[self.output_bias_start()..]
    }

    /// The raw output for a record (before the sigmoid; × 400 for centipawns).
    pub fn output(&self, record: &Record, scratch: &mut Scratch) -> f32 {
        self.forward(record, scratch).0
    }

    /// The evaluation of `board` in centipawns for the side to move.
    pub fn evaluate(&self, board: &Board) -> f32 {
        let record = Record::new(board, 0, 1);
        self.output(&record, &mut Scratch::new(self.hidden)) * SCALE as f32
    }

    /// Fills the scratch accumulators and feature lists for `record` and returns the
    /// output and the output bucket it went through.
    #[inline]
    fn forward(&self, record: &Record, scratch: &mut Scratch) -> (f32, usize) {
        let h = self.hidden;
        // One feature per piece, kings included.
        let count = record.views(
            self.inputs,
            &mut scratch.stm_features,
            &mut scratch.nstm_features,
        );
        let bucket = output_bucket(count, self.buckets);
        let weights = self.feature_weights();
        let bias = self.feature_bias();
        accumulate(
            &mut scratch.stm,
            bias,
            weights,
            &scratch.stm_features[..count],
            h,
        );
        accumulate(
            &mut scratch.nstm,
            bias,
            weights,
            &scratch.nstm_features[..count],
            h,
        );
        let (ow_stm, ow_nstm) = self.bucket_weights(bucket).split_at(h);
        let out = screlu_dot(&scratch.stm, ow_stm)
            + screlu_dot(&scratch.nstm, ow_nstm)
            + self.output_bias()[bucket];
        (out, bucket)
    }

    /// The output weights of `bucket`, the side to move's half first.
    fn bucket_weights(&self, bucket: usize) -> &[f32] {
        let h = self.hidden;
        &self.output_weights()[bucket * 2 * h..(bucket + 1) * 2 * h]
    }

    /// Adds `scale ×` the gradient of `objective` on each record to `grad` (laid out like
    /// `params`) and returns the summed (unscaled) squared error.
    pub fn add_gradient(
        &self,
        records: &[Record],
        objective: Objective,
        scale: f32,
        grad: &mut [f32],
        scratch: &mut Scratch,
    ) -> f64 {
        assert_eq!(grad.len(), self.params.len());
        let h = self.hidden;
        let (bias_start, output_start) = (self.bias_start(), self.output_start());
        let output_bias_start = self.output_bias_start();
        let mut loss = 0.0;
        for record in records {
            let (out, bucket) = self.forward(record, scratch);
            let (ow_stm, ow_nstm) = self.bucket_weights(bucket).split_at(h);
            let prediction = sigmoid(out);
            let (squared, gradient) =
                objective.error_and_gradient(prediction, record.target(objective.wdl));
            loss += squared;
            let d_out = gradient * scale;

            let (grad_features, rest) = grad.split_at_mut(bias_start);
            let (grad_bias, rest) = rest.split_at_mut(output_start - bias_start);
            let (grad_ow, grad_ob) = rest.split_at_mut(output_bias_start - output_start);
            grad_ob[bucket] += d_out;
            let grad_ow = &mut grad_ow[bucket * 2 * h..(bucket + 1) * 2 * h];
            let (grad_ow_stm, grad_ow_nstm) = grad_ow.split_at_mut(h);
            // The accumulators become the gradients with respect to themselves.
            backward_output(&mut scratch.stm, ow_stm, grad_ow_stm, d_out);
            backward_output(&mut scratch.nstm, ow_nstm, grad_ow_nstm, d_out);
            for ((b, s), n) in grad_bias.iter_mut().zip(&scratch.stm).zip(&scratch.nstm) {
                *b += s + n;
            }
            let count = record.white_features().len();
            scatter(
                grad_features,
                &scratch.stm,
                &scratch.stm_features[..count],
                h,
            );
            scatter(
                grad_features,
                &scratch.nstm,
                &scratch.nstm_features[..count],
                h,
            );
        }
        loss
    }

    /// The summed loss of `records`.
    pub fn loss(&self, records: &[Record], wdl: f32, scratch: &mut Scratch) -> f64 {
        records
            .iter()
            .map(|record| {
                let error = sigmoid(self.forward(record, scratch).0) - record.target(wdl);
                f64::from(error * error)
            })
            .sum()
    }
}

/// Per-thread working memory of the passes.
#[derive(Debug, Clone)]
pub struct Scratch {
    stm: Vec<f32>,
    nstm: Vec<f32>,
    stm_features: [u16; MAX_FEATURES],
    nstm_features: [u16; MAX_FEATURES],
}

impl Scratch {
    pub fn new(hidden: usize) -> Scratch {
        Scratch {
            stm: vec![0.0; hidden],
            nstm: vec![0.0; hidden],
            stm_features: [0; MAX_FEATURES],
            nstm_features: [0; MAX_FEATURES],
        }
    }
}

/// What training minimises: `|sigmoid(out) − target|^power`, with the target
/// `wdl · result + (1 − wdl) · sigmoid(score / 400)` (`Record::target`). A power above 2
/// weighs large errors more than the squared error does.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Objective {
    pub wdl: f32,
    pub power: f32,
}

impl Objective {
    /// A position's squared error, and the derivative of `|error|^power` with respect to
    /// the raw output `out` (through the sigmoid), for a prediction `sigmoid(out)`.
    #[inline(always)]
    pub fn error_and_gradient(self, prediction: f32, target: f32) -> (f64, f32) {
        let error = prediction - target;
        let gradient = self.slope(error) * prediction * (1.0 - prediction);
        (f64::from(error * error), gradient)
    }

    /// The derivative of `|error|^power` with respect to the prediction.
    #[inline(always)]
    fn slope(self, error: f32) -> f32 {
        if self.power == 2.0 {
            2.0 * error
        } else {
            self.power * error.abs().powf(self.power - 1.0) * error.signum()
        }
    }
}

#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// `acc = bias + Σ weights[f]` over `features`, one tile of units at a time so that the
/// tile's partial sums stay in registers across the features.
#[inline(always)]
fn accumulate(acc: &mut [f32], bias: &[f32], weights: &[f32], features: &[u16], h: usize) {
    for (tile, (acc, bias)) in acc
        .chunks_exact_mut(TILE)
        .zip(bias.chunks_exact(TILE))
        .enumerate()
    {
        let mut sums = [0.0f32; TILE];
        sums.copy_from_slice(bias);
        for &feature in features {
            let row = &weights[usize::from(feature) * h + tile * TILE..][..TILE];
            for (s, w) in sums.iter_mut().zip(row) {
                *s += w;
            }
        }
        acc.copy_from_slice(&sums);
    }
}

/// `Σ clamp(acc, 0, 1)² · w`.
#[inline(always)]
pub(super) fn screlu_dot(acc: &[f32], weights: &[f32]) -> f32 {
    let mut lanes = [0.0f32; LANES];
    for (a, w) in acc.chunks_exact(LANES).zip(weights.chunks_exact(LANES)) {
        for i in 0..LANES {
            let c = a[i].clamp(0.0, 1.0);
            lanes[i] += c * c * w[i];
        }
    }
    lanes.iter().sum()
}

/// Given `d_out`, adds the output weights' gradient `d_out · act` to `grad_w` and turns
/// `acc` into the gradient of the output with respect to it: `d_out · w · 2·acc` inside
/// (0, 1), zero outside.
#[inline(always)]
pub(super) fn backward_output(acc: &mut [f32], weights: &[f32], grad_w: &mut [f32], d_out: f32) {
    for ((a, w), g) in acc.iter_mut().zip(weights).zip(grad_w) {
        let x = *a;
        let c = x.clamp(0.0, 1.0);
        *g += d_out * c * c;
        let slope = if x > 0.0 && x < 1.0 { 2.0 * x } else { 0.0 };
        *a = d_out * w * slope;
    }
}

/// `grad[f] += g` for every feature row `f` in `features`, one tile of units at a time so
/// that the tile of `g` stays in registers.
#[inline(always)]
fn scatter(grad: &mut [f32], g: &[f32], features: &[u16], h: usize) {
    for (tile, g) in g.chunks_exact(TILE).enumerate() {
        let mut values = [0.0f32; TILE];
        values.copy_from_slice(g);
        for &feature in features {
            let row = &mut grad[usize::from(feature) * h + tile * TILE..][..TILE];
            for (r, x) in row.iter_mut().zip(&values) {
                *r += x;
            }
        }
    }
}
