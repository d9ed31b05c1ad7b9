//! Where search threads are started: every thread that runs the recursive search (the
//! engine's search thread, Lazy SMP helpers, the tools' workers) gets the stack it needs.

use std::io;
use std::thread::{Builder, JoinHandle, Scope, ScopedJoinHandle};

/// Stack of each search thread: the recursion is deep.
pub const SEARCH_STACK_BYTES: usize = 64 << 20;

/// Starts a search thread called `name`.
pub fn spawn<F, T>(name: String, work: F) -> io::Result<JoinHandle<T>>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    Builder::new()
        .name(name)
        .stack_size(SEARCH_STACK_BYTES)
        .spawn(work)
}

/// Starts a search thread called `name` inside `scope`.
pub fn spawn_scoped<'scope, 'env, F, T>(
    scope: &'scope Scope<'scope, 'env>,
    name: String,
    work: F,
) -> io::Result<ScopedJoinHandle<'scope, T>>
where
    F: FnOnce() -> T + Send + 'scope,
    T: Send + 'scope,
{
    Builder::new()
        .name(name)
        .stack_size(SEARCH_STACK_BYTES)
        .spawn_scoped(scope, work)
}
