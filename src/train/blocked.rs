//! The gradient of a batch computed in an order that keeps its data in the CPU's L2 cache.
//!
//! At 256 units the feature weights (768 × 256 floats, 768 KiB) and their gradient (as
//! much again) do not fit in a core's L2 cache (512 KiB on Zen 3), and each position reads
//! about 60 rows of each at random, so the per-position passes of
//! [`Network::add_gradient`] wait on the L3 cache. Here the hidden units are cut into
//! *blocks* of [`BLOCK`] units, the feature weights and their gradient are stored block
//! by block (block `k`'s rows for every feature, then block `k + 1`'s: [`to_blocked`]), and
//! the positions go through in *groups* of [`GROUP`]: the forward pass of a group runs
//! block by block over all its positions, then the backward pass likewise, so that one
//! block's weights or gradient rows (192 KiB) and the group's accumulators for it stay in
//! L2 while the group's positions use them.
//!
//! The result is the gradient [`Network::add_gradient`] gives, with the feature-weight part
//! in the blocked layout. The feature sums and every gradient sum add the same terms in
//! the same order; only the output of a position is summed block by block, so it (and so
//! every gradient) may differ from the per-position pass in the last bits.

use super::data::{Record, MAX_FEATURES};
use super::model::{backward_output, screlu_dot, sigmoid, Network, Objective};
use crate::nnue::file::{output_bucket, INPUTS};
use crate::nnue::simd::Backend;

/// Units per block; the blocked passes need a hidden size that is a multiple of it.
pub const BLOCK: usize = 64;
/// Positions per group: its accumulators for one block take `GROUP × 2 × BLOCK` floats
/// (64 KiB), beside the block's 192 KiB of weights.
pub const GROUP: usize = 128;

/// The units of one block: of one feature's weights or gradient, or of one accumulator.
/// Aligned to 32 bytes so that the compiler knows 256-bit loads and stores of it are
/// aligned (for an x86-64-v2 target it splits 256-bit accesses it cannot prove aligned
/// into two 128-bit halves).
#[repr(C, align(32))]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Block(pub [f32; BLOCK]);

impl Default for Block {
    fn default() -> Block {
        Block([0.0; BLOCK])
    }
}

/// Whether the blocked passes handle a network of `hidden` units.
pub fn supports(hidden: usize) -> bool {
    hidden.is_multiple_of(BLOCK)
}

/// Copies feature weights (or their gradient) from the network's layout (`INPUTS` rows of
/// `hidden`) into the blocked one: block `k` of feature `f` at `k · INPUTS + f`.
pub fn to_blocked(rows: &[f32], blocked: &mut [Block], hidden: usize) {
    assert!(supports(hidden));
    assert_eq!(rows.len(), INPUTS * hidden);
    assert_eq!(blocked.len() * BLOCK, rows.len());
    for (k, block) in blocked.chunks_exact_mut(INPUTS).enumerate() {
        for (segment, row) in block.iter_mut().zip(rows.chunks_exact(hidden)) {
            segment.0.copy_from_slice(&row[k * BLOCK..(k + 1) * BLOCK]);
        }
    }
}

/// Copies feature weights (or their gradient) from the blocked layout back into the
/// network's.
pub fn from_blocked(blocked: &[Block], rows: &mut [f32], hidden: usize) {
    assert!(supports(hidden));
    assert_eq!(rows.len(), INPUTS * hidden);
    assert_eq!(blocked.len() * BLOCK, rows.len());
    for (k, block) in blocked.chunks_exact(INPUTS).enumerate() {
        for (segment, row) in block.iter().zip(rows.chunks_exact_mut(hidden)) {
            row[k * BLOCK..(k + 1) * BLOCK].copy_from_slice(&segment.0);
        }
    }
}

/// A gradient in the blocked passes' layout: the feature weights' part blocked, the rest
/// (feature biases, output weights, output biases) laid out as in `Network::params`.
#[derive(Debug, Clone, PartialEq)]
pub struct Gradient {
    pub features: Vec<Block>,
    pub rest: Vec<f32>,
}

