//! `cutoff train`: fits a perspective network (`nnue/file.rs`) to viriformat self-play
//! games on the CPU and writes the quantised network file.
//!
//! ```text
//! cutoff train --data FILE|DIR [--data ...] [--scaled-data FILE|DIR ...] --out NET
//!              [--hidden 128] [--epochs 10] [--lr 0.001] [--final-lr LR/20]
//!              [--wdl 0.0] [--holdout 0.05] [--threads all] [--seed 1]
//!              [--batch 16384] [--buckets 1] [--init CHECKPOINT|NET [--anchor 0]] [--mirror]
//!              [--lookahead 0] [--decay 0.01] [--loss-power 2] [--resume]
//! cutoff train --data FILE|DIR [...] --measure CHECKPOINT|NET [--measure ...]
//! ```
//!
//! `--data` may be repeated; a directory stands for its `*.viri` files (so unfinished
//! `.part` chunks are left out), in name order. `--scaled-data` takes games whose scores
//! a search scaled by material (`nnue::scale_by_material`) and divides the scale back out,
//! so that every net learns the network's raw score. Positions are filtered and packed by
//! `data.rs`; a `--holdout` share of the games, chosen by a hash of each game's bytes (the
//! same games whatever the seed), is kept out of training and its loss reported after
//! every epoch. The float network (`model.rs`) minimises the mean of
//! `|sigmoid(out) − target|^p` (p = `--loss-power`, 2 by default; the losses reported are
//! squared errors whatever p), with `target = wdl · result + (1 − wdl) · sigmoid(score /
//! 400)` from the side to move's view, by AdamW on mini-batches with a cosine learning-rate
//! schedule (from `--lr` to `--final-lr`) and the weights clipped to ±1.98 after every
//! step (`optim.rs`); each batch is split across threads (`parallel.rs`). After every epoch the quantised network
//! (`export.rs`) is written to `--out`, and the float weights to `--out` plus `.ckpt`
//! (`checkpoint.rs`), each through a temporary file renamed into place, so a stopped run
//! leaves the last finished epoch's network whole, and the run's state (`resume.rs`: the
//! weights, AdamW's moments and the epochs done) to `--out` plus `.state`, from which
//! `--resume` goes on after the last finished epoch exactly as the run would have gone on
//! with the same `--threads` (a run of a hundred million positions takes longer than a
//! machine may be had for);
//! `--init` starts a new run from a checkpoint,
//! or from a network file's weights divided back to floats, instead of random weights (its
//! hidden size is used); `--anchor X` then also pulls every weight back towards its
//! starting value by `lr · X` of the distance each step (a weight decay towards the start
//! rather than towards zero), so that a net trained further forgets less. `--lookahead K`
//! labels each training position with the mean of its own search score and those of up
//! to K plies after it in its game (`data::smoothed_score`; the held-out positions keep
//! their own, so losses stay comparable; it lost strength, docs/NNUE.md). Progress goes
//! to stderr, with the held-out losses of the best constant prediction, the hand-crafted
//! evaluation and the built-in network as baselines (a net trained further can fit them
//! better than the built-in network and still lose to it; its loss on older sets' held-out
//! games, by `--measure`, is the better check: docs/NNUE.md, "How a net is accepted"). A run is
//! deterministic for a given seed, data and thread count.
//!
//! `--measure` trains nothing: it prints (stdout) each network's loss on the held-out games'
//! kept positions (the games a training run with the same `--holdout` keeps out, so that
//! nets trained on these files are measured on games none of them has seen), after the
//! built-in network's and the hand-crafted evaluation's on the same positions
//! ([`measure`]).
//!
//! One AdamW step is taken per `--batch` positions, so a small data set needs a smaller
//! batch: 80,000 positions at the default 16,384 give only 5 steps an epoch, too few to
//! learn much in 10 epochs; `--batch 2048` gives 40.

mod args;
pub mod blocked;
pub mod checkpoint;
pub mod data;
pub mod export;
mod losses;
pub mod model;
pub mod optim;
pub mod parallel;
pub mod resume;

#[cfg(test)]
mod resume_tests;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::cli::CliError;
use crate::file_error::{AtPath, FileError};
use crate::nnue::file::{Inputs, NetFileError};
use crate::rng::SplitMix64;

pub use args::{parse_args, Args};
pub use data::{load_bytes, LoadStats, Record, Scores, Split};
pub use export::{dequantise, export_bytes, quantise};
pub use losses::{constant_loss, measure, reference_loss, ReferenceLoss};
pub use model::Network;

