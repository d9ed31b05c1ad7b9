//! Cutoff, a UCI chess engine. The binary (`main.rs`) is a thin shell around this library
//! so that integration tests and tools can reach the engine's parts.

pub mod perft;
pub mod position;