impl Gradient {
    /// A zero gradient for `net`.
    pub fn new(net: &Network) -> Gradient {
        Gradient {
            features: vec![Block::default(); net.bias_start() / BLOCK],
            rest: vec![0.0; net.params.len() - net.bias_start()],
        }
    }

    pub fn clear(&mut self) {
        self.features.fill(Block::default());
        self.rest.fill(0.0);
    }

    /// Adds `other` into this gradient.
    pub fn add(&mut self, other: &Gradient) {
        for (block, other) in self.features.iter_mut().zip(&other.features) {
            for (g, o) in block.0.iter_mut().zip(&other.0) {
                *g += o;
            }
        }
        for (g, o) in self.rest.iter_mut().zip(&other.rest) {
            *g += o;
        }
    }

    /// Writes this gradient in the network's layout into `flat`.
    pub fn write_flat(&self, flat: &mut [f32], hidden: usize) {
        let (features, rest) = flat.split_at_mut(self.features.len() * BLOCK);
        from_blocked(&self.features, features, hidden);
        rest.copy_from_slice(&self.rest);
    }
}

/// One position of a group: its features from each side's view, its output bucket, its
/// target and, once computed, its output and the output's gradient.
#[derive(Debug, Clone, Copy)]
struct Position {
    stm: [u16; MAX_FEATURES],
    nstm: [u16; MAX_FEATURES],
    count: usize,
    bucket: usize,
    target: f32,
    out: f32,
    d_out: f32,
}

/// Per-thread working memory of the blocked passes.
#[derive(Debug, Clone)]
pub struct GroupScratch {
    positions: Vec<Position>,
    /// The accumulators, block-major: block `k`, position `p`, side `s` (side to move 0)
    /// at `(k · GROUP + p) · 2 + s`. The backward pass turns them into their gradients.
    acc: Vec<Block>,
}

impl GroupScratch {
    pub fn new(hidden: usize) -> GroupScratch {
        GroupScratch {
            positions: Vec::with_capacity(GROUP),
            acc: vec![Block::default(); GROUP * 2 * hidden / BLOCK],
        }
    }
}

/// Adds `scale ×` the gradient of `objective` on each record to `grad` and returns the
/// summed squared error; `weights` are `net`'s feature weights in the blocked layout
/// ([`to_blocked`]). Runs the AVX2 build of the passes where the CPU has AVX2.
pub fn add_gradient(
    net: &Network,
    weights: &[Block],
    records: &[Record],
    objective: Objective,
    scale: f32,
    grad: &mut Gradient,
    scratch: &mut GroupScratch,
) -> f64 {
    let pass = Pass {
        net,
        weights,
        objective,
        scale,
    };
    pass.add_gradient(Backend::detected(), records, grad, scratch)
}

/// What every group's passes share.
pub struct Pass<'a> {
    pub net: &'a Network,
    /// The feature weights, blocked.
    pub weights: &'a [Block],
    pub objective: Objective,
    pub scale: f32,
}

