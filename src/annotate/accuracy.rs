//! Each player's accuracy in percent, as Lichess defines it (lila's
//! `AccuracyPercent.scala`), so that the figure reads as players know it: every score is
//! turned into a win percentage by Lichess's curve `50 + 50 * (2 / (1 + exp(-0.00368208
//! * cp)) - 1)` (centipawns clamped to ±1000, mates at the clamp); a move's accuracy is
//! `103.1668 * exp(-0.04354 * drop) - 3.1669 + 1` for a drop of its mover's win
//! percentage (100 when it did not drop), clamped to 0..100; a player's accuracy is the
//! mean of a volatility-weighted mean of their moves' accuracies (each weighted by the
//! standard deviation of the win percentages in a window around it, clamped to 0.5..12)
//! and their harmonic mean. The one difference: Lichess starts from a fixed score of the
//! initial position, `annotate` from the search of the game's first position.

/// Lichess's win percentage (0 to 100) of White for a White-view centipawn score.
pub fn win_percent(cp: i32) -> f64 {
    let cp = f64::from(cp.clamp(-1000, 1000));
    50.0 + 50.0 * (2.0 / (1.0 + (-0.003_682_08 * cp).exp()) - 1.0)
}

/// The accuracy of a move that took its mover's win percentage from `before` to `after`.
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let drop = before - after;
    let raw =
        103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * drop).exp() - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// The accuracies of White and Black over a game whose positions have the White-view
/// centipawn scores `cps` (the first position, then one per move); `white_first` says
/// who made the first move. `None` for a player without moves.
pub fn game_accuracy(cps: &[i32], white_first: bool) -> (Option<f64>, Option<f64>) {
    let wins: Vec<f64> = cps.iter().map(|&cp| win_percent(cp)).collect();
    let moves = wins.len().saturating_sub(1);
    if moves == 0 {
        return (None, None);
    }
    let window = (moves / 10).clamp(2, 8).min(wins.len());
    // One window per move: the first window repeated, then every window in turn.
    let first_windows = std::iter::repeat_n(&wins[..window], window.saturating_sub(2));
    let weights: Vec<f64> = first_windows
        .chain(wins.windows(window))
        .map(|values| standard_deviation(values).clamp(0.5, 12.0))
        .collect();
    let mut white = Vec::new();
    let mut black = Vec::new();
    for (index, pair) in wins.windows(2).enumerate() {
        let white_moves = index.is_multiple_of(2) == white_first;
        let (before, after, player) = if white_moves {
            (pair[0], pair[1], &mut white)
        } else {
            (100.0 - pair[0], 100.0 - pair[1], &mut black)
        };
        player.push((move_accuracy(before, after), weights[index]));
    }
    (player_accuracy(&white), player_accuracy(&black))
}

/// The mean of the weighted mean and the harmonic mean of `(accuracy, weight)` pairs.
fn player_accuracy(moves: &[(f64, f64)]) -> Option<f64> {
    if moves.is_empty() {
        return None;
    }
    let total_weight: f64 = moves.iter().map(|&(_, weight)| weight).sum();
    let weighted = moves.iter().map(|&(a, w)| a * w).sum::<f64>() / total_weight;
    let reciprocals: f64 = moves.iter().map(|&(a, _)| 1.0 / a.max(1.0)).sum();
    let harmonic = moves.len() as f64 / reciprocals;
    Some((weighted + harmonic) / 2.0)
}

/// The population standard deviation.
fn standard_deviation(values: &[f64]) -> f64 {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn win_percent_is_lichess_curve() {
        assert_eq!(win_percent(0), 50.0);
        assert!((win_percent(100) - 59.1).abs() < 0.05);
        assert!((win_percent(-300) - 24.9).abs() < 0.05);
        assert_eq!(win_percent(5000), win_percent(1000));
    }

    #[test]
    fn move_accuracy_falls_with_the_drop() {
        assert_eq!(move_accuracy(50.0, 55.0), 100.0);
        assert!((move_accuracy(50.0, 50.0) - 100.0).abs() < 1e-9);
        let small = move_accuracy(50.0, 45.0);
        let large = move_accuracy(50.0, 20.0);
        assert!(small > 80.0 && small < 85.0, "{small}");
        assert!(large > 25.0 && large < 30.0, "{large}");
        assert_eq!(move_accuracy(100.0, 0.0), 0.0);
    }

    #[test]
    fn a_flawless_game_is_100_and_a_blunder_costs_its_player() {
        let (white, black) = game_accuracy(&[20, 25, 20, 30, 25, 30], true);
        assert!((white.unwrap() - 100.0).abs() < 1e-9);
        assert!((black.unwrap() - 100.0).abs() < 1e-9);
        // Black's second move drops a piece.
        let (white, black) = game_accuracy(&[20, 25, 20, 30, 330, 320], true);
        assert!(white.unwrap() > 99.0);
        assert!(black.unwrap() < 70.0, "{black:?}");
        // A game started by Black: its first move is Black's.
        let (white, black) = game_accuracy(&[20, 320, 330], false);
        assert!(white.unwrap() > 99.0 && black.unwrap() < 70.0);
        assert_eq!(game_accuracy(&[20], true), (None, None));
        assert_eq!(game_accuracy(&[20, 30], true).1, None);
    }
}
