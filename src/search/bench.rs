//! `bench`: a fixed set of positions, each searched to a fixed depth with a fresh 16 MiB
//! hash table and one thread, with the engine's evaluation (the built-in one, or the
//! network `EvalFile` loaded). The total node count is the search's fingerprint: the same
//! on every run, so a commit that changes it changes the search.

use std::time::Instant;

use crate::bench_positions::BENCH_POSITIONS;
use crate::nnue::Network;
use crate::output::Output;
use crate::position::{parse_fen, Game};
use crate::search::history::HistoryStore;
use crate::search::signals::Signals;
use crate::search::tt::TranspositionTable;
use crate::search::{search, Limits, SearchJob, Settings};
use std::sync::Arc;

/// The depth `bench` searches when none is given.
pub const DEFAULT_DEPTH: u32 = 12;

/// The totals of a benchmark run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BenchResult {
    pub nodes: u64,
    pub millis: u64,
    /// How many positions were searched to the end (all of them unless stopped).
    pub positions: usize,
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
    progress: impl FnMut(usize, &str, u64),
) -> BenchResult {
    // Nobody sends a signal while the sender lives here.
    let (_sender, receiver) = crossbeam_channel::unbounded();
    let mut signals = Signals::new(receiver, false, Instant::now());
    measure_until(depth, network, &mut signals, progress)
}

/// [`measure`] that a `stop` on `signals` ends: the search of the position under way
/// stops at once and is not counted, and no further position is searched.
pub fn measure_until(
    depth: u32,
    network: Option<&Arc<Network>>,
    signals: &mut Signals,
    mut progress: impl FnMut(usize, &str, u64),
) -> BenchResult {
    let started = Instant::now();
    let mut total = 0;
    let mut positions = 0;
    for (index, fen) in BENCH_POSITIONS.iter().enumerate() {
        if signals.stop_requested() {
            break;
        }
        let Ok(board) = parse_fen(fen, false) else {
            continue;
        };
        let job = SearchJob {
            game: Game::new(board),
            limits: Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            settings: Settings {
                network: network.cloned(),
                ..Settings::default()
            },
        };
        let tt = TranspositionTable::new(16);
        let outcome = search(&job, &tt, &HistoryStore::new(), signals, &Output::sink());
        if signals.stop_requested() {
            break;
        }
        total += outcome.nodes;
        positions += 1;
        progress(index, fen, outcome.nodes);
    }
    BenchResult {
        nodes: total,
        millis: started.elapsed().as_millis() as u64,
        positions,
    }
}

/// Runs the benchmark and prints its report, ending with `<N> nodes <M> nps`.
pub fn run(depth: Option<u32>, network: Option<&Arc<Network>>, out: &Output) {
    let (_sender, receiver) = crossbeam_channel::unbounded();
    let mut signals = Signals::new(receiver, false, Instant::now());
    run_until(depth, network, &mut signals, out);
}

/// [`run`] that a `stop` on `signals` ends; a stopped run says so before its totals.
pub fn run_until(
    depth: Option<u32>,
    network: Option<&Arc<Network>>,
    signals: &mut Signals,
    out: &Output,
) {
    let depth = depth.unwrap_or(DEFAULT_DEPTH).clamp(1, 64);
    let result = measure_until(depth, network, signals, |index, fen, nodes| {
        out.line(&format!(
            "position {:>2}/{}: {nodes:>10} nodes  {fen}",
            index + 1,
            BENCH_POSITIONS.len()
        ));
    });
    if result.positions < BENCH_POSITIONS.len() {
        out.line(&format!(
            "bench stopped: {} of {} positions searched",
            result.positions,
            BENCH_POSITIONS.len()
        ));
    }
    out.line(&format!("{} nodes {} nps", result.nodes, result.nps()));
}
