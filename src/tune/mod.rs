//! `cutoff tune`: fits the evaluation weights to a data file of scored positions and writes
//! them back as `src/eval/params.rs`.
//!
//! ```text
//! cutoff tune --data FILE [--epochs 20] [--out src/eval/params.rs] [--lambda 0.5]
//!             [--threads all] [--batch 16384] [--lr 1.0] [--decay 0.95] [--k fit] [--seed 1]
//!             [--holdout 0.05] [--l2 0]
//! ```
//!
//! Each data line is `FEN | score | result` (White's view; `#` comments and blank lines are
//! skipped). The positions are traced into the linear-plus-king-danger model of
//! `eval/trace.rs` (`data.rs`, `model.rs`); `K` is fitted to the results (`optim::fit_k`);
//! then Adam minimises `mean (sigmoid(K * eval) - t)^2`, where
//! `t = lambda * result + (1 - lambda) * sigmoid(K * score)`, over both halves of every
//! weight (`optim.rs`). The last `--holdout` of the file (later games) is kept out of
//! training: its loss is reported every epoch, and the weights of the epoch where it was
//! lowest are the result; `K` is fitted on the training positions only. `--l2` pulls
//! every weight towards its starting value, the compiled `params.rs` (`l2 * (w - start)^2`
//! per weight half), which keeps rarely seen features from wandering on noise. Progress
//! goes to stderr; the rounded weights go to `--out`.
//!
//! Schedule: one Adam step per `--batch` positions, each moving a weight by about `--lr`
//! centipawns at most, the rate multiplied by `--decay` after every epoch. The defaults give
//! about 2,400 steps over 2 million positions; on a smaller set lower `--batch` so that an
//! epoch still has about a hundred steps. A run is deterministic for a given seed and
//! thread count.

pub mod data;
pub mod model;
pub mod optim;

#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::cli::CliError;
use crate::eval::{name, to_source, NUM_PARAMS, S, WEIGHTS};
use crate::file_error::{AtPath, FileError};

use data::{BadLine, Dataset};
use optim::{fit_k, train, training_count, Problem, TrainConfig};

/// Where the tuned weights go by default.
pub const DEFAULT_OUT: &str = "src/eval/params.rs";
/// Default weight of the game result in the target (the rest is the search score).
pub const DEFAULT_LAMBDA: f64 = 0.5;
/// Default share of the data (its tail) held out of training to measure generalisation.
pub const DEFAULT_HOLDOUT: f64 = 0.05;
/// How many of the most-moved weights the summary lists.
const MOVERS_SHOWN: usize = 20;

/// Why a tuning run failed.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// A bad command line.
    #[error("{0}")]
    Flags(#[from] CliError),
    /// A file could not be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// A data line is malformed.
    #[error("{}: {bad}", path.display())]
    Data {
        /// The data file.
        path: PathBuf,
        /// The line and what is wrong with it.
        #[source]
        bad: BadLine,
    },
    /// The data file holds no positions (or none left to train on after `--holdout`).
    #[error("{}: no positions to train on", path.display())]
    NoPositions {
        /// The data file.
        path: PathBuf,
    },
}

/// The settings of one run, from the command line.
#[derive(Clone, Debug)]
pub struct Options {
    /// The data file.
    pub data: PathBuf,
    /// Where to write the tuned `params.rs`.
    pub out: PathBuf,
    /// Weight of the game result in the target, 0..=1.
    pub lambda: f64,
    /// `K` to use instead of fitting it.
    pub k: Option<f64>,
    /// Share of the positions (the file's tail) held out of training, 0..1.
    pub holdout: f64,
    /// Optimiser settings (thread count included).
    pub train: TrainConfig,
}

/// The command line of `cutoff tune`.
#[derive(Debug, clap::Parser)]
#[command(
    name = "cutoff tune",
    about = "Fits the hand-crafted evaluation's weights to `FEN | score | result` data and \
             writes the parameter source."
)]
pub struct Args {
    /// The data file.
    #[arg(long)]
    data: PathBuf,
    /// Where to write the tuned parameter source.
    #[arg(long, default_value = DEFAULT_OUT)]
    out: PathBuf,
    /// Weight of the game result in the target, 0..=1.
    #[arg(long, default_value_t = DEFAULT_LAMBDA)]
    lambda: f64,
    /// The sigmoid scale K (default: fitted to the data).
    #[arg(long)]
    k: Option<f64>,
    /// Share of the file's tail held out, [0, 1).
    #[arg(long, default_value_t = DEFAULT_HOLDOUT)]
    holdout: f64,
    /// Passes over the data.
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    /// Positions per step.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Learning rate.
    #[arg(long, default_value_t = 1.0)]
    lr: f64,
    /// Learning-rate decay per epoch, (0, 1].
    #[arg(long, default_value_t = 0.95)]
    decay: f64,
    /// Shuffling seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Pull of each weight towards its starting value.
    #[arg(long, default_value_t = 0.0)]
    l2: f64,
}

impl Options {
    /// Parses the words after `tune`.
    pub fn parse(args: &[String]) -> Result<Options, CliError> {
        let args: Args = crate::cli::parse("tune", args)?;
        let options = Options {
            data: args.data,
            out: args.out,
            lambda: args.lambda,
            k: args.k,
            holdout: args.holdout,
            train: TrainConfig {
                epochs: args.epochs,
                batch_size: args.batch,
                learning_rate: args.lr,
                decay: args.decay,
                seed: args.seed,
                threads: args.threads.unwrap_or_else(crate::cli::all_cores),
                l2: args.l2,
            },
        };
        options.check()?;
        Ok(options)
    }