/// Default hidden units per perspective.
pub const DEFAULT_HIDDEN: usize = 128;
/// Default weight of the game result in the target: none. The scores come from short
/// searches and are biased where those searches misjudge; the results are the truth about
/// the game but say little about one position among a hundred. Many trainers mix in 0.3
/// of the result, but on Cutoff's data so far the scores alone won: n1 was trained with
/// 0.0, and the same fine-tuning run with 0.3 lost 60.8 ± 24.9 Elo against the one with
/// 0.0 (docs/NNUE.md). Worth trying again once the data is several times larger.
pub const DEFAULT_WDL: f32 = 0.0;
/// The power of the error training minimises: the squared error, as every accepted net.
pub const DEFAULT_LOSS_POWER: f32 = 2.0;
/// Default number of passes over the training positions.
pub const DEFAULT_EPOCHS: usize = 10;
/// The most `--epochs` a run may ask for (far beyond any useful run; it keeps the step
/// count of the learning-rate schedule from overflowing).
const MAX_EPOCHS: usize = 100_000;
/// Default learning rate at the start of the schedule.
pub const DEFAULT_LR: f32 = 0.001;
/// The learning rate at the end of the schedule, as a share of the starting one, unless
/// `--final-lr` sets it.
pub const FINAL_LR_RATIO: f32 = 0.05;
/// Default decoupled weight decay (AdamW's), per step and times the learning rate.
pub const DEFAULT_DECAY: f32 = 0.01;
/// Default positions per optimiser step.
pub const DEFAULT_BATCH: usize = 16_384;
/// Default share of the games held out of training.
pub const DEFAULT_HOLDOUT: f64 = 0.05;

/// Why a training run failed.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// A bad command line.
    #[error("{0}")]
    Flags(#[from] CliError),
    /// A file or directory could not be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// A float checkpoint (`--init`) that cannot be used.
    #[error("{path}: {error}")]
    Checkpoint {
        path: String,
        #[source]
        error: checkpoint::CheckpointError,
    },
    /// A network file (`--init`) that cannot be used.
    #[error("{path}: {error}")]
    Network {
        path: String,
        #[source]
        error: NetFileError,
    },
    /// A network file (`--init`) whose activation the trainer does not train.
    #[error("{path}: a {activation} network; the trainer trains SCReLU networks only")]
    Activation {
        path: String,
        activation: crate::nnue::file::Activation,
    },
    /// No position survived the filter (or none was left for training).
    #[error("no training positions in the data")]
    NoData,
    /// A `--resume` state file that cannot be read.
    #[error("{path}: {error}")]
    State {
        path: String,
        #[source]
        error: resume::StateError,
    },
    /// A `--resume` state file written by a run with other flags or data.
    #[error(
        "{path} belongs to another run (other flags, data or --init, or a trainer of another \
         version); remove it to start this run anew, or give the flags and data of the run \
         that wrote it"
    )]
    OtherRun { path: String },
}

/// The hyperparameters of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct TrainConfig {
    pub hidden: usize,
    /// Output buckets (`file::output_bucket`).
    pub buckets: usize,
    /// How the inputs see the board.
    pub inputs: Inputs,
    pub epochs: usize,
    /// The learning rate at the first step ...
    pub lr: f32,
    /// ... and at the last (`--final-lr`; the cosine schedule runs between them).
    pub final_lr: f32,
    pub wdl: f32,
    /// The power of the error training minimises (`--loss-power`, `model::Objective`).
    pub loss_power: f32,
    pub threads: usize,
    pub seed: u64,
    pub batch: usize,
    /// How strongly the weights are pulled back towards the starting network's
    /// (`--anchor`; 0 = not at all, the decay pulls towards zero only).
    pub anchor: f32,
    /// AdamW's decoupled weight decay towards zero (`--decay`).
    pub decay: f32,
}

impl TrainConfig {
    /// What the run minimises.
    pub fn objective(&self) -> model::Objective {
        model::Objective {
            wdl: self.wdl,
            power: self.loss_power,
        }
    }
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            hidden: DEFAULT_HIDDEN,
            buckets: 1,
            inputs: Inputs::Plain,
            epochs: DEFAULT_EPOCHS,
            lr: DEFAULT_LR,
            final_lr: DEFAULT_LR * FINAL_LR_RATIO,
            wdl: DEFAULT_WDL,
            loss_power: DEFAULT_LOSS_POWER,
            threads: default_threads(),
            seed: 1,
            batch: DEFAULT_BATCH,
            anchor: 0.0,
            decay: DEFAULT_DECAY,
        }
    }
}

