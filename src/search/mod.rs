//! The search: iterative deepening over a negamax alpha-beta, run on the search thread.
//!
//! Entry point: [`search`], given a [`SearchJob`]. It prints an `info` line per completed
//! depth and returns the best move; printing `bestmove` is the search thread's job.

mod alphabeta;
pub mod bench;
mod control;
pub mod correction;
pub mod evaluator;
pub mod history;
pub mod iterative;
pub mod movepick;
pub mod params;
pub mod report;
pub mod see;
pub mod signals;
pub mod strength;
pub mod thread;
pub mod thread_data;
pub mod threads;
pub mod time;
pub mod tt;
pub mod wdl;

use std::time::Duration;

use cozy_chess::Move;

use crate::output::Output;
use crate::position::Game;
use history::HistoryStore;
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
    /// Start no new iteration once this many nodes are searched (self-play data
    /// generation); `nodes` still bounds the last iteration.
    pub soft_nodes: Option<u64>,
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
    /// The limits of one self-play search (`datagen`'s moves, the balance check of a
    /// start position): a soft budget of `soft_nodes` nodes, after which no new iteration
    /// starts, and a hard cap of eight times as many, so that a single iteration cannot
    /// run away.
    pub fn self_play(soft_nodes: u64) -> Limits {
        Limits {
            soft_nodes: Some(soft_nodes),
            nodes: Some(soft_nodes.saturating_mul(8)),
            ..Limits::default()
        }
    }

    /// Whether the caller asked for a fixed amount of work (depth, nodes, mate or
    /// movetime) rather than play on a clock: such a search may finish after end of
    /// input, as a shell pipe expects.
    pub fn is_fixed_work(&self) -> bool {
        !self.infinite
            && (self.depth.is_some()
                || self.nodes.is_some()
                || self.soft_nodes.is_some()
                || self.mate.is_some()
                || self.movetime.is_some())
    }

    /// Whether the search has any bound that ends it without `stop`.
    pub fn is_bounded(&self) -> bool {
        !self.infinite
            && (self.depth.is_some()
                || self.nodes.is_some()
                || self.soft_nodes.is_some()
                || self.mate.is_some()
                || self.movetime.is_some()
                || self.clock.is_some())
    }
}

/// The options that shape a search.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Search threads (Lazy SMP); 1 searches on the calling thread alone.
    pub threads: usize,
    pub multipv: u32,
    pub chess960: bool,
    pub move_overhead: Duration,
    /// `UCI_LimitStrength`: play at this strength rather than the best move found.
    pub strength: Option<strength::Strength>,
    /// `UCI_ShowWDL`: add win/draw/loss estimates to the `info` lines.
    pub show_wdl: bool,
    /// The network to evaluate with; `None` uses the hand-crafted evaluation. By default
    /// the network built into the binary, if it has one.
    pub network: Option<std::sync::Arc<crate::nnue::Network>>,
    /// The Syzygy tables and how to probe them (`SyzygyPath` and the `Syzygy*` options);
    /// `None` searches without tables.
    pub tablebases: Option<crate::tablebase::Probing>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            threads: 1,
            multipv: 1,
            chess960: false,
            move_overhead: Duration::from_millis(10),
            strength: None,
            show_wdl: false,
            network: crate::nnue::embedded(),
            tablebases: None,
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
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SearchOutcome {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    /// The principal variation behind `best`, starting with it (just `best` when the
    /// search was stopped in a depth that changed its mind).
    pub pv: Vec<Move>,
    /// The best line's score from the side to move's view (see `score.rs` for mates).
    pub score: i32,
    /// The last completed depth.
    pub depth: u32,
    pub nodes: u64,
}

/// Runs a search to its limits (or until `stop`), printing `info` lines to `out`.
/// `memory` holds the move-ordering statistics of earlier searches in the game.
pub fn search(
    job: &SearchJob,
    tt: &TranspositionTable,
    memory: &HistoryStore,
    signals: &mut Signals,
    out: &Output,
) -> SearchOutcome {
    iterative::start(job, tt, memory, signals, out)
}

/// Searches `game` on the calling thread with default settings and no output, until
/// `limits` end it: for `bench`, tools and tests. `limits` must be bounded. The search
/// starts from empty histories, so that the same call gives the same search.
pub fn think(game: Game, limits: Limits, tt: &TranspositionTable) -> SearchOutcome {
    think_with(game, limits, tt, Settings::default())
}

/// [`think`] with other settings (another network, Chess960).
pub fn think_with(
    game: Game,
    limits: Limits,
    tt: &TranspositionTable,
    settings: Settings,
) -> SearchOutcome {
    think_in_game(game, limits, tt, &HistoryStore::new(), settings)
}

/// [`think_with`] for one of the successive searches of a game: the move-ordering
/// histories are taken from `memory` and put back for the next move, as the engine keeps
/// them between the `go` commands of a game (worth +42.5 Elo there; see
/// [`HistoryStore`]). The same calls with the same store give the same searches.
pub fn think_in_game(
    game: Game,
    limits: Limits,
    tt: &TranspositionTable,
    memory: &HistoryStore,
    settings: Settings,
) -> SearchOutcome {
    let job = SearchJob {
        game,
        limits,
        settings,
    };
    // The sender stays alive (and silent) for the whole search.
    let (_sender, receiver) = crossbeam_channel::unbounded();
    let mut signals = Signals::new(receiver, false, std::time::Instant::now());
    search(&job, tt, memory, &mut signals, &Output::sink())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_searches_of_a_game_carry_their_histories_over() {
        let depth = Limits {
            depth: Some(8),
            ..Limits::default()
        };
        let tt = TranspositionTable::new(1);
        let memory = HistoryStore::new();
        let start = Game::new(cozy_chess::Board::default());
        let first = think_in_game(
            start.clone(),
            depth.clone(),
            &tt,
            &memory,
            Settings::default(),
        );
        let mut next = start;
        next.play(first.best.expect("the start position has moves"));
        let searched = |memory: &HistoryStore| {
            tt.clear();
            let outcome = think_in_game(
                next.clone(),
                depth.clone(),
                &tt,
                memory,
                Settings::default(),
            );
            (outcome.nodes, outcome.pv)
        };
        let fresh = searched(&HistoryStore::new());
        // Deterministic from empty histories, as `think_with` is ...
        assert_eq!(fresh, searched(&HistoryStore::new()));
        tt.clear();
        let outcome = think_with(next.clone(), depth.clone(), &tt, Settings::default());
        assert_eq!(fresh, (outcome.nodes, outcome.pv));
        // ... while the first move's histories order the second search's moves otherwise.
        assert_ne!(fresh.0, searched(&memory).0);
    }
}
