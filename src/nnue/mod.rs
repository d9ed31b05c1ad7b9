//! The neural evaluation (NNUE): a perspective network read from a checked file
//! (`file.rs`).

pub mod file;