impl Pass<'_> {
    /// [`add_gradient`] with the kernels of `backend` (the portable ones where the CPU
    /// lacks it).
    pub fn add_gradient(
        &self,
        backend: Backend,
        records: &[Record],
        grad: &mut Gradient,
        scratch: &mut GroupScratch,
    ) -> f64 {
        let h = self.net.hidden();
        assert!(supports(h));
        assert_eq!(self.weights.len() * BLOCK, INPUTS * h);
        assert_eq!(grad.features.len(), self.weights.len());
        assert_eq!(
            grad.rest.len(),
            self.net.params.len() - self.net.bias_start()
        );
        assert!(scratch.acc.len() * BLOCK >= GROUP * 2 * h);
        let avx2 = (backend == Backend::Avx2).then(Avx2::detect).flatten();
        let mut loss = 0.0;
        for group in records.chunks(GROUP) {
            loss += match avx2 {
                Some(avx2) => avx2.group_gradient(self, group, grad, scratch),
                None => self.group_gradient(Portable, group, grad, scratch),
            };
        }
        loss
    }

    /// The gradient of one group of at most [`GROUP`] records, its feature rows summed
    /// and scattered by `kernels`.
    #[inline(always)]
    fn group_gradient<K: Kernels>(
        &self,
        kernels: K,
        group: &[Record],
        grad: &mut Gradient,
        scratch: &mut GroupScratch,
    ) -> f64 {
        self.prepare(group, &mut scratch.positions);
        self.forward(kernels, scratch);
        let loss = self.output_gradient(grad, &mut scratch.positions);
        self.backward(kernels, grad, scratch);
        loss
    }

    /// Each record's features, bucket and target, with its output set to the bucket's
    /// bias.
    #[inline(always)]
    fn prepare(&self, group: &[Record], positions: &mut Vec<Position>) {
        positions.clear();
        for record in group {
            let mut position = Position {
                stm: [0; MAX_FEATURES],
                nstm: [0; MAX_FEATURES],
                count: 0,
                bucket: 0,
                target: record.target(self.objective.wdl),
                out: 0.0,
                d_out: 0.0,
            };
            position.count = record.views(self.net.inputs(), &mut position.stm, &mut position.nstm);
            position.bucket = output_bucket(position.count, self.net.buckets());
            position.out = self.net.output_bias()[position.bucket];
            positions.push(position);
        }
    }

    /// Fills the accumulators block by block and adds each block's share of the output.
    #[inline(always)]
    fn forward<K: Kernels>(&self, kernels: K, scratch: &mut GroupScratch) {
        let h = self.net.hidden();
        let output_weights = self.net.output_weights();
        let (biases, _) = self.net.feature_bias().as_chunks::<BLOCK>();
        for (k, rows) in self.weights.chunks_exact(INPUTS).enumerate() {
            let bias = &biases[k];
            for (p, position) in scratch.positions.iter_mut().enumerate() {
                let (stm, nstm) = pair(&mut scratch.acc, k * GROUP + p);
                kernels.accumulate(stm, bias, rows, &position.stm[..position.count]);
                kernels.accumulate(nstm, bias, rows, &position.nstm[..position.count]);
                let weights = &output_weights[position.bucket * 2 * h..][..2 * h];
                position.out += screlu_dot(&stm.0, &weights[k * BLOCK..][..BLOCK])
                    + screlu_dot(&nstm.0, &weights[h + k * BLOCK..][..BLOCK]);
            }
        }
    }

    /// Each position's squared error and the gradient of its output (`d_out`, scaled),
    /// added to its bucket's output bias; returns the summed squared error.
    #[inline(always)]
    fn output_gradient(&self, grad: &mut Gradient, positions: &mut [Position]) -> f64 {
        let output_bias_start = self.net.output_bias_start() - self.net.bias_start();
        let mut loss = 0.0;
        for position in positions {
            let prediction = sigmoid(position.out);
            let (squared, gradient) = self
                .objective
                .error_and_gradient(prediction, position.target);
            loss += squared;
            position.d_out = gradient * self.scale;
            grad.rest[output_bias_start + position.bucket] += position.d_out;
        }
        loss
    }

    /// Block by block: the output weights' and feature biases' gradients, and the
    /// accumulators' gradients scattered into the rows of the active features.
    #[inline(always)]
    fn backward<K: Kernels>(&self, kernels: K, grad: &mut Gradient, scratch: &mut GroupScratch) {
        let h = self.net.hidden();
        let output_weights = self.net.output_weights();
        let (grad_bias, rest) = grad.rest.split_at_mut(h);
        let grad_output = &mut rest[..output_weights.len()];
        let (grad_biases, _) = grad_bias.as_chunks_mut::<BLOCK>();
        for (k, rows) in grad.features.chunks_exact_mut(INPUTS).enumerate() {
            let grad_bias = &mut grad_biases[k];
            for (p, position) in scratch.positions.iter().enumerate() {
                let (stm, nstm) = pair(&mut scratch.acc, k * GROUP + p);
                let start = position.bucket * 2 * h;
                let weights = &output_weights[start..][..2 * h];
                let (grad_stm, grad_nstm) = grad_output[start..][..2 * h].split_at_mut(h);
                let (at, d_out) = (k * BLOCK, position.d_out);
                backward_output(
                    &mut stm.0,
                    &weights[at..][..BLOCK],
                    &mut grad_stm[at..][..BLOCK],
                    d_out,
                );
                backward_output(
                    &mut nstm.0,
                    &weights[h + at..][..BLOCK],
                    &mut grad_nstm[at..][..BLOCK],
                    d_out,
                );
                for ((b, s), n) in grad_bias.iter_mut().zip(&stm.0).zip(&nstm.0) {
                    *b += s + n;
                }
                kernels.scatter(rows, stm, &position.stm[..position.count]);
                kernels.scatter(rows, nstm, &position.nstm[..position.count]);
            }
        }
    }
}

