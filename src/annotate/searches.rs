//! The searches of `annotate`: every position of a game's main line searched once, in
//! order, by the engine's own search, the hash table and the move-ordering histories
//! carried from one position to the next as in a game the engine plays.

use std::ops::Range;

use cozy_chess::{Board, Move};

use crate::position::{legal_moves, Game};
use crate::score::mated_in;
use crate::search::history::HistoryStore;
use crate::search::tt::TranspositionTable;
use crate::search::{think_in_game, Limits, Settings};

/// What bounds each search and how it runs.
#[derive(Debug, Clone)]
pub struct Budget {
    pub limits: Limits,
    /// The search's settings: its threads, Chess960, tablebases.
    pub settings: Settings,
}

/// The search of one position of the main line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Searched {
    /// The side to move's score, encoded as the search encodes it (`crate::score`):
    /// mated at once when checkmated, 0 when stalemated.
    pub score: i32,
    /// `None` when the side to move has no legal move.
    pub best: Option<Move>,
    /// The principal variation, starting with `best`.
    pub pv: Vec<Move>,
    /// The number of legal moves (1: the move played was forced).
    pub legal: usize,
    pub depth: u32,
    pub nodes: u64,
}

/// The positions of a game: `start`, then the position after each of `moves` (legal, in
/// order), as searchable games carrying their earlier positions for repetitions.
pub fn positions(start: &Board, moves: &[Move]) -> Vec<Game> {
    let mut game = Game::new(start.clone());
    let mut all = Vec::with_capacity(moves.len() + 1);
    all.push(game.clone());
    for &mv in moves {
        game.play(mv);
        all.push(game.clone());
    }
    all
}

/// Searches the positions `range` of `games` in order with `budget`, starting from a
/// cleared `tt` and empty histories (so the same call always gives the same searches
/// with one search thread) and keeping both from one position to the next.
pub fn search_range(
    games: &[Game],
    range: Range<usize>,
    budget: &Budget,
    tt: &TranspositionTable,
    mut done: impl FnMut(),
) -> Vec<Searched> {
    tt.clear();
    let memory = HistoryStore::new();
    let mut searched = Vec::with_capacity(range.len());
    for game in &games[range] {
        searched.push(search_one(game, budget, tt, &memory));
        done();
    }
    searched
}

/// One position's search; a position without legal moves is scored without one.
fn search_one(
    game: &Game,
    budget: &Budget,
    tt: &TranspositionTable,
    memory: &HistoryStore,
) -> Searched {
    let legal = legal_moves(&game.board).len();
    if legal == 0 {
        let mated = !game.board.checkers().is_empty();
        return Searched {
            score: if mated { mated_in(0) } else { 0 },
            best: None,
            pv: Vec::new(),
            legal,
            depth: 0,
            nodes: 0,
        };
    }
    let outcome = think_in_game(
        game.clone(),
        budget.limits.clone(),
        tt,
        memory,
        budget.settings.clone(),
    );
    Searched {
        score: outcome.score,
        best: outcome.best,
        pv: outcome.pv,
        legal,
        depth: outcome.depth,
        nodes: outcome.nodes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{from_uci, parse_fen};

    fn budget(nodes: u64) -> Budget {
        Budget {
            limits: Limits {
                nodes: Some(nodes),
                ..Limits::default()
            },
            settings: Settings::default(),
        }
    }

    fn line(fen: &str, uci: &[&str]) -> (Board, Vec<Move>) {
        let start = parse_fen(fen, false).unwrap();
        let mut board = start.clone();
        let moves = uci
            .iter()
            .map(|text| {
                let mv = from_uci(&board, text.parse().unwrap(), false).unwrap();
                board.play(mv);
                mv
            })
            .collect();
        (start, moves)
    }

    #[test]
    fn every_position_is_searched_once_and_terminal_ones_are_scored() {
        // Fool's mate: the last position is checkmate.
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let (board, moves) = line(start, &["f2f3", "e7e5", "g2g4", "d8h4"]);
        let games = positions(&board, &moves);
        assert_eq!(games.len(), 5);
        let tt = TranspositionTable::new(1);
        let mut calls = 0;
        let searched = search_range(&games, 0..5, &budget(2_000), &tt, || calls += 1);
        assert_eq!((searched.len(), calls), (5, 5));
        assert!(searched[..4]
            .iter()
            .all(|s| s.best.is_some() && s.nodes > 0));
        // Before Qh4# the search finds the mate; after it White is mated.
        assert_eq!(searched[3].best, Some(moves[3]));
        assert_eq!(searched[4].score, mated_in(0));
        assert_eq!((searched[4].best, searched[4].legal), (None, 0));
    }

    #[test]
    fn the_same_range_gives_the_same_searches() {
        let start = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
        let (board, moves) = line(start, &["f1b5", "a7a6", "b5a4", "g8f6"]);
        let games = positions(&board, &moves);
        let tt = TranspositionTable::new(1);
        let first = search_range(&games, 1..5, &budget(3_000), &tt, || {});
        let again = search_range(&games, 1..5, &budget(3_000), &tt, || {});
        assert_eq!(first, again);
    }
}
