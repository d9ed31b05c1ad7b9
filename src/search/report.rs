//! What the search tells the GUI while it runs: `info` lines for principal variations
//! (exact lines of completed depths, and bound lines of long single-line searches) and
//! `currmove` lines. Only the main thread has a [`Reporter`]; the others stay silent.

use std::time::Duration;

use cozy_chess::{Board, Move};
use protocol::{Info, Response, Score, ScoreBound};

use super::thread_data::Searcher;
use super::wdl;
use crate::position::to_uci;
use crate::score::{is_mate, is_tb, mate_moves, TB_WIN};

/// How long the search runs before it starts printing `currmove` lines.
const CURRMOVE_AFTER: Duration = Duration::from_secs(1);
/// How long the search runs before a fail-high or fail-low is shown as a bound line (as
/// Stockfish does): earlier, clients would show a one-move line with a bound as a result.
const BOUND_LINES_AFTER: Duration = Duration::from_secs(1);

/// One principal variation and the depth that found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub score: i32,
    pub moves: Vec<Move>,
    pub depth: i32,
}

/// What a tablebase win `n` plies from the root is reported as: `cp 20000 - n`, as other
/// engines do, far above any evaluation and plainly not a mate.
pub const TB_WIN_CP: i32 = 20_000;

/// The score as UCI writes it: centipawns, mate in moves, or for a tablebase result
/// `cp ±(20000 - plies to the tablebase position)`.
pub fn uci_score(score: i32) -> Score {
    if is_mate(score) {
        Score::Mate(mate_moves(score))
    } else if is_tb(score) {
        let plies = TB_WIN - score.abs();
        Score::Cp(score.signum() * (TB_WIN_CP - plies))
    } else {
        Score::Cp(score)
    }
}

/// `moves` played from `board`, in UCI notation, up to the first illegal one.
pub fn pv_text(board: &Board, moves: &[Move], chess960: bool) -> Vec<protocol::UciMove> {
    let mut position = board.clone();
    let mut text = Vec::with_capacity(moves.len());
    for &mv in moves {
        if !position.is_legal(mv) {
            break;
        }
        text.push(to_uci(&position, mv, chess960));
        position.play_unchecked(mv);
    }
    text
}

/// Nodes per second over `elapsed`, or `None` while too little time has passed for the
/// figure to mean anything.
fn nodes_per_second(nodes: u64, elapsed: Duration) -> Option<u64> {
    let seconds = elapsed.as_secs_f64();
    (elapsed >= Duration::from_millis(1)).then(|| (nodes as f64 / seconds) as u64)
}

impl Searcher<'_> {
    /// Prints one `info` line for a principal variation (main thread only).
    fn report_line(&self, depth: i32, score: i32, bound: ScoreBound, moves: &[Move], index: usize) {
        let Some(reporter) = &self.reporter else {
            return;
        };
        let elapsed = reporter.started.elapsed();
        let depth = depth.max(1) as u32;
        let nodes = self.control.total_nodes(self.nodes);
        let score = self.root_score(score);
        reporter.out.send(&Response::Info(Info {
            depth: Some(depth),
            seldepth: Some(self.seldepth.max(depth)),
            multipv: Some(index as u32 + 1),
            score: Some((uci_score(score), bound)),
            wdl: reporter
                .show_wdl
                .then(|| wdl::MODEL.wdl(score, wdl::material(&reporter.root))),
            nodes: Some(nodes),
            nps: nodes_per_second(nodes, elapsed),
            hashfull: Some(self.tt.hashfull()),
            tbhits: self.tablebases.is_some().then(|| self.control.tbhits()),
            time: Some(elapsed.as_millis() as u64),
            pv: pv_text(&reporter.root, moves, reporter.chess960),
            ..Info::default()
        }));
    }

    /// Prints `lines`, each exact at the depth that found it: the lines of a completed
    /// depth, best first, or what a stopped depth leaves (see `iterative.rs`).
    pub(super) fn report_lines(&self, lines: &[Line]) {
        for (index, line) in lines.iter().enumerate() {
            self.report_line(
                line.depth,
                line.score,
                ScoreBound::Exact,
                &line.moves,
                index,
            );
        }
    }

    /// Prints an aspiration window's fail-high (`Lower`) or fail-low (`Upper`), but only
    /// in a single-line search that has run for a while.
    pub(super) fn report_bound(&self, score: i32, bound: ScoreBound, moves: &[Move], lines: usize) {
        let long = self
            .reporter
            .as_ref()
            .is_some_and(|r| r.started.elapsed() >= BOUND_LINES_AFTER);
        if lines == 1 && long {
            self.report_line(self.root_depth, score, bound, moves, 0);
        }
    }

    /// `info currmove` for the root move about to be searched, once the search is long.
    pub(super) fn report_current_move(&self, board: &Board, mv: Move, number: usize) {
        if let Some(reporter) = &self.reporter {
            if self.control.elapsed() >= CURRMOVE_AFTER {
                reporter.out.send(&Response::Info(Info {
                    depth: Some(self.root_depth as u32),
                    currmove: Some(to_uci(board, mv, reporter.chess960)),
                    currmovenumber: Some(number as u32),
                    ..Info::default()
                }));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nps_waits_for_a_meaningful_time() {
        assert_eq!(nodes_per_second(5_000, Duration::from_micros(300)), None);
        assert_eq!(
            nodes_per_second(4_350, Duration::from_micros(2_900)),
            Some(1_500_000)
        );
    }
}