/// The two accumulators (side to move, other side) of entry `index` (block · GROUP +
/// position).
#[inline(always)]
fn pair(acc: &mut [Block], index: usize) -> (&mut Block, &mut Block) {
    let (stm, nstm) = acc[2 * index..2 * index + 2].split_at_mut(1);
    (&mut stm[0], &mut nstm[0])
}

/// The two inner loops of the passes, over the rows of a position's active features.
trait Kernels: Copy {
    /// `acc = bias + Σ rows[f]` over `features`.
    fn accumulate(self, acc: &mut Block, bias: &[f32; BLOCK], rows: &[Block], features: &[u16]);
    /// `rows[f] += g` for every `f` in `features`.
    fn scatter(self, rows: &mut [Block], g: &Block, features: &[u16]);
}

/// Portable Rust, in tiles of 32 units (eight 128-bit registers on x86-64).
#[derive(Debug, Clone, Copy)]
struct Portable;

/// Units per tile of the portable kernels.
const PORTABLE_TILE: usize = 32;

impl Kernels for Portable {
    #[inline(always)]
    fn accumulate(self, acc: &mut Block, bias: &[f32; BLOCK], rows: &[Block], features: &[u16]) {
        accumulate::<PORTABLE_TILE>(acc, bias, rows, features);
    }

    #[inline(always)]
    fn scatter(self, rows: &mut [Block], g: &Block, features: &[u16]) {
        scatter::<PORTABLE_TILE>(rows, g, features);
    }
}

/// `acc = bias + Σ rows[f]` over `features`, one tile of `T` units at a time so that the
/// tile's sums stay in registers across the features.
#[inline(always)]
fn accumulate<const T: usize>(
    acc: &mut Block,
    bias: &[f32; BLOCK],
    rows: &[Block],
    features: &[u16],
) {
    let (acc_tiles, _) = acc.0.as_chunks_mut::<T>();
    let (bias_tiles, _) = bias.as_chunks::<T>();
    for (t, (acc, bias)) in acc_tiles.iter_mut().zip(bias_tiles).enumerate() {
        let mut sums = *bias;
        for &feature in features {
            let row = &rows[usize::from(feature)].0.as_chunks::<T>().0[t];
            for (s, w) in sums.iter_mut().zip(row) {
                *s += w;
            }
        }
        *acc = sums;
    }
}

/// `rows[f] += g` for every feature `f` in `features`, one tile of `T` units at a time so
/// that the tile of `g` stays in registers.
#[inline(always)]
fn scatter<const T: usize>(rows: &mut [Block], g: &Block, features: &[u16]) {
    let (g_tiles, _) = g.0.as_chunks::<T>();
    for (t, values) in g_tiles.iter().enumerate() {
        for &feature in features {
            let row = &mut rows[usize::from(feature)].0.as_chunks_mut::<T>().0[t];
            for (r, x) in row.iter_mut().zip(values) {
                *r += x;
            }
        }
    }
}

/// AVX2 kernels: a whole block in eight 256-bit registers, with aligned loads and stores
/// ([`Block`] is 32-byte aligned; the compiler, tuned for x86-64-v2, would split the
/// unaligned 256-bit accesses of auto-vectorised code into 128-bit halves). A value of this
/// type exists only where the CPU has AVX2.
#[derive(Debug, Clone, Copy)]
struct Avx2(());

