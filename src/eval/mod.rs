//! Static evaluation: a hand-crafted, tapered (middlegame/endgame) evaluation.
//!
//! Terms: material and piece-square tables (tuned from PeSTO's) (`material.rs`), mobility, king-zone attacks,
//! outposts, rook files, bishop pair (`pieces.rs`), pawn structure and passed pawns
//! (`pawns.rs`), king shelter and king danger (`king.rs`), threats (`threats.rs`), a tempo bonus,
//! then the phase blend and endgame scaling (`scale.rs`).
//!
//! Every weight is a named `S(mg, eg)` entry of [`params`], laid out in one flat index space
//! (`layout.rs`). The evaluation is generic over a [`Tracer`]: the search runs it with
//! [`NoTrace`] (no cost), [`coefficients()`] records what a tuner needs, [`report()`] builds the
//! `eval` table, all from the same code path.

#[macro_use]
mod layout;
mod acc;
mod bits;
mod king;
mod material;
pub mod params;
mod pawns;
mod pieces;
mod report;
mod scale;
pub mod score;
mod snapshot;
mod threats;
mod trace;

#[cfg(test)]
mod tests;

use cozy_chess::{Board, Color};

pub use layout::{as_table, entry_of, name, to_source, EntryInfo};
pub use params::{ENTRIES, NUM_PARAMS, WEIGHTS};
pub use report::report;
pub use score::S;
pub use trace::{coefficients, Coefficients, NoTrace, Tracer};

use acc::Acc;
use params::idx;
use snapshot::{Attacks, Snapshot};

/// The static evaluation in centipawns from the side to move's point of view.
pub fn evaluate(board: &Board) -> i32 {
    let white = evaluate_white(board, &WEIGHTS, &mut NoTrace);
    match board.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// The evaluation in centipawns from White's point of view, with explicit weights, telling
/// `tracer` of every weight used.
#[inline(always)]
pub fn evaluate_white<T: Tracer>(board: &Board, weights: &[S; NUM_PARAMS], tracer: &mut T) -> i32 {
    let pos = Snapshot::new(board);
    let mut acc = Acc::new(weights, tracer);

    // Each side is written out (no loop over colours) so that the colour is a constant in
    // every inlined term and the running sums stay in registers.
    material::evaluate(&mut acc, &pos, Color::White);
    material::evaluate(&mut acc, &pos, Color::Black);
    let attacks: [Attacks; 2] = [
        pieces::evaluate(&mut acc, &pos, Color::White),
        pieces::evaluate(&mut acc, &pos, Color::Black),
    ];
    pawns::evaluate(&mut acc, &pos, Color::White);
    pawns::evaluate(&mut acc, &pos, Color::Black);
    let danger_applied = [
        king::evaluate(&mut acc, &pos, Color::White, &attacks),
        king::evaluate(&mut acc, &pos, Color::Black, &attacks),
    ];
    threats::evaluate(&mut acc, &pos, Color::White, &attacks);
    threats::evaluate(&mut acc, &pos, Color::Black, &attacks);
    acc.add(idx::TEMPO, pos.side_to_move, 1);

    let mut total = acc.linear();
    if danger_applied[0] {
        total += king::danger_penalty(acc.danger(Color::White));
    }
    if danger_applied[1] {
        total -= king::danger_penalty(acc.danger(Color::Black));
    }
    let phase = scale::phase(&pos);
    let tapered = scale::taper(total, phase);
    let factor = scale::factor(&pos, tapered);
    acc.tracer.finish(phase, factor, danger_applied);
    scale::apply_scale(tapered, factor)
}
