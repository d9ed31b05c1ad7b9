//! The `eval` command's report when a network evaluates: the network's shape and its
//! verdict, ending with the line every `eval` ends with.

use std::fmt::Write;

use cozy_chess::{Board, Color};

use super::{evaluate_fresh, Network};

/// The report for `board`: the network, its score for the side to move, and
/// `Final evaluation: <cp> cp (white side)`.
pub fn report(network: &Network, board: &Board) -> String {
    let side_to_move = evaluate_fresh(network, board);
    let white = match board.side_to_move() {
        Color::White => side_to_move,
        Color::Black => -side_to_move,
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "NNUE: 768 -> {} x 2 -> 1 (SCReLU, {} output bucket{}), {} kernels",
        network.hidden(),
        network.buckets(),
        if network.buckets() == 1 { "" } else { "s" },
        match network.backend() {
            super::Backend::Avx2 => "AVX2",
            super::Backend::Scalar => "portable",
        }
    );
    let _ = writeln!(out, "Network score: {side_to_move:+} cp (side to move)");
    let _ = write!(out, "Final evaluation: {white:+} cp (white side)");
    out
}
