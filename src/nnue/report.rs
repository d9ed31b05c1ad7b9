//! The `eval` command's report when a network evaluates: the network's shape, its
//! verdict and the verdict the search uses (scaled by the material left), ending with the
//! line every `eval` ends with.

use std::fmt::Write;

use cozy_chess::{Board, Color};

use super::material::{material_scale, scale_by_material};
use super::{evaluate_fresh, Network};

/// The report for `board`: the network, its score for the side to move, the material
/// scale, and `Final evaluation: <cp> cp (white side)`, the scaled score the search uses.
pub fn report(network: &Network, board: &Board) -> String {
    let network_score = evaluate_fresh(network, board);
    let side_to_move = scale_by_material(network_score, board);
    let white = match board.side_to_move() {
        Color::White => side_to_move,
        Color::Black => side_to_move.saturating_neg(),
    };
    let mut out = String::new();
    let quant = network.quantisation();
    let _ = writeln!(
        out,
        "NNUE: 768 -> {} x 2 -> 1 ({}, {} output bucket{}{}{}), {} kernels",
        network.hidden(),
        network.activation(),
        network.buckets(),
        if network.buckets() == 1 { "" } else { "s" },
        network.inputs().note(),
        if quant == super::file::Quantisation::STANDARD {
            String::new()
        } else {
            format!(", {quant}")
        },
        match network.backend() {
            super::Backend::Avx2 => "AVX2",
            super::Backend::Scalar => "portable",
        }
    );
    let _ = writeln!(out, "Network score: {network_score:+} cp (side to move)");
    let _ = writeln!(
        out,
        "Material scale: {:.3}, scaled score: {side_to_move:+} cp (side to move)",
        f64::from(material_scale(board)) / 1024.0
    );
    let _ = write!(out, "Final evaluation: {white:+} cp (white side)");
    out
}
