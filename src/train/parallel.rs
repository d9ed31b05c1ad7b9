//! Batches split across threads: each thread adds the gradient of its contiguous share of a
//! batch into its own buffer, then the buffers are summed, again one share of the
//! parameters per thread. The cut depends only on the batch length and the thread count,
//! so a run is reproducible for a given seed and thread count. The gradient passes use the
//! cache-friendly blocked layout of the feature weights (`blocked.rs`): the network's
//! weights are copied into it once per batch, and the summed gradient is copied out of it.

use super::blocked::{self, Block, Gradient, GroupScratch};
use super::data::Record;
use super::model::{Network, Objective, Scratch};

/// Per-thread gradient buffers and scratch memory, allocated once for a run.
#[derive(Debug)]
pub struct Workers {
    /// Per thread, the gradient of the per-position passes (hidden sizes the blocked
    /// passes do not take).
    grads: Vec<Vec<f32>>,
    scratch: Vec<Scratch>,
    /// The blocked passes' buffers, where the hidden size allows them.
    blocked: Option<BlockedWorkers>,
    /// The summed gradient in the network's layout.
    gradient: Vec<f32>,
}

/// The buffers of the blocked passes.
#[derive(Debug)]
struct BlockedWorkers {
    /// Per thread.
    grads: Vec<Gradient>,
    groups: Vec<GroupScratch>,
    /// The network's feature weights in the blocked layout, refreshed every batch.
    weights: Vec<Block>,
}

impl Workers {
    /// Buffers for `threads` threads (at least one) training `net`.
    pub fn new(net: &Network, threads: usize) -> Workers {
        let threads = threads.max(1);
        let hidden = net.hidden();
        let blocked = blocked::supports(hidden).then(|| BlockedWorkers {
            grads: vec![Gradient::new(net); threads],
            groups: vec![GroupScratch::new(hidden); threads],
            weights: vec![Block::default(); net.bias_start() / blocked::BLOCK],
        });
        let per_position = if blocked.is_some() { 0 } else { threads };
        Workers {
            grads: vec![vec![0.0; net.params.len()]; per_position],
            scratch: vec![Scratch::new(hidden); threads],
            blocked,
            gradient: vec![0.0; net.params.len()],
        }
    }

    /// The gradient of `objective`'s mean over `batch` (laid out like `net.params`) and
    /// the summed squared error of the batch.
    pub fn gradient(
        &mut self,
        net: &Network,
        batch: &[Record],
        objective: Objective,
    ) -> (&[f32], f64) {
        if batch.is_empty() {
            self.gradient.fill(0.0);
            return (&self.gradient, 0.0);
        }
        let threads = self.scratch.len();
        let share = batch.len().div_ceil(threads).max(1);
        let scale = 1.0 / batch.len() as f32;
        let loss = if let Some(workers) = &mut self.blocked {
            workers.gradient(net, batch, share, objective, scale, &mut self.gradient)
        } else {
            let loss = run_shares(
                self.grads.iter_mut().zip(&mut self.scratch),
                batch.chunks(share),
                |(grad, scratch), records| {
                    grad.fill(0.0);
                    net.add_gradient(records, objective, scale, grad, scratch)
                },
            );
            let used = batch.len().div_ceil(share);
            let (first, others) = self.grads[..used].split_at_mut(1);
            let others: Vec<&[f32]> = others.iter().map(Vec::as_slice).collect();
            reduce(&mut first[0], &others, |t, o| *t += o);
            self.gradient.copy_from_slice(&first[0]);
            loss
        };
        (&self.gradient, loss)
    }

    /// The summed loss of `records`.
    pub fn loss(&mut self, net: &Network, records: &[Record], wdl: f32) -> f64 {
        let share = records.len().div_ceil(self.scratch.len()).max(1);
        std::thread::scope(|scope| {
            let handles: Vec<_> = self
                .scratch
                .iter_mut()
                .zip(records.chunks(share))
                .map(|(scratch, records)| scope.spawn(move || net.loss(records, wdl, scratch)))
                .collect();
            handles.into_iter().map(join).sum()
        })
    }
}

impl BlockedWorkers {
    /// The blocked passes over `batch` in shares of `share` records, the summed gradient
    /// written into `gradient` in the network's layout; returns the summed loss.
    fn gradient(
        &mut self,
        net: &Network,
        batch: &[Record],
        share: usize,
        objective: Objective,
        scale: f32,
        gradient: &mut [f32],
    ) -> f64 {
        let hidden = net.hidden();
        blocked::to_blocked(net.feature_weights(), &mut self.weights, hidden);
        let weights = &self.weights;
        let loss = run_shares(
            self.grads.iter_mut().zip(&mut self.groups),
            batch.chunks(share),
            |(grad, scratch), records| {
                grad.clear();
                blocked::add_gradient(net, weights, records, objective, scale, grad, scratch)
            },
        );
        let used = batch.len().div_ceil(share);
        let (first, others) = self.grads[..used].split_at_mut(1);
        let other_features: Vec<&[Block]> = others.iter().map(|g| g.features.as_slice()).collect();
        reduce(&mut first[0].features, &other_features, |t, o| {
            for (t, o) in t.0.iter_mut().zip(&o.0) {
                *t += o;
            }
        });
        let other_rest: Vec<&[f32]> = others.iter().map(|g| g.rest.as_slice()).collect();
        reduce(&mut first[0].rest, &other_rest, |t, o| *t += o);
        first[0].write_flat(gradient, hidden);
        loss
    }
}

/// Runs `job` on each pair of a worker's state and a share of the records, the first on
/// this thread and the others on their own, and returns the summed results.
fn run_shares<'a, W: Send>(
    workers: impl Iterator<Item = W>,
    shares: impl Iterator<Item = &'a [Record]>,
    job: impl Fn(W, &'a [Record]) -> f64 + Sync,
) -> f64 {
    std::thread::scope(|scope| {
        let job = &job;
        let mut jobs = workers.zip(shares);
        let first = jobs.next();
        let handles: Vec<_> = jobs
            .map(|(worker, records)| scope.spawn(move || job(worker, records)))
            .collect();
        let mut loss = first.map_or(0.0, |(worker, records)| job(worker, records));
        for handle in handles {
            loss += join(handle);
        }
        loss
    })
}

/// Adds every slice of `others` into `target` by `add`, each thread summing one share of
/// the elements.
fn reduce<T: Send + Sync>(target: &mut [T], others: &[&[T]], add: impl Fn(&mut T, &T) + Sync) {
    if others.is_empty() {
        return;
    }
    let share = target.len().div_ceil(others.len() + 1).max(1);
    let add = &add;
    std::thread::scope(|scope| {
        for (index, target) in target.chunks_mut(share).enumerate() {
            scope.spawn(move || {
                let range = index * share..index * share + target.len();
                for other in others {
                    for (t, o) in target.iter_mut().zip(&other[range.clone()]) {
                        add(t, o);
                    }
                }
            });
        }
    });
}

/// The result of a scoped thread, passing on its panic.
fn join<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    match handle.join() {
        Ok(value) => value,
        Err(panic) => std::panic::resume_unwind(panic),
    }
}
