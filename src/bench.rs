//! `bench`: a fixed set of positions, each searched to a fixed depth with a fresh 16 MiB
//! hash table and one thread, with the engine's evaluation (the built-in one, or the
//! network `EvalFile` loaded). The total node count is the search's fingerprint: the same
//! on every run, so a commit that changes it changes the search.

use std::time::Instant;

use crate::bench_positions::BENCH_POSITIONS;
use crate::nnue::Network;
use crate::output::Output;
use crate::position::{parse_fen, Game};
use crate::search::tt::TranspositionTable;
use crate::search::{think_with, Limits, Settings};
use std::sync::Arc;

/// The depth `bench` searches when none is given.
pub const DEFAULT_DEPTH: u32 = 12;

/// The totals of a benchmark run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BenchResult {
    pub nodes: u64,
    pub millis: u64,
}

impl BenchResult {
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.millis.max(1)
    }
}

/// Searches every bench position to `depth` with `network` (`None`: the hand-crafted
/// evaluation); `progress` is told each position's nodes.
pub fn measure(
    depth: u32,
    network: Option<&Arc<Network>>,
    mut progress: impl FnMut(usize, &str, u64),
) -> BenchResult {
    let started = Instant::now();
    let mut total = 0;
    for (index, fen) in BENCH_POSITIONS.iter().enumerate() {
        let Ok(board) = parse_fen(fen, false) else {
            continue;
        };
        let game = Game::new(board);
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let settings = Settings {
            network: network.cloned(),
            ..Settings::default()
        };
        let outcome = think_with(game, limits, &TranspositionTable::new(16), settings);
        total += outcome.nodes;
        progress(index, fen, outcome.nodes);
    }
    BenchResult {
        nodes: total,
        millis: started.elapsed().as_millis() as u64,
    }
}

/// Runs the benchmark and prints its report, ending with `<N> nodes <M> nps`.
pub fn run(depth: Option<u32>, network: Option<&Arc<Network>>, out: &Output) {
    let depth = depth.unwrap_or(DEFAULT_DEPTH).clamp(1, 64);
    let result = measure(depth, network, |index, fen, nodes| {
        out.line(&format!(
            "position {:>2}/{}: {nodes:>10} nodes  {fen}",
            index + 1,
            BENCH_POSITIONS.len()
        ));
    });
    out.line(&format!("{} nodes {} nps", result.nodes, result.nps()));
}
