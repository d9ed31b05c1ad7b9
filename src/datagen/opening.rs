//! Varied starting positions for self-play: a few uniformly random legal plies from the
//! start position or from a random book position, kept only when the game is still on and
//! a short search finds it roughly balanced.

use cozy_chess::Move;

use crate::position::{legal_moves, Game};
use crate::rng::SplitMix64;
use crate::search::tt::TranspositionTable;
use crate::search::{think_with, Settings};

use super::game::{ended_by_rules, limits};

/// Random plies played from the start position.
pub const RANDOM_PLIES_FROM_START: usize = 8;
/// Random plies played from a book position.
pub const RANDOM_PLIES_FROM_BOOK: usize = 2;
/// A start is rejected when a short search scores it beyond this many centipawns.
pub const MAX_START_SCORE: i32 = 300;
/// How many starts are tried before the last one is taken whatever its score.
const ATTEMPTS: usize = 50;

/// Picks a start: a random book position (or the initial position without a book), then
/// a random number of random plies (the fixed count, or one more so that both sides get to
/// move first out of the opening), checked with a search of `soft_nodes` nodes.
pub fn choose(
    book: &[Game],
    rng: &mut SplitMix64,
    soft_nodes: u64,
    tt: &TranspositionTable,
    settings: &Settings,
) -> Game {
    let mut last = initial_position();
    for _ in 0..ATTEMPTS {
        let (mut game, plies) = if book.is_empty() {
            (initial_position(), RANDOM_PLIES_FROM_START)
        } else {
            (book[rng.below(book.len())].clone(), RANDOM_PLIES_FROM_BOOK)
        };
        let plies = plies + rng.below(2);
        if !random_plies(&mut game, plies, rng) {
            continue;
        }
        tt.clear();
        let outcome = think_with(game.clone(), limits(soft_nodes), tt, settings.clone());
        last = game;
        if outcome.best.is_some() && outcome.score.abs() <= MAX_START_SCORE {
            break;
        }
    }
    last
}

/// The standard initial position.
fn initial_position() -> Game {
    Game::new(Default::default())
}

/// Plays `count` uniformly random legal moves; false if the game ended on the way.
fn random_plies(game: &mut Game, count: usize, rng: &mut SplitMix64) -> bool {
    for _ in 0..count {
        if ended_by_rules(game).is_some() {
            return false;
        }
        let moves: Vec<Move> = legal_moves(&game.board);
        game.play(moves[rng.below(moves.len())]);
    }
    ended_by_rules(game).is_none()
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
        assert!(ended_by_rules(&a).is_none());
        let plies = u32::from(a.board.fullmove_number() - 1) * 2
            + u32::from(a.board.side_to_move() == cozy_chess::Color::Black);
        assert!((8..=9).contains(&plies), "{plies} plies");
        let distinct: std::collections::HashSet<u64> =
            (0..8).map(|seed| pick(seed).board.hash()).collect();
        assert!(distinct.len() >= 7, "starts repeat: {}", distinct.len());
    }
}
