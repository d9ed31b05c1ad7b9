//! The evaluation a search thread owns: the hand-crafted evaluation, which needs no state,
//! or the network with its stack of accumulators, fed by the move deltas the searcher
//! records. The search calls only `Searcher::evaluate`, which asks this.

use std::sync::Arc;

use cozy_chess::{Board, Move};

use crate::moves::MoveDelta;
use crate::nnue::{Network, NnueStack};
use crate::score::TB_WIN_BOUND;

/// One search thread's evaluation.
pub enum Evaluator {
    /// The hand-crafted evaluation (`eval/`).
    Classical,
    /// The network, with accumulators kept along the current line.
    Network(Box<NnueStack>),
}

impl Evaluator {
    /// The evaluation of a search from `root`: the network when one is loaded.
    pub fn new(network: Option<&Arc<Network>>, root: &Board) -> Evaluator {
        match network {
            None => Evaluator::Classical,
            Some(net) => {
                let mut stack = Box::new(NnueStack::new(Arc::clone(net)));
                stack.reset(root);
                Evaluator::Network(stack)
            }
        }
    }

    /// `mv` was made from `board`. Only the network needs to know what it changed.
    #[inline]
    pub fn push(&mut self, board: &Board, mv: Move) {
        if let Evaluator::Network(stack) = self {
            stack.push(&MoveDelta::new(board, mv));
        }
    }

    /// A null move was made.
    #[inline]
    pub fn push_null(&mut self) {
        if let Evaluator::Network(stack) = self {
            stack.push_null();
        }
    }

    /// The last move (or null move) was taken back.
    #[inline]
    pub fn pop(&mut self) {
        if let Evaluator::Network(stack) = self {
            stack.pop();
        }
    }

    /// The evaluation of `board`, the position at the top of the line, from the side to
    /// move's view, kept below the tablebase and mate scores (see [`clamp_static`]).
    #[inline]
    pub fn evaluate(&mut self, board: &Board) -> i32 {
        clamp_static(self.evaluate_unclamped(board))
    }

    #[inline]
    fn evaluate_unclamped(&mut self, board: &Board) -> i32 {
        match self {
            Evaluator::Classical => crate::eval::evaluate(board),
            Evaluator::Network(stack) => {
                let score = stack.evaluate(board);
                // The library's tests and debug builds check every incremental evaluation
                // of every search against a fresh computation.
                if cfg!(any(test, debug_assertions)) {
                    assert_eq!(
                        score,
                        crate::nnue::evaluate_fresh(stack.network(), board),
                        "accumulators out of step at {board}"
                    );
                }
                // The search sees the network's score scaled by the material left.
                crate::nnue::scale_by_material(score, board)
            }
        }
    }
}

/// A static evaluation as the search may use it: strictly inside the ordinary scores, so
/// that no evaluation (a network file with extreme but valid weights can reach millions
/// of centipawns) is mistaken for a tablebase or mate score or leaves the search's window.
#[inline(always)]
pub fn clamp_static(score: i32) -> i32 {
    score.clamp(-(TB_WIN_BOUND - 1), TB_WIN_BOUND - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::file::{Inputs, NetworkParams, INPUTS};
    use crate::position::{parse_fen, Game};
    use crate::rng::SplitMix64;
    use crate::search::tt::TranspositionTable;
    use crate::search::{think_with, Limits, Settings};

    fn random_network(hidden: usize, seed: u64, inputs: Inputs) -> Arc<Network> {
        let mut rng = SplitMix64::new(seed);
        let mut values = |n: usize, range: usize| -> Vec<i16> {
            (0..n)
                .map(|_| (rng.below(2 * range + 1) as i32 - range as i32) as i16)
                .collect()
        };
        let buckets = 8;
        let params = NetworkParams {
            hidden,
            buckets,
            inputs,
            activation: Default::default(),
            quant: Default::default(),
            feature_weights: values(INPUTS * hidden, 120),
            feature_bias: values(hidden, 120),
            output_weights: values(buckets * 2 * hidden, 127),
            output_bias: (0..buckets as i32).map(|b| 1000 - 300 * b).collect(),
        };
        Arc::new(Network::from_bytes(&params.to_bytes()).unwrap())
    }

    /// Whole searches with a network: every evaluation on the way is checked against a
    /// fresh one (the debug assertion above), through captures, en passant, promotions,
    /// castling in both modes, null moves and the singular-extension searches, with
    /// plain and king-mirrored inputs.
    #[test]
    fn searches_keep_the_accumulators_in_step() {
        for inputs in [Inputs::Plain, Inputs::KingMirrored] {
            searches_keep_the_accumulators_in_step_with(random_network(32, 9, inputs));
        }
    }

    fn searches_keep_the_accumulators_in_step_with(network: Arc<Network>) {
        let tt = TranspositionTable::new(4);
        for (fen, chess960) in [
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                false,
            ),
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                false,
            ),
            ("8/1P4k1/8/8/8/8/6Kp/8 w - - 0 1", false),
            (
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                true,
            ),
        ] {
            tt.clear();
            let game = Game::new(parse_fen(fen, chess960).unwrap());
            let settings = Settings {
                network: Some(Arc::clone(&network)),
                chess960,
                ..Settings::default()
            };
            let limits = Limits {
                nodes: Some(20_000),
                ..Limits::default()
            };
            let outcome = think_with(game, limits, &tt, settings);
            assert!(outcome.best.is_some(), "{fen}");
            assert!(outcome.nodes > 1_000, "{fen}");
        }
    }

    /// A valid network whose every weight is at the trainer's limit evaluates far beyond
    /// the tablebase scores; the search sees it clamped, and never reports such a
    /// position as won by tablebase or mate.
    #[test]
    fn extreme_evaluations_stay_below_tablebase_and_mate_scores() {
        let hidden = 64;
        let params = NetworkParams {
            hidden,
            buckets: 1,
            inputs: Inputs::Plain,
            activation: Default::default(),
            quant: Default::default(),
            feature_weights: vec![504; INPUTS * hidden],
            feature_bias: vec![0; hidden],
            output_weights: [vec![127; hidden], vec![0; hidden]].concat(),
            output_bias: vec![0],
        };
        let network = Arc::new(Network::from_bytes(&params.to_bytes()).unwrap());
        let board = cozy_chess::Board::default();
        let raw = crate::nnue::evaluate_fresh(&network, &board);
        assert!(raw > TB_WIN_BOUND, "the test network is not extreme: {raw}");
        let mut evaluator = Evaluator::new(Some(&network), &board);
        assert_eq!(evaluator.evaluate(&board), TB_WIN_BOUND - 1);
        let settings = Settings {
            network: Some(network),
            ..Settings::default()
        };
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let tt = TranspositionTable::new(1);
        let outcome = think_with(Game::new(board), limits, &tt, settings);
        assert!(outcome.best.is_some());
        assert!(
            outcome.score.abs() < TB_WIN_BOUND,
            "an evaluation reported as a tablebase or mate score: {}",
            outcome.score
        );
    }
}
