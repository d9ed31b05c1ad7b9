//! Varied starting positions, for self-play (`datagen`) and for OpenBench's `genfens`: a
//! few uniformly random legal plies from the start position or from a position of an EPD
//! book, kept only when the game is still on and a short search finds it roughly
//! balanced. Below both `datagen` and the engine: it asks only the rules, the search and
//! the random generator.
//!
//! `epd.rs` reads the books (EPD or FEN lines, standard or Chess960 castling) and
//! `genfens.rs` is the `genfens` command.

pub mod epd;
pub mod genfens;

use crate::position::{legal_moves, Game};
use crate::rng::SplitMix64;
use crate::rules::game_end;
use crate::search::history::HistoryStore;
use crate::search::tt::TranspositionTable;
use crate::search::{think_in_game, Limits, Settings};

/// Random plies played from the start position (this many or one more).
pub const RANDOM_PLIES_FROM_START: usize = 8;
/// Random plies played from a book position (this many or one more).
pub const RANDOM_PLIES_FROM_BOOK: usize = 2;
/// A start is rejected when a short search scores it beyond this many centipawns.
pub const MAX_START_SCORE: i32 = 300;
/// How many starts `choose` tries before the last one is taken whatever its score.
const ATTEMPTS: usize = 50;

/// Picks a start for a self-play game: a random book position (or the initial position
/// without a book), then a random number of random plies (the fixed count, or one more so
/// that both sides get to move first out of the opening), checked with a search of
/// `soft_nodes` nodes; after [`ATTEMPTS`] unbalanced starts the last one is taken.
pub fn choose(
    book: &[Game],
    rng: &mut SplitMix64,
    soft_nodes: u64,
    tt: &TranspositionTable,
    settings: &Settings,
) -> Game {
    let mut last = initial_position();
    let plies = default_plies(book);
    for _ in 0..ATTEMPTS {
        let Some(game) = candidate(book, plies, rng) else {
            continue;
        };
        last = game;
        let fresh = HistoryStore::new();
        if is_balanced(&last, soft_nodes, MAX_START_SCORE, tt, &fresh, settings) {
            break;
        }
    }
    last
}

/// The usual number of random plies: [`RANDOM_PLIES_FROM_START`] without a book,
/// [`RANDOM_PLIES_FROM_BOOK`] with one.
pub fn default_plies(book: &[Game]) -> usize {
    if book.is_empty() {
        RANDOM_PLIES_FROM_START
    } else {
        RANDOM_PLIES_FROM_BOOK
    }
}

/// One candidate start: a random book position (the initial position when `book` is
/// empty) and `plies` or `plies + 1` uniformly random legal plies; `None` if the game
/// ended on the way (or is over at the end). The random choices are drawn in this order:
/// the book position, the extra ply, each move.
pub fn candidate(book: &[Game], plies: usize, rng: &mut SplitMix64) -> Option<Game> {
    let mut game = if book.is_empty() {
        initial_position()
    } else {
        book[rng.below(book.len())].clone()
    };
    let count = plies + rng.below(2);
    random_plies(&mut game, count, rng).then_some(game)
}

/// Whether a search of `soft_nodes` nodes (on `tt`, cleared first, with the move-ordering
/// histories of `histories`) finds a move and scores the position within `max_score`
/// centipawns.
pub fn is_balanced(
    game: &Game,
    soft_nodes: u64,
    max_score: i32,
    tt: &TranspositionTable,
    histories: &HistoryStore,
    settings: &Settings,
) -> bool {
    tt.clear();
    let outcome = think_in_game(
        game.clone(),
        Limits::self_play(soft_nodes),
        tt,
        histories,
        settings.clone(),
    );
    outcome.best.is_some() && outcome.score.abs() <= max_score
}

/// The standard initial position.
fn initial_position() -> Game {
    Game::new(Default::default())
}

/// Plays `count` uniformly random legal moves; false if the game ended on the way.
fn random_plies(game: &mut Game, count: usize, rng: &mut SplitMix64) -> bool {
    for _ in 0..count {
        if game_end(game).is_some() {
            return false;
        }
        let moves = legal_moves(&game.board);
        game.play(moves[rng.below(moves.len())]);
    }
    game_end(game).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_are_varied_playable_and_reproducible() {
        let tt = TranspositionTable::new(1);
        let pick = |seed| {
            choose(
                &[],
                &mut SplitMix64::new(seed),
                500,
                &tt,
                &Settings::default(),
            )
        };
        let a = pick(1);
        assert_eq!(a.board, pick(1).board, "the same seed gives the same start");
        assert!(game_end(&a).is_none());
        let plies = u32::from(a.board.fullmove_number() - 1) * 2
            + u32::from(a.board.side_to_move() == cozy_chess::Color::Black);
        assert!((8..=9).contains(&plies), "{plies} plies");
        let distinct: std::collections::HashSet<u64> =
            (0..8).map(|seed| pick(seed).board.hash()).collect();
        assert!(distinct.len() >= 7, "starts repeat: {}", distinct.len());
    }

    #[test]
    fn a_book_start_gets_two_or_three_plies() {
        let book = [Game::new(
            crate::position::parse_fen(
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
                false,
            )
            .unwrap(),
        )];
        let mut rng = SplitMix64::new(3);
        for _ in 0..20 {
            let game = candidate(&book, default_plies(&book), &mut rng).unwrap();
            let board = &game.board;
            let plies = (board.fullmove_number() - 2) * 2
                + u16::from(board.side_to_move() == cozy_chess::Color::Black);
            assert!((2..=3).contains(&plies), "{plies} plies");
        }
    }
}