impl Avx2 {
    /// The AVX2 kernels, where the CPU has AVX2.
    fn detect() -> Option<Avx2> {
        (cfg!(target_arch = "x86_64") && Backend::Avx2.is_supported()).then_some(Avx2(()))
    }

    /// [`Pass::group_gradient`] with these kernels.
    fn group_gradient(
        self,
        pass: &Pass,
        group: &[Record],
        grad: &mut Gradient,
        scratch: &mut GroupScratch,
    ) -> f64 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: an `Avx2` exists only where the CPU has AVX2 (`Avx2::detect`).
        return unsafe { avx2::group_gradient(self, pass, group, grad, scratch) };
        // Never reached off x86-64 (`Avx2::detect` gives none there).
        #[cfg(not(target_arch = "x86_64"))]
        pass.group_gradient(self, group, grad, scratch)
    }
}

#[cfg(target_arch = "x86_64")]
impl Kernels for Avx2 {
    #[inline(always)]
    fn accumulate(self, acc: &mut Block, bias: &[f32; BLOCK], rows: &[Block], features: &[u16]) {
        // SAFETY: an `Avx2` exists only where the CPU has AVX2 (`Avx2::detect`).
        unsafe { avx2::accumulate(acc, bias, rows, features) }
    }

    #[inline(always)]
    fn scatter(self, rows: &mut [Block], g: &Block, features: &[u16]) {
        // SAFETY: an `Avx2` exists only where the CPU has AVX2 (`Avx2::detect`).
        unsafe { avx2::scatter(rows, g, features) }
    }
}

/// Never reached off x86-64 (`Avx2::detect` gives none there).
#[cfg(not(target_arch = "x86_64"))]
impl Kernels for Avx2 {
    fn accumulate(self, acc: &mut Block, bias: &[f32; BLOCK], rows: &[Block], features: &[u16]) {
        Portable.accumulate(acc, bias, rows, features);
    }

    fn scatter(self, rows: &mut [Block], g: &Block, features: &[u16]) {
        Portable.scatter(rows, g, features);
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::{
        __m256, _mm256_add_ps, _mm256_load_ps, _mm256_loadu_ps, _mm256_store_ps,
    };

    use super::{Avx2, Block, Gradient, GroupScratch, Pass, Record, BLOCK};

    /// 256-bit registers per block.
    const REGISTERS: usize = BLOCK / 8;

    /// The group's passes compiled for AVX2 (the code around the kernels in 256-bit
    /// registers too).
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn group_gradient(
        kernels: Avx2,
        pass: &Pass,
        group: &[Record],
        grad: &mut Gradient,
        scratch: &mut GroupScratch,
    ) -> f64 {
        pass.group_gradient(kernels, group, grad, scratch)
    }

    /// `acc = bias + Σ rows[f]` over `features`, the block's sums in registers.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn accumulate(
        acc: &mut Block,
        bias: &[f32; BLOCK],
        rows: &[Block],
        features: &[u16],
    ) {
        let mut sums: [__m256; REGISTERS] = std::array::from_fn(|i| {
            // SAFETY: 8 floats of `bias` at 8·i, i < BLOCK / 8; an unaligned load.
            unsafe { _mm256_loadu_ps(bias.as_ptr().add(8 * i)) }
        });
        for &feature in features {
            let row = rows[usize::from(feature)].0.as_ptr();
            for (i, sum) in sums.iter_mut().enumerate() {
                // SAFETY: 8 floats of the row at 8·i, i < BLOCK / 8, 32-byte aligned (a
                // `Block` is) as the aligned load needs.
                *sum = _mm256_add_ps(*sum, unsafe { _mm256_load_ps(row.add(8 * i)) });
            }
        }
        let out = acc.0.as_mut_ptr();
        for (i, sum) in sums.iter().enumerate() {
            // SAFETY: 8 floats of `acc` at 8·i, i < BLOCK / 8, 32-byte aligned.
            unsafe { _mm256_store_ps(out.add(8 * i), *sum) };
        }
    }