/// Everything `cutoff train` was asked to do.
#[derive(Debug, Clone, PartialEq)]
pub struct Command {
    /// The data files, directories already expanded, each with what its scores are.
    pub data: Vec<(PathBuf, Scores)>,
    pub task: Task,
    pub holdout: f64,
    pub config: TrainConfig,
    /// The starting weights, if not random (`--init`).
    pub init: Option<Network>,
    /// `--mirror`: add the left-right mirror of every training position without castling
    /// rights (the held-out positions stay as played).
    pub mirror: bool,
    /// `--lookahead`: label each training position with the mean of its search score and
    /// those of up to this many plies after it (`data::smoothed_score`); 0 = its own.
    pub lookahead: usize,
    /// `--resume`: go on from the state file of an unfinished run with these flags and
    /// data (`resume.rs`), if there is one.
    pub resume: bool,
}

/// What `cutoff train` does with the data.
#[derive(Debug, Clone, PartialEq)]
pub enum Task {
    /// Train and write the network (and its checkpoint) to this file.
    Train { out: PathBuf },
    /// Report the loss of each network (named by its path) on the held-out positions.
    Measure(Vec<(String, Network)>),
}

/// What one epoch did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EpochReport {
    /// 1-based.
    pub epoch: usize,
    /// The mean loss over the epoch's batches (measured as the weights moved).
    pub train_loss: f64,
    /// The mean loss of the held-out positions after the epoch, if there are any.
    pub held_out_loss: Option<f64>,
    /// Training positions per second of the epoch's optimisation (validation excluded).
    pub positions_per_second: f64,
    /// Since the start of training.
    pub elapsed: Duration,
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

/// Runs `train` with the words after the subcommand name.
pub fn main(args: &[String]) -> Result<(), TrainError> {
    let command = parse_args(args)?;
    run(&command)
}

/// Reads a whole regular file; anything else (`--data /dev/zero`, a FIFO) is refused
/// before it is opened.
pub(super) fn read_regular_file(path: &Path) -> Result<Vec<u8>, TrainError> {
    Ok(crate::file_error::read_regular_file(path).at_path(path)?)
}

/// Writes `bytes` to `path` through `path.tmp` and a rename, so that a run killed while
/// writing leaves the previous file whole.
fn write_whole(path: &str, bytes: &[u8]) -> std::io::Result<()> {
    let temporary = format!("{path}.tmp");
    crate::file_error::write_via(Path::new(&temporary), Path::new(path), bytes)
}

/// Loads the data, trains, and writes the network after every epoch; or, for `--measure`,
/// reports the networks' losses.
pub fn run(command: &Command) -> Result<(), TrainError> {
    let out = match &command.task {
        Task::Train { out } => out,
        Task::Measure(nets) => {
            for line in measure(command, nets)? {
                println!("{line}");
            }
            return Ok(());
        }
    };
    let out = out.display().to_string();
    let checkpoint_path = format!("{out}.ckpt");
    let state_path = format!("{out}.state");
    // The files are written after the first epoch: refuse now rather than after it.
    for path in [&out, &checkpoint_path, &state_path] {
        crate::file_error::check_writable(Path::new(path)).at_path(path)?;
    }
    let config = &command.config;
    let mut split = load_training_split(command)?;
    losses::report_reference_losses(&split, config.wdl);
    let fingerprint = run_fingerprint(command, &split.train);
    let steps_per_epoch = split.train.len().div_ceil(config.batch.max(1));
    let resumed = match command.resume {
        true => read_state(&state_path, fingerprint, config, steps_per_epoch)?,
        false => None,
    };
    if let Some(state) = &resumed {
        if state.epochs_done >= config.epochs {
            // Written again from the state, in case they were lost or overwritten since.
            for (path, bytes) in [
                (&out, export_bytes(&state.net)),
                (&checkpoint_path, checkpoint::to_bytes(&state.net)),
            ] {
                write_whole(path, &bytes).map_err(|source| FileError::new(path, source))?;
            }
            eprintln!(
                "{state_path}: the run finished all {} epochs; {out} is its network \
                 (written again from the state)",
                config.epochs
            );
            return Ok(());
        }
        eprintln!(
            "resuming after epoch {} of {} ({state_path}): replaying {} shuffles",
            state.epochs_done, config.epochs, state.epochs_done
        );
    }
    let init = match &command.init {
        Some(net) => net.clone(),
        None => Network::new(config.hidden, config.buckets, config.seed).with_inputs(config.inputs),
    };
    let mut write_error = None;
    let start = RunStart { init, resumed };
    train_run(start, config, &mut split, |report, net, moments| {
        let held_out = report
            .held_out_loss
            .map_or("-".to_string(), |loss| format!("{loss:.6}"));
        eprintln!(
            "epoch {:>3}  train loss {:.6}  held-out loss {held_out}  {:.0} pos/s  {:.1}s",
            report.epoch,
            report.train_loss,
            report.positions_per_second,
            report.elapsed.as_secs_f64()
        );
        let state = resume::RunState {
            fingerprint,
            epochs_done: report.epoch,
            threads: config.threads,
            net: net.clone(),
            moments: moments.clone(),
        };
        // The state last: a run stopped between the writes resumes from the epoch before,
        // whose state is still whole, and writes the same network again.
        for (path, bytes) in [
            (&out, export_bytes(net)),
            (&checkpoint_path, checkpoint::to_bytes(net)),
            (&state_path, resume::to_bytes(&state)),
        ] {
            if let Err(source) = write_whole(path, &bytes) {
                write_error.get_or_insert(FileError::new(path, source).into());
            }
        }
    });
    if let Some(error) = write_error {
        return Err(error);
    }
    eprintln!("wrote {out}, the float checkpoint {checkpoint_path} and the state {state_path}");
    Ok(())
}

