//! One position's search for `analyze`: the engine's own search (`search::search`, with
//! the threads and limits of the command line), silent, its outcome turned into the
//! fields `analyze` prints.

use std::time::Instant;

use cozy_chess::Move;
use protocol::Score;

use crate::output::Output;
use crate::position::Game;
use crate::search::history::HistoryStore;
use crate::search::report::pv_text;
use crate::search::signals::Signals;
use crate::search::tt::TranspositionTable;
use crate::search::{search, Limits, SearchJob, Settings};

/// What the search of one position found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// `None` only when the side to move has no legal move.
    pub best: Option<Move>,
    /// From the side to move's view; `Mate(0)` when it is checkmated.
    pub score: Score,
    /// The last completed depth.
    pub depth: u32,
    /// Over all threads.
    pub nodes: u64,
    pub millis: u64,
    /// The principal variation in UCI notation, starting with `best` (just `best` when
    /// the search was stopped in a depth that changed its mind).
    pub pv: Vec<String>,
}

/// Searches `game` to `limits` with `settings`; `tt` is cleared first and the histories
/// start empty, so each position is searched as after `ucinewgame`.
pub fn analyse(
    game: Game,
    limits: Limits,
    settings: Settings,
    tt: &TranspositionTable,
) -> Analysis {
    tt.clear();
    let root = game.board.clone();
    let chess960 = settings.chess960;
    let job = SearchJob {
        game,
        limits,
        settings,
    };
    let started = Instant::now();
    // The sender stays alive (and silent) for the whole search: nothing sends `stop`.
    let (_sender, receiver) = crossbeam_channel::unbounded();
    let mut signals = Signals::new(receiver, false, started);
    let outcome = search(
        &job,
        tt,
        &HistoryStore::new(),
        &mut signals,
        &Output::sink(),
    );
    let millis = started.elapsed().as_millis() as u64;

    let Some(best) = outcome.best else {
        let score = if root.checkers().is_empty() {
            Score::Cp(0)
        } else {
            Score::Mate(0)
        };
        return Analysis {
            best: None,
            score,
            depth: 0,
            nodes: outcome.nodes,
            millis,
            pv: Vec::new(),
        };
    };
    let pv = pv_text(&root, &outcome.pv, chess960)
        .iter()
        .map(ToString::to_string)
        .collect();
    let score = crate::search::report::uci_score(outcome.score);
    Analysis {
        best: Some(best),
        score,
        depth: outcome.depth,
        nodes: outcome.nodes,
        millis,
        pv,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{parse_fen, to_uci};

    fn game(fen: &str) -> Game {
        Game::new(parse_fen(fen, false).unwrap())
    }

    fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    #[test]
    fn finds_a_mate_in_one_with_its_pv() {
        let tt = TranspositionTable::new(1);
        let analysis = analyse(
            game("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"),
            depth(4),
            Settings::default(),
            &tt,
        );
        assert_eq!(analysis.score, Score::Mate(1));
        assert_eq!(analysis.pv, ["a1a8"]);
        assert_eq!(analysis.depth, 4);
        assert!(analysis.nodes > 0);
    }

    #[test]
    fn pv_starts_with_the_best_move_with_two_threads() {
        let tt = TranspositionTable::new(1);
        let settings = Settings {
            threads: 2,
            ..Settings::default()
        };
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let analysis = analyse(game(start), depth(5), settings, &tt);
        let best = analysis.best.unwrap();
        let board = parse_fen(start, false).unwrap();
        assert_eq!(analysis.pv[0], to_uci(&board, best, false).to_string());
        assert!(analysis.pv.len() >= 2, "{:?}", analysis.pv);
        assert!(matches!(analysis.score, Score::Cp(_)));
    }

    #[test]
    fn mated_and_stalemated_positions() {
        let tt = TranspositionTable::new(1);
        let mated = analyse(
            game("R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1"),
            depth(3),
            Settings::default(),
            &tt,
        );
        assert_eq!((mated.best, mated.score), (None, Score::Mate(0)));
        let stalemate = analyse(
            game("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
            depth(3),
            Settings::default(),
            &tt,
        );
        assert_eq!((stalemate.best, stalemate.score), (None, Score::Cp(0)));
        assert!(stalemate.pv.is_empty());
    }
}
