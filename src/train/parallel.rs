//! Batches split across threads: each thread adds the gradient of its contiguous share of a
//! batch into its own buffer, then the buffers are summed, again one share of the
//! parameters per thread. The cut depends only on the batch length and the thread count,
//! so a run is reproducible for a given seed and thread count.

use super::data::Record;
use super::model::{Network, Scratch};

/// Per-thread gradient buffers and scratch memory, allocated once for a run.
#[derive(Debug)]
pub struct Workers {
    grads: Vec<Vec<f32>>,
    scratch: Vec<Scratch>,
}

impl Workers {
    /// Buffers for `threads` threads (at least one) training `net`.
    pub fn new(net: &Network, threads: usize) -> Workers {
        let threads = threads.max(1);
        Workers {
            grads: vec![vec![0.0; net.params.len()]; threads],
            scratch: vec![Scratch::new(net.hidden()); threads],
        }
    }

    /// The gradient of the mean loss over `batch` (laid out like `net.params`) and the
    /// summed loss of the batch.
    pub fn gradient(&mut self, net: &Network, batch: &[Record], wdl: f32) -> (&[f32], f64) {
        let threads = self.grads.len();
        if batch.is_empty() {
            self.grads[0].fill(0.0);
            return (&self.grads[0], 0.0);
        }
        let share = batch.len().div_ceil(threads).max(1);
        let scale = 1.0 / batch.len().max(1) as f32;
        let loss = std::thread::scope(|scope| {
            let mut jobs = self
                .grads
                .iter_mut()
                .zip(&mut self.scratch)
                .zip(batch.chunks(share))
                .map(|((grad, scratch), records)| {
                    move || {
                        grad.fill(0.0);
                        net.add_gradient(records, wdl, scale, grad, scratch)
                    }
                });
            // The first share runs on this thread, the others on their own.
            let first = jobs.next();
            let handles: Vec<_> = jobs.map(|job| scope.spawn(job)).collect();
            let mut loss = first.map_or(0.0, |mut job| job());
            for handle in handles {
                loss += join(handle);
            }
            loss
        });
        let used = batch.len().div_ceil(share).min(threads);
        reduce(&mut self.grads[..used]);
        (&self.grads[0], loss)
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

/// Adds every buffer into the first, each thread summing one share of the parameters.
fn reduce(grads: &mut [Vec<f32>]) {
    let Some((first, rest)) = grads.split_first_mut() else {
        return;
    };
    if rest.is_empty() {
        return;
    }
    let share = first.len().div_ceil(rest.len() + 1);
    std::thread::scope(|scope| {
        for (index, target) in first.chunks_mut(share).enumerate() {
            let rest = &*rest;
            scope.spawn(move || {
                let range = index * share..index * share + target.len();
                for other in rest {
                    for (t, o) in target.iter_mut().zip(&other[range.clone()]) {
                        *t += o;
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