/// Loads the data and adds the `--mirror` positions: the training split of `command`.
fn load_training_split(command: &Command) -> Result<Split, TrainError> {
    let config = &command.config;
    let started = Instant::now();
    let mut split = load_files(
        &command.data,
        command.holdout,
        command.lookahead,
        config.threads,
    )?;
    eprintln!(
        "loaded {} files in {:.1}s: {}",
        command.data.len(),
        started.elapsed().as_secs_f64(),
        split.stats
    );
    if split.train.is_empty() {
        return Err(TrainError::NoData);
    }
    if command.mirror {
        let mirrored: Vec<Record> = split
            .train
            .iter()
            .filter(|r| r.mirrorable)
            .map(Record::mirrored_files)
            .collect();
        eprintln!("--mirror: {} mirrored positions added", mirrored.len());
        split.train.extend(mirrored);
    }
    eprintln!(
        "training {} units, {} output buckets, {} epochs of {} positions, batch {}, lr {} to {:.3e}, wdl {}, loss power {}, {} threads, seed {}",
        config.hidden,
        config.buckets,
        config.epochs,
        split.train.len(),
        config.batch,
        config.lr,
        config.final_lr,
        config.wdl,
        config.loss_power,
        config.threads,
        config.seed
    );
    Ok(split)
}

/// The fingerprint of the run `command` asks for on the training positions `train`
/// (`resume::Fingerprint`).
fn run_fingerprint(command: &Command, train: &[Record]) -> u64 {
    let mut fold = resume::Fingerprint::default();
    fold.add_config(
        &command.config,
        command.holdout,
        command.mirror,
        command.lookahead,
    );
    fold.add_start(command.init.as_ref());
    fold.add_records(train);
    fold.value()
}

/// The state at `path` if there is one, refused if it is not the run of `fingerprint` or
/// does not fit `config` with `steps_per_epoch` steps an epoch.
fn read_state(
    path: &str,
    fingerprint: u64,
    config: &TrainConfig,
    steps_per_epoch: usize,
) -> Result<Option<resume::RunState>, TrainError> {
    if !Path::new(path).exists() {
        eprintln!("--resume: no {path}, so the run starts from its first epoch");
        return Ok(None);
    }
    let bytes = read_regular_file(Path::new(path))?;
    let state = resume::from_bytes(&bytes).map_err(|error| TrainError::State {
        path: path.to_string(),
        error,
    })?;
    if state.fingerprint != fingerprint {
        return Err(TrainError::OtherRun {
            path: path.to_string(),
        });
    }
    state
        .check_fits(config, steps_per_epoch)
        .map_err(|error| TrainError::State {
            path: path.to_string(),
            error,
        })?;
    if state.threads != config.threads {
        eprintln!(
            "--resume: {path} was written by a run on {} threads; on {} the run goes on as \
             well, but not to the same bits as on {}",
            state.threads, config.threads, state.threads
        );
    }
    Ok(Some(state))
}

