//! The search: iterative deepening over a negamax alpha-beta, run on the search thread.
//!
//! Entry point: [`search`], given a [`SearchJob`]. It prints an `info` line per completed
//! depth and returns the best move; printing `bestmove` is the search thread's job.

pub mod score;
pub mod signals;
pub mod thread;
pub mod tt;

use std::time::Duration;

use cozy_chess::{Board, Move, Piece};
use protocol::{Info, Response, Score, ScoreBound};

use crate::output::Output;
use crate::position::{legal_moves, to_uci, Game};
use signals::Signals;
use tt::TranspositionTable;

/// The remaining time of the side to move, from `go wtime/btime/winc/binc/movestogo`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    pub time: Duration,
    pub increment: Duration,
    pub moves_to_go: Option<u32>,
}

/// What bounds a search. With no bound at all the search runs until `stop`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    pub movetime: Option<Duration>,
    pub clock: Option<Clock>,
    /// `go infinite`: never stop before `stop`.
    pub infinite: bool,
    /// `go searchmoves`: only these root moves (legal, non-empty) are searched.
    pub searchmoves: Vec<Move>,
}

impl Limits {
    /// Whether the search has any bound that ends it without `stop`.
    pub fn is_bounded(&self) -> bool {
        !self.infinite
            && (self.depth.is_some()
                || self.nodes.is_some()
                || self.mate.is_some()
                || self.movetime.is_some()
                || self.clock.is_some())
    }
}

/// The options that shape a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub multipv: u32,
    pub chess960: bool,
    pub move_overhead: Duration,
    pub show_wdl: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            multipv: 1,
            chess960: false,
            move_overhead: Duration::from_millis(10),
            show_wdl: false,
        }
    }
}

/// Everything one `go` asks for.
#[derive(Debug, Clone)]
pub struct SearchJob {
    pub game: Game,
    pub limits: Limits,
    pub settings: Settings,
}

/// The result of a search. `best` is `None` only when there is no legal move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SearchOutcome {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub nodes: u64,
}

/// Runs a search to its limits (or until `stop`), printing `info` lines to `out`.
pub fn search(
    job: &SearchJob,
    tt: &TranspositionTable,
    signals: &mut Signals,
    out: &Output,
) -> SearchOutcome {
    let _ = tt;
    let board = &job.game.board;
    let mut moves = legal_moves(board);
    if !job.limits.searchmoves.is_empty() {
        moves.retain(|m| job.limits.searchmoves.contains(m));
    }
    if moves.is_empty() {
        let score = if board.checkers().is_empty() {
            Score::Cp(0)
        } else {
            Score::Mate(0)
        };
        out.send(&Response::Info(Info {
            depth: Some(0),
            score: Some((score, ScoreBound::Exact)),
            ..Info::default()
        }));
        return SearchOutcome::default();
    }
    // Placeholder until the real search lands: a fixed-depth material negamax.
    let started = std::time::Instant::now();
    let max_depth = job.limits.depth.unwrap_or(4).min(4);
    let mut outcome = SearchOutcome {
        best: Some(moves[0]),
        ..SearchOutcome::default()
    };
    for depth in 1..=max_depth {
        let mut best = (i32::MIN, moves[0]);
        for &mv in &moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            let score = -negamax(&child, depth - 1, &mut outcome.nodes);
            if score > best.0 {
                best = (score, mv);
            }
            if signals.stop_requested() {
                return outcome;
            }
        }
        outcome.best = Some(best.1);
        out.send(&Response::Info(Info {
            depth: Some(depth),
            score: Some((Score::Cp(best.0), ScoreBound::Exact)),
            nodes: Some(outcome.nodes),
            time: Some(started.elapsed().as_millis() as u64),
            pv: vec![to_uci(board, best.1, job.settings.chess960)],
            ..Info::default()
        }));
    }
    outcome
}

fn negamax(board: &Board, depth: u32, nodes: &mut u64) -> i32 {
    *nodes += 1;
    let moves = legal_moves(board);
    if moves.is_empty() {
        return if board.checkers().is_empty() {
            0
        } else {
            -30000
        };
    }
    if depth == 0 {
        let value = |p| match p {
            Piece::Pawn => 100,
            Piece::Knight | Piece::Bishop => 300,
            Piece::Rook => 500,
            Piece::Queen => 900,
            Piece::King => 0,
        };
        let us = board.colors(board.side_to_move());
        return Piece::ALL
            .iter()
            .map(|&p| {
                let pieces = board.pieces(p);
                value(p) * ((pieces & us).len() as i32 - (pieces & !us).len() as i32)
            })
            .sum();
    }
    let mut best = -32000;
    for mv in moves {
        let mut child = board.clone();
        child.play_unchecked(mv);
        best = best.max(-negamax(&child, depth - 1, nodes));
    }
    best
}
