//! Varied legal positions for unit tests: random legal playouts from given starts.

use cozy_chess::{Board, Move};

use crate::rng::SplitMix64;

/// `count` positions from random legal playouts of at most `max_plies` plies, starting
/// from each of `starts` in turn; the first `skip_plies` positions of every playout are
/// left out. Deterministic for a given seed.
pub fn random_playouts(
    starts: &[Board],
    count: usize,
    seed: u64,
    max_plies: usize,
    skip_plies: usize,
) -> Vec<Board> {
    assert!(!starts.is_empty() && skip_plies < max_plies);
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::with_capacity(count);
    let mut game = 0;
    while out.len() < count {
        let mut board = starts[game % starts.len()].clone();
        game += 1;
        for ply in 0..max_plies {
            let mut moves: Vec<Move> = Vec::new();
            board.generate_moves(|set| {
                moves.extend(set);
                false
            });
            if moves.is_empty() || out.len() >= count {
                break;
            }
            board.play_unchecked(moves[rng.below(moves.len())]);
            if ply >= skip_plies {
                out.push(board.clone());
            }
        }
    }
    out
}