/// Reads and filters every file, `threads` files at a time, keeping file order. A file
/// that cannot be read fails the load; a game that cannot be decoded is reported on
/// stderr with its file, number and byte, and the rest of that file skipped (the games
/// before it are kept), so that one damaged file does not cost the others.
pub fn load_files(
    files: &[(PathBuf, Scores)],
    holdout: f64,
    lookahead: usize,
    threads: usize,
) -> Result<Split, TrainError> {
    let load = |(path, scores): &(PathBuf, Scores)| -> Result<_, TrainError> {
        let bytes = read_regular_file(path)?;
        Ok(data::load_until_damage(&bytes, holdout, *scores, lookahead))
    };
    // Each thread loads a contiguous share of the files; the parts come back in file
    // order, so the data set does not depend on the thread count.
    let parts = crate::par::map_shares(files, threads, |share| {
        share.iter().map(load).collect::<Vec<_>>()
    });
    let mut split = Split::default();
    for (part, (path, _)) in parts.into_iter().flatten().zip(files) {
        let (part, damage) = part?;
        if let Some((byte, error)) = damage {
            eprintln!(
                "cutoff train: {}: {error} (the game starts at byte {byte}); skipped with the \
                 rest of the file ({} games before it kept)",
                path.display(),
                part.stats.games
            );
        }
        split.append(part);
    }
    Ok(split)
}

/// Trains a network of random weights (seeded by `config.seed`) on `split.train`; see
/// [`train_from`].
pub fn train(
    config: &TrainConfig,
    split: &mut Split,
    after_epoch: impl FnMut(&EpochReport, &Network),
) -> Network {
    train_from(
        Network::new(config.hidden, config.buckets, config.seed).with_inputs(config.inputs),
        config,
        split,
        after_epoch,
    )
}

/// Trains `net` (its hidden size wins over `config.hidden`) on `split.train` (shuffled in
/// place every epoch) and returns it; `after_epoch` sees each epoch's report and the
/// network as it then stands.
pub fn train_from(
    net: Network,
    config: &TrainConfig,
    split: &mut Split,
    mut after_epoch: impl FnMut(&EpochReport, &Network),
) -> Network {
    let start = RunStart {
        init: net,
        resumed: None,
    };
    train_run(start, config, split, |report, net, _| {
        after_epoch(report, net);
    })
}

/// Where a run starts.
#[derive(Debug, Clone)]
pub struct RunStart {
    /// The run's starting weights (`--init`'s or random), which `--anchor` pulls towards.
    pub init: Network,
    /// The state of the run this one resumes (`--resume`), whose weights, moments and
    /// epoch it goes on from.
    pub resumed: Option<resume::RunState>,
}

/// Trains from `start` on `split.train` (shuffled in place every epoch) and returns the
/// network; `after_epoch` sees each epoch's report, the network and AdamW's moments as
/// they then stand. A resumed run replays the shuffles of the epochs done, so it takes the
/// same steps as the run it resumes would have.
pub fn train_run(
    start: RunStart,
    config: &TrainConfig,
    split: &mut Split,
    mut after_epoch: impl FnMut(&EpochReport, &Network, &optim::Moments),
) -> Network {
    let started = Instant::now();
    let mut adam = optim::AdamW::new(start.init.params.len());
    adam.decay = config.decay;
    if config.anchor > 0.0 {
        adam.anchor = Some((start.init.params.clone(), config.anchor));
    }
    let batch = config.batch.max(1);
    let steps_per_epoch = split.train.len().div_ceil(batch);
    let schedule = optim::Schedule {
        base: config.lr,
        last: config.final_lr,
        total_steps: steps_per_epoch * config.epochs,
    };
    let mut rng = SplitMix64::new(config.seed ^ 0x5EED_0F5A_u64);
    let (mut net, epochs_done) = match start.resumed {
        Some(state) => {
            for _ in 0..state.epochs_done {
                rng.shuffle(&mut split.train);
            }
            adam.restore(state.moments);
            (state.net, state.epochs_done)
        }
        None => (start.init, 0),
    };
    let mut workers = parallel::Workers::new(&net, config.threads);
    let clipped = net.output_bias_start();
    let mut step = epochs_done * steps_per_epoch;
    for epoch in epochs_done + 1..=config.epochs {
        rng.shuffle(&mut split.train);
        let epoch_start = Instant::now();
        let mut loss = 0.0;
        for records in split.train.chunks(batch) {
            let (grad, batch_loss) = workers.gradient(&net, records, config.objective());
            adam.step(&mut net.params, grad, schedule.rate(step), clipped);
            loss += batch_loss;
            step += 1;
        }
        let seconds = epoch_start.elapsed().as_secs_f64();
        let held_out_loss = (!split.held_out.is_empty())
            .then(|| workers.loss(&net, &split.held_out, config.wdl) / split.held_out.len() as f64);
        let report = EpochReport {
            epoch,
            train_loss: loss / split.train.len().max(1) as f64,
            held_out_loss,
            positions_per_second: split.train.len() as f64 / seconds.max(1e-9),
            elapsed: started.elapsed(),
        };
        after_epoch(&report, &net, adam.moments());
    }
    net
}