    /// Refuses values outside their ranges.
    fn check(&self) -> Result<(), CliError> {
        let invalid = |why: &str| Err(CliError::Invalid(why.to_string()));
        let t = &self.train;
        if !(0.0..=1.0).contains(&self.lambda) {
            return invalid("--lambda must be between 0 and 1");
        }
        if !(0.0..1.0).contains(&self.holdout) {
            return invalid("--holdout must be at least 0 and below 1");
        }
        if self.k.is_some_and(|k| !(k > 0.0 && k.is_finite())) {
            return invalid("--k must be positive");
        }
        if !(1..=256).contains(&t.threads) || t.batch_size == 0 {
            return invalid("--threads must be within 1..=256 and --batch at least 1");
        }
        if !(t.learning_rate > 0.0 && t.learning_rate.is_finite()) {
            return invalid("--lr must be positive");
        }
        if !(t.decay > 0.0 && t.decay <= 1.0) {
            return invalid("--decay must be in (0, 1]");
        }
        if !(t.l2 >= 0.0 && t.l2.is_finite()) {
            return invalid("--l2 must be 0 or more");
        }
        Ok(())
    }
}

/// Runs `cutoff tune` with `args`, the words after `tune`.
pub fn main(args: &[String]) -> Result<(), TuneError> {
    let options = Options::parse(args)?;
    crate::file_error::check_writable(&options.out).at_path(&options.out)?;
    let threads = options.train.threads;

    let started = Instant::now();
    let data = Dataset::load(&options.data, threads)?;
    // Also refuses an empty file: no positions means none to train on.
    let training = training_count(data.len(), options.holdout);
    if training == 0 {
        return Err(TuneError::NoPositions { path: options.data });
    }
    eprintln!(
        "tune: loaded {} positions from {} in {:.2} s ({} bytes per position, {} threads)",
        data.len(),
        options.data.display(),
        started.elapsed().as_secs_f64(),
        data.bytes() / data.len(),
        threads,
    );

    let defaults = model::to_float(&WEIGHTS);
    let k = match options.k {
        Some(k) => k,
        None => {
            let started = Instant::now();
            let pairs = Problem::eval_result_pairs(&data, &defaults, training);
            let k = fit_k(&pairs, threads);
            eprintln!(
                "tune: fitted K = {k:.6} per centipawn in {:.2} s",
                started.elapsed().as_secs_f64()
            );
            k
        }
    };
    let problem = Problem::new(&data, k, options.lambda).hold_out(options.holdout);
    eprintln!(
        "tune: K = {k:.6}, lambda = {}, l2 = {}, {} positions train, {} held out",
        options.lambda,
        options.train.l2,
        problem.training_len(),
        problem.held_out_len()
    );
    eprintln!(
        "tune: loss before tuning {}",
        losses(&problem, &defaults, threads)
    );

    let tuned = train(&problem, &defaults, None, &options.train, |r| {
        let held_out = r
            .held_out
            .map_or(String::new(), |l| format!("  held out {l:.7}"));
        let kept = if r.kept { "  *" } else { "" };
        eprintln!(
            "tune: epoch {:3}  loss {:.7}{held_out}  lr {:.3}  {:.2} s{kept}",
            r.epoch, r.loss, r.learning_rate, r.seconds
        );
    });
    let rounded = model::rounded(&tuned);
    eprintln!(
        "tune: loss after tuning {} (rounded weights of the epoch marked *)",
        losses(&problem, &model::to_float(&rounded), threads)
    );
    report_movers(&WEIGHTS, &rounded);
    write_source(&options.out, &rounded)?;
    eprintln!("tune: wrote {}", options.out.display());
    Ok(())
}

/// The training loss of `weights`, and the held-out loss if positions are held out.
fn losses(problem: &Problem, weights: &[[f64; 2]], threads: usize) -> String {
    let training = problem.loss(weights, threads);
    match problem.held_out_loss(weights, threads) {
        Some(held_out) => format!("{training:.7} (held out {held_out:.7})"),
        None => format!("{training:.7}"),
    }
}

/// Prints the weights that moved most between `old` and `new`.
fn report_movers(old: &[S; NUM_PARAMS], new: &[S; NUM_PARAMS]) {
    let mut moved: Vec<(usize, i32)> = (0..NUM_PARAMS)
        .map(|i| (i, (new[i].0 - old[i].0).abs() + (new[i].1 - old[i].1).abs()))
        .filter(|&(_, distance)| distance > 0)
        .collect();
    moved.sort_by_key(|&(i, distance)| (std::cmp::Reverse(distance), i));
    eprintln!(
        "tune: {} of {NUM_PARAMS} weights changed; most moved:",
        moved.len()
    );
    for &(i, _) in moved.iter().take(MOVERS_SHOWN) {
        eprintln!(
            "tune:   {:32} S({:5}, {:5}) -> S({:5}, {:5})",
            name(i),
            old[i].0,
            old[i].1,
            new[i].0,
            new[i].1
        );
    }
}

/// Writes `weights` as the source of `params.rs` to `path`.
fn write_source(path: &Path, weights: &[S; NUM_PARAMS]) -> Result<(), TuneError> {
    Ok(std::fs::write(path, to_source(weights)).at_path(path)?)
}
