//! The neural evaluation (NNUE): a perspective network read from a checked file
//! (`file.rs`; a net trained by bullet is converted to it by `bullet.rs`), laid out in
//! aligned chunks (`network.rs`), run by scalar or AVX2 kernels (`simd.rs`), its output
//! turned into centipawns by its own activation and quantisation (`quant.rs`), and
//! updated incrementally and lazily along the search's line (`stack.rs`).

pub mod bullet;
pub(crate) mod embedded;
pub mod file;
pub(crate) mod material;
pub(crate) mod network;
pub mod quant;
pub(crate) mod report;
pub(crate) mod simd;
pub(crate) mod stack;
#[cfg(test)]
mod tests;

pub use embedded::embedded;
pub use material::scale_by_material;
pub use network::{evaluate_fresh, LoadError, Network};
pub use report::report;
pub use simd::Backend;
pub use stack::{NnueStack, STACK_PLIES};
