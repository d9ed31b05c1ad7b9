//! Cutoff, a UCI chess engine. The binary (`main.rs`) is a thin shell around this library
//! so that integration tests and tools can reach the engine's parts.

// Lint policy. CI runs `cargo clippy --workspace --all-targets -- -D warnings`, so each
// lint named here fails the build: the default groups, no `unwrap` outside tests (input
// paths return typed errors), no leftover `dbg!`/`todo!`, every `unsafe` block explained,
// and a few habits of style. `missing_docs` is kept for the public items of `protocol/`.
#![warn(
    clippy::all,
    clippy::unwrap_used,
    clippy::dbg_macro,
    clippy::todo,
    clippy::undocumented_unsafe_blocks,
    clippy::redundant_closure_for_method_calls,
    clippy::semicolon_if_nothing_returned,
    clippy::uninlined_format_args,
    clippy::manual_let_else,
    clippy::cloned_instead_of_copied,
    unsafe_op_in_unsafe_fn
)]
#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod analyze;
pub mod annotate;
mod bench_positions;
pub mod book;
pub mod cli;
pub mod convert;
pub mod datagen;
pub mod display;
pub mod engine;
pub mod eval;
pub mod file_error;
pub mod help;
pub mod moves;
pub mod net;
pub mod nnue;
pub mod opening;
pub mod options;
pub mod output;
pub mod par;
pub mod perft;
pub mod pgn;
#[cfg(test)]
mod playouts;
pub mod position;
pub mod relabel;
pub mod rng;
pub mod rules;
pub mod san;
pub mod score;
pub mod search;
pub mod tablebase;
pub mod tools;
pub mod train;
pub mod tune;
pub mod uci;
pub mod viri;