    /// `rows[f] += g` for every `f` in `features`, `g` in registers.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn scatter(rows: &mut [Block], g: &Block, features: &[u16]) {
        let values: [__m256; REGISTERS] = std::array::from_fn(|i| {
            // SAFETY: 8 floats of `g` at 8·i, i < BLOCK / 8, 32-byte aligned (a `Block` is).
            unsafe { _mm256_load_ps(g.0.as_ptr().add(8 * i)) }
        });
        for &feature in features {
            let row = rows[usize::from(feature)].0.as_mut_ptr();
            for (i, value) in values.iter().enumerate() {
                // SAFETY: 8 floats of the row at 8·i, i < BLOCK / 8, 32-byte aligned.
                unsafe {
                    let sum = _mm256_add_ps(_mm256_load_ps(row.add(8 * i)), *value);
                    _mm256_store_ps(row.add(8 * i), sum);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// Random weights in ±1 and `count` lists of 2 to 32 distinct random features.
    fn random_rows_and_features(seed: u64, count: usize) -> (Vec<Block>, Vec<Vec<u16>>) {
        let mut rng = SplitMix64::new(seed);
        let rows = (0..INPUTS)
            .map(|_| Block(std::array::from_fn(|_| (2.0 * rng.unit() - 1.0) as f32)))
            .collect();
        let lists = (0..count)
            .map(|_| {
                let mut features: Vec<u16> = Vec::new();
                let wanted = 2 + rng.below(MAX_FEATURES - 1);
                while features.len() < wanted {
                    let feature = rng.below(INPUTS) as u16;
                    if !features.contains(&feature) {
                        features.push(feature);
                    }
                }
                features
            })
            .collect();
        (rows, lists)
    }

    /// Both kernel sets sum in the same order, so they agree bit for bit; the portable
    /// kernels agree with a plain sum, element by element.
    #[test]
    fn the_kernels_agree_with_plain_sums() {
        let (rows, lists) = random_rows_and_features(3, 50);
        let avx2 = Avx2::detect();
        if avx2.is_none() {
            eprintln!("no AVX2 on this CPU: only the portable kernels are checked");
        }
        let bias: [f32; BLOCK] = std::array::from_fn(|i| i as f32 * 0.01 - 0.3);
        for features in &lists {
            let mut expected = bias;
            for &f in features {
                for (e, w) in expected.iter_mut().zip(&rows[usize::from(f)].0) {
                    *e += w;
                }
            }
            let mut portable = Block::default();
            Portable.accumulate(&mut portable, &bias, &rows, features);
            assert_eq!(portable.0, expected);
            if let Some(avx2) = avx2 {
                let mut vector = Block::default();
                avx2.accumulate(&mut vector, &bias, &rows, features);
                assert_eq!(vector, portable);
            }
        }
        let (g, _) = random_rows_and_features(4, 0);
        let mut portable = rows.clone();
        let mut vector = rows.clone();
        let mut expected = rows.clone();
        for (features, g) in lists.iter().zip(&g) {
            for &f in features {
                for (e, x) in expected[usize::from(f)].0.iter_mut().zip(&g.0) {
                    *e += x;
                }
            }
            Portable.scatter(&mut portable, g, features);
            if let Some(avx2) = avx2 {
                avx2.scatter(&mut vector, g, features);
            }
        }
        assert_eq!(portable, expected);
        if avx2.is_some() {
            assert_eq!(vector, portable);
        }
    }

    #[test]
    fn the_blocked_layout_round_trips() {
        let hidden = 2 * BLOCK;
        let rows: Vec<f32> = (0..INPUTS * hidden).map(|i| i as f32).collect();
        let mut blocked = vec![Block::default(); INPUTS * hidden / BLOCK];
        to_blocked(&rows, &mut blocked, hidden);
        // Block 1 of feature 5: units 64..128 of row 5.
        assert_eq!(blocked[INPUTS + 5].0[0], (5 * hidden + BLOCK) as f32);
        let mut back = vec![0.0; rows.len()];
        from_blocked(&blocked, &mut back, hidden);
        assert_eq!(back, rows);
    }
}
