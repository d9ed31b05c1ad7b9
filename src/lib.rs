//! Cutoff, a UCI chess engine. The binary (`main.rs`) is a thin shell around this library
//! so that integration tests and tools can reach the engine's parts.

pub mod analyze;
pub mod bench;
mod bench_positions;
pub mod book;
pub mod cli;
pub mod datagen;
pub mod display;
pub mod engine;
pub mod eval;
pub mod moves;
pub mod nnue;
pub mod options;
pub mod output;
pub mod perft;
#[cfg(test)]
mod playouts;
pub mod position;
pub mod rng;
pub mod search;
pub mod train;
pub mod tune;
pub mod uci;
pub mod viri;
