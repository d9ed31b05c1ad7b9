//! The held-out losses: what a trained network is measured by (after every epoch, and by
//! `--measure`), and the references it has to beat (the best constant prediction, the
//! hand-crafted evaluation, the built-in network).

use super::data::{Record, Split};
use super::model::{self, Network};
use super::{load_files, Command, TrainError};
use crate::nnue::file::SCALE;

/// Prints the held-out losses a trained net is to beat: the best constant prediction,
/// the hand-crafted evaluation and the built-in network.
pub(super) fn report_reference_losses(split: &Split, wdl: f32) {
    if let Some(loss) = constant_loss(&split.held_out, wdl) {
        eprintln!(
            "held-out loss of the best constant prediction (the targets' variance): {loss:.6}"
        );
    }
    if let Some(reference) = reference_loss(&split.held_out, &split.held_out_classical, wdl) {
        eprintln!(
            "held-out loss of the hand-crafted evaluation: {:.6} as it is (cp / {SCALE}), {:.6} at its best scale (cp / {:.0})",
            reference.as_is, reference.best, reference.best_divisor
        );
    }
    if let Some(reference) = reference_loss(&split.held_out, &split.held_out_built_in, wdl) {
        eprintln!(
            "held-out loss of the built-in network: {:.6} as it is (cp / {SCALE}), {:.6} at its best scale (cp / {:.0})",
            reference.as_is, reference.best, reference.best_divisor
        );
    }
}

/// `--measure`: the loss of each of `nets` on the kept positions of the held-out games
/// (the `--holdout` share that training holds out: games no network trained with that
/// share has seen), after lines for the built-in network and the hand-crafted evaluation
/// on the same positions, one line each.
pub fn measure(command: &Command, nets: &[(String, Network)]) -> Result<Vec<String>, TrainError> {
    let config = &command.config;
    // Only held-out positions are measured, and they keep their own scores.
    let split = load_files(&command.data, command.holdout, 0, config.threads)?;
    let positions = &split.held_out;
    if positions.is_empty() {
        return Err(TrainError::NoData);
    }
    let count = positions.len();
    let line = |name: &str, loss: ReferenceLoss| {
        format!(
            "{name}: loss {:.6} on {count} positions ({:.6} at its best scale, cp / {:.0})",
            loss.as_is, loss.best, loss.best_divisor
        )
    };
    let mut lines = Vec::new();
    for (name, values) in [
        ("the built-in network", &split.held_out_built_in),
        ("the hand-crafted evaluation", &split.held_out_classical),
    ] {
        lines.extend(reference_loss(positions, values, config.wdl).map(|loss| line(name, loss)));
    }
    for (name, net) in nets {
        // The net's scores go through the references' measure, best scale included: a
        // net that only learnt bigger or smaller scores than another differs from it as
        // it is, not at its best scale.
        let mut scratch = model::Scratch::new(net.hidden());
        let centipawns: Vec<f32> = positions
            .iter()
            .map(|record| net.output(record, &mut scratch) * SCALE as f32)
            .collect();
        lines.extend(
            reference_loss(positions, &centipawns, config.wdl).map(|loss| line(name, loss)),
        );
    }
    Ok(lines)
}

/// The loss of the best constant prediction on `records`, the variance of their targets: a
/// trained network's loss should be well below it. `None` for no records.
pub fn constant_loss(records: &[Record], wdl: f32) -> Option<f64> {
    if records.is_empty() {
        return None;
    }
    let targets = records.iter().map(|r| f64::from(r.target(wdl)));
    let n = records.len() as f64;
    let mean = targets.clone().sum::<f64>() / n;
    Some(targets.map(|t| (t - mean).powi(2)).sum::<f64>() / n)
}

/// How well a set of scores (the hand-crafted evaluation's, the built-in network's, a
/// measured network's) predicts the held-out targets.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReferenceLoss {
    /// The loss of `sigmoid(cp / 400)`, the scale the network's output is read at.
    pub as_is: f64,
    /// The lowest loss of `sigmoid(cp / d)` over the divisors `d` tried (100 to 1,000).
    pub best: f64,
    /// The divisor that gives `best`.
    pub best_divisor: f64,
}

/// The loss of `scores` (centipawns for the side to move, one per record) on `records`, as
/// they are and at their best scale. `None` for no records.
pub fn reference_loss<S: Copy + Into<f64>>(
    records: &[Record],
    scores: &[S],
    wdl: f32,
) -> Option<ReferenceLoss> {
    if records.is_empty() || records.len() != scores.len() {
        return None;
    }
    let loss_at = |divisor: f64| {
        records
            .iter()
            .zip(scores)
            .map(|(record, &cp)| {
                let prediction = 1.0 / (1.0 + (-cp.into() / divisor).exp());
                (prediction - f64::from(record.target(wdl))).powi(2)
            })
            .sum::<f64>()
            / records.len() as f64
    };
    let (best_divisor, best) = (100..=1000)
        .step_by(10)
        .map(|d| (f64::from(d), loss_at(f64::from(d))))
        .fold((0.0, f64::INFINITY), |a, b| if b.1 < a.1 { b } else { a });
    Some(ReferenceLoss {
        as_is: loss_at(f64::from(SCALE)),
        best,
        best_divisor,
    })
}
