//! `UCI_LimitStrength`: playing weaker on request. Two levers, both driven by `UCI_Elo`:
//! - a node budget per move, so the search sees less (fewer nodes at lower Elo);
//! - a softmax choice among the best root lines (the search runs with at least
//!   [`CANDIDATE_LINES`] principal variations), so the engine sometimes prefers a
//!   slightly worse move, and the lower the Elo the larger the mistakes it accepts.
//!
//! The mapping from Elo to these levers is calibrated against Stockfish's own
//! `UCI_Elo` (see `docs/STRENGTH.md`, "Strength limit"); its constants sit in
//! [`Calibration`].

use crate::rng::SplitMix64;

/// The `UCI_Elo` range offered to GUIs.
pub const MIN_ELO: u32 = 1320;
pub const MAX_ELO: u32 = 3000;

/// How many root lines a weakened search considers.
pub const CANDIDATE_LINES: u32 = 4;

/// The constants of the Elo mapping, found by calibration matches.
struct Calibration {
    /// Nodes per move at [`MIN_ELO`].
    nodes_at_min: f64,
    /// Elo gained each time the node budget doubles.
    elo_per_doubling: f64,
    /// Softmax temperature (centipawns) at [`MIN_ELO`]; it falls linearly to zero at
    /// [`MAX_ELO`].
    temperature_at_min: f64,
}

const CALIBRATION: Calibration = Calibration {
    nodes_at_min: 400.0,
    elo_per_doubling: 180.0,
    temperature_at_min: 120.0,
};

/// A requested playing strength.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Strength {
    elo: u32,
    /// Seeds the move choice: the engine varies it per search.
    seed: u64,
}

impl Strength {
    /// The strength for `elo` (clamped to the offered range).
    pub fn new(elo: u32, seed: u64) -> Strength {
        Strength {
            elo: elo.clamp(MIN_ELO, MAX_ELO),
            seed,
        }
    }

    /// The node budget of one move.
    pub fn nodes(&self) -> u64 {
        let doublings = f64::from(self.elo - MIN_ELO) / CALIBRATION.elo_per_doubling;
        (CALIBRATION.nodes_at_min * doublings.exp2()) as u64
    }

    /// The softmax temperature in centipawns: how far below the best score a move may
    /// be and still have a fair chance.
    pub fn temperature(&self) -> f64 {
        let weakness = f64::from(MAX_ELO - self.elo) / f64::from(MAX_ELO - MIN_ELO);
        CALIBRATION.temperature_at_min * weakness
    }

    /// Picks one of the candidate lines, given their scores from the mover's view (the
    /// first being the search's best): each with weight `exp((score - best) /
    /// temperature)`. Mate scores are compared as they are, so a found mate is kept and
    /// a mated line avoided. Returns the index of the chosen line (0 when there is none).
    pub fn choose(&self, scores: &[i32]) -> usize {
        let temperature = self.temperature();
        let Some(&best) = scores.iter().max() else {
            return 0;
        };
        if temperature < 1.0 {
            return 0;
        }
        let weights: Vec<f64> = scores
            .iter()
            .map(|&score| (f64::from(score - best) / temperature).exp())
            .collect();
        let total: f64 = weights.iter().sum();
        let mut point = SplitMix64::new(self.seed).unit() * total;
        for (index, weight) in weights.iter().enumerate() {
            if point < *weight {
                return index;
            }
            point -= weight;
        }
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_elo_means_more_nodes_and_less_noise() {
        let mut last = Strength::new(MIN_ELO, 0);
        for elo in (MIN_ELO + 100..=MAX_ELO).step_by(100) {
            let now = Strength::new(elo, 0);
            assert!(now.nodes() > last.nodes(), "nodes at {elo}");
            assert!(now.temperature() < last.temperature(), "noise at {elo}");
            last = now;
        }
        assert_eq!(Strength::new(MAX_ELO, 0).temperature(), 0.0);
        assert_eq!(Strength::new(100, 0), Strength::new(MIN_ELO, 0));
    }

    #[test]
    fn full_strength_always_plays_the_best_line() {
        for seed in 0..50 {
            assert_eq!(Strength::new(MAX_ELO, seed).choose(&[10, 5, -3]), 0);
        }
    }

    #[test]
    fn low_elo_varies_but_prefers_better_moves_and_never_blunders_much() {
        let mut counts = [0; 3];
        for seed in 0..2000 {
            counts[Strength::new(MIN_ELO, seed).choose(&[30, 20, -1500])] += 1;
        }
        assert!(counts[0] > counts[1], "{counts:?}");
        assert!(
            counts[1] > 300,
            "the second move is played often: {counts:?}"
        );
        assert_eq!(
            counts[2], 0,
            "a queen-losing move is never chosen: {counts:?}"
        );
    }

    #[test]
    fn a_single_line_or_none_gives_index_0() {
        assert_eq!(Strength::new(1500, 1).choose(&[]), 0);
        assert_eq!(Strength::new(1500, 1).choose(&[-40]), 0);
    }
}
