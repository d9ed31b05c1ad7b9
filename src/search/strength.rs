//! `UCI_LimitStrength`: playing weaker on request. Two levers, both driven by `UCI_Elo`:
//! - a node budget per move, so the search sees less (fewer nodes at lower Elo);
//! - up to 1900, a softmax choice among the best root lines (the search runs with at
//!   least [`CANDIDATE_LINES`] principal variations), so the engine sometimes prefers a
//!   slightly worse move, and the lower the Elo the larger the mistakes it accepts.
//!
//! The mapping from Elo to these levers is a table of knots measured against Stockfish
//! 15.1's own `UCI_Elo` (`UCI_LimitStrength` on, `tools/knot.sh`; see `docs/STRENGTH.md`,
//! "Strength limit"); between knots the node budget is interpolated geometrically and the
//! temperature linearly.

use crate::rng::SplitMix64;

/// The `UCI_Elo` range offered to GUIs: from the lowest knot to the highest, which
/// plays a one-line search of 280,000 nodes (about Stockfish 15.1 `UCI_Elo` 2400 where last
/// measured; see the knots).
pub const MIN_ELO: u32 = CALIBRATION[0].elo;
pub const MAX_ELO: u32 = CALIBRATION[CALIBRATION.len() - 1].elo;

/// How many root lines a weakened search considers when it may choose among them.
pub const CANDIDATE_LINES: u32 = 4;

/// One point of the calibration: the search settings that play at `elo`.
struct Knot {
    elo: u32,
    /// Nodes per move.
    nodes: f64,
    /// Softmax temperature in centipawns (0: always the best line).
    temperature: f64,
}

/// The knots, by rising Elo, placed by calibration matches against Stockfish (figures in
/// `docs/STRENGTH.md`, "Strength limit"). Up to 1900 the engine draws its move among
/// four lines; above, it plays its best line and only the node budget grows. The two
/// knots at 1900 mark that switch: both play at about 1900, so strength rises smoothly
/// although the settings jump (the four-line search needs far more nodes for the same
/// strength). The top knot is the full search with somewhat fewer nodes than it spends
/// on a move at 10+0.1. Every stronger network lifts the knots, the one-line ones most, so
/// they are re-measured with each built-in net (with n7a on 2026-11-27, which moved the
/// four-line knots too; with f8-e48 on 2026-11-28, which moved 2200 to 2400; with n9w256
/// on 2026-12-01, 1450 to 2400 all within their error bars, so none moved; not yet with
/// any net built in since).
/// Stockfish's scale is a staircase: its `UCI_Elo` picks a search depth (1 + its
/// fractional skill level), so 2200 and 2250 are both depth 10, and its lowest settings,
/// 1350 to about 1490, all depth 1; knots are measured against the step that holds their
/// Elo, and 1320 (below Stockfish's range) by its distance from 1450.
const CALIBRATION: [Knot; 9] = [
    Knot {
        elo: 1320,
        nodes: 1_500.0,
        temperature: 100.0,
    },
    Knot {
        elo: 1750,
        nodes: 12_000.0,
        temperature: 52.0,
    },
    Knot {
        elo: 1900,
        nodes: 27_000.0,
        temperature: 32.0,
    },
    Knot {
        elo: 1900,
        nodes: 3_500.0,
        temperature: 0.0,
    },
    Knot {
        elo: 2000,
        nodes: 9_000.0,
        temperature: 0.0,
    },
    Knot {
        elo: 2100,
        nodes: 18_000.0,
        temperature: 0.0,
    },
    Knot {
        elo: 2200,
        nodes: 75_000.0,
        temperature: 0.0,
    },
    Knot {
        elo: 2300,
        nodes: 85_000.0,
        temperature: 0.0,
    },
    Knot {
        elo: 2400,
        nodes: 280_000.0,
        temperature: 0.0,
    },
];

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

    /// The two knots around this strength and how far between them it lies (0 to 1). At
    /// a pair of knots with the same Elo, that Elo itself belongs to the segment below.
    fn between(&self) -> (&'static Knot, &'static Knot, f64) {
        let upper = CALIBRATION
            .iter()
            .position(|knot| knot.elo >= self.elo)
            .unwrap_or(CALIBRATION.len() - 1)
            .max(1);
        let (low, high) = (&CALIBRATION[upper - 1], &CALIBRATION[upper]);
        let fraction = f64::from(self.elo - low.elo) / f64::from(high.elo - low.elo);
        (low, high, fraction.clamp(0.0, 1.0))
    }

    /// The node budget of one move.
    pub fn nodes(&self) -> u64 {
        let (low, high, fraction) = self.between();
        (low.nodes * (high.nodes / low.nodes).powf(fraction)) as u64
    }

    /// The softmax temperature in centipawns: how far below the best score a move may
    /// be and still have a fair chance.
    pub fn temperature(&self) -> f64 {
        let (low, high, fraction) = self.between();
        low.temperature + (high.temperature - low.temperature) * fraction
    }

    /// Whether the move is drawn among several lines at all: not once the temperature
    /// is below a centipawn, where the best line would win every draw anyway.
    fn has_choice(&self) -> bool {
        self.temperature() >= 1.0
    }

    /// How many root lines the search needs: several while there is a choice to make (up
    /// to 1900), otherwise the user's `MultiPV`.
    pub fn lines(&self, multipv: u32) -> u32 {
        if self.has_choice() {
            multipv.max(CANDIDATE_LINES)
        } else {
            multipv
        }
    }

    /// Picks one of the candidate lines, given their scores from the mover's view (the
    /// first being the search's best): each with weight `exp((score - best) /
    /// temperature)`. Mate scores are compared as they are, so a found mate is kept and
    /// a mated line avoided. Returns the index of the chosen line (0 when there is none).
    pub fn choose(&self, scores: &[i32]) -> usize {
        let Some(&best) = scores.iter().max() else {
            return 0;
        };
        if !self.has_choice() {
            return 0;
        }
        let temperature = self.temperature();
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
        for elo in MIN_ELO + 10..=MAX_ELO {
            let now = Strength::new(elo, 0);
            // Nodes rise within a regime; at the switch to one line they may fall.
            if now.lines(1) == last.lines(1) {
                assert!(now.nodes() > last.nodes(), "nodes at {elo}");
            }
            assert!(
                now.temperature() < last.temperature() || now.temperature() == 0.0,
                "noise at {elo}"
            );
            last = now;
        }
        assert_eq!(Strength::new(1900, 0).lines(1), CANDIDATE_LINES);
        assert_eq!(Strength::new(1901, 0).lines(1), 1);
        assert_eq!(Strength::new(MAX_ELO, 0).temperature(), 0.0);
        assert_eq!(Strength::new(MAX_ELO, 0).lines(1), 1);
        assert_eq!(Strength::new(MIN_ELO, 0).lines(1), CANDIDATE_LINES);
        // The knots themselves are met exactly (the first of a pair at the same Elo).
        for (i, knot) in CALIBRATION.iter().enumerate() {
            if i > 0 && CALIBRATION[i - 1].elo == knot.elo {
                continue;
            }
            let strength = Strength::new(knot.elo, 0);
            assert!(
                strength.nodes().abs_diff(knot.nodes as u64) <= 1,
                "nodes at {}",
                knot.elo
            );
            assert!((strength.temperature() - knot.temperature).abs() < 1e-9);
        }
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
