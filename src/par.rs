//! Deterministic data parallelism: work cut into one contiguous share per thread, each
//! share handled on its own scoped thread, the results returned in share order. The cut
//! depends only on the length and the thread count, so combining the results in the order
//! returned gives the same floating-point sums on every run with the same thread count.

use std::ops::Range;

/// Runs `work` on up to `threads` contiguous shares of `0..len` and returns the results in
/// order. A single share (or an empty range) runs on the calling thread.
pub fn map_ranges<R, F>(len: usize, threads: usize, work: F) -> Vec<R>
where
    R: Send,
    F: Fn(Range<usize>) -> R + Sync,
{
    let share = len.div_ceil(threads.max(1)).max(1);
    if len <= share {
        return vec![work(0..len)];
    }
    let work = &work;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..len)
            .step_by(share)
            .map(|start| scope.spawn(move || work(start..(start + share).min(len))))
            .collect();
        handles
            .into_iter()
            .map(|handle| match handle.join() {
                Ok(result) => result,
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    })
}

/// Runs `work` on up to `threads` contiguous shares of `items` (see [`map_ranges`]).
pub fn map_shares<T, R, F>(items: &[T], threads: usize, work: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&[T]) -> R + Sync,
{
    map_ranges(items.len(), threads, |range| work(&items[range]))
}
