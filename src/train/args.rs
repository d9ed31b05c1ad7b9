//! The command line of `cutoff train`: the flags (`Args`), checked and turned into a
//! [`Command`], the `--init` network loaded and fitted to them, data folders expanded to
//! their files.

use std::path::{Path, PathBuf};

use super::checkpoint;
use super::data::Scores;
use super::export::dequantise;
use super::model::Network;
use super::{read_regular_file, Command, Task, TrainConfig, TrainError, DEFAULT_BATCH};
use super::{DEFAULT_DECAY, DEFAULT_EPOCHS, DEFAULT_HOLDOUT, DEFAULT_LR, DEFAULT_WDL};
use super::{DEFAULT_LOSS_POWER, FINAL_LR_RATIO, MAX_EPOCHS};
use crate::cli::CliError;
use crate::file_error::AtPath;
use crate::nnue::file::{Inputs, NetworkParams, BUCKET_COUNTS, HIDDEN_RANGE};

/// The command line of `cutoff train`.
#[derive(Debug, clap::Parser)]
#[command(
    group = clap::ArgGroup::new("games").required(true).multiple(true).args(["data", "scaled_data"]),
    name = "cutoff train",
    about = "Trains the neural network (768 -> H x 2 -> 1 per output bucket, SCReLU) on viriformat games and \
             writes the quantised network after every epoch, with a float checkpoint beside it."
)]
pub struct Args {
    /// Viriformat files, or directories of `*.viri` files (repeatable).
    #[arg(long)]
    data: Vec<String>,
    /// The same, for games whose scores were scaled by material (played by Cutoff since
    /// 81c1d56): the trainer divides the scale back out (repeatable).
    #[arg(long)]
    scaled_data: Vec<String>,
    /// The network file to write (its float checkpoint goes to OUT.ckpt: `--out n.nnue`
    /// writes n.nnue.ckpt).
    #[arg(long, required_unless_present = "measure")]
    out: Option<PathBuf>,
    /// Train nothing: report this network's loss (a network file or a float checkpoint)
    /// on the held-out games of the data (the games training with the same --holdout
    /// keeps out), next to the built-in network's and the hand-crafted evaluation's, and
    /// stop (repeatable).
    #[arg(long, conflicts_with_all = ["out", "init", "hidden", "buckets", "mirror"])]
    measure: Vec<String>,
    /// Hidden units per perspective, a multiple of 16 [default: 128, or the checkpoint's;
    /// more than an --init network's widens it, see `Network::widened`]
    #[arg(long)]
    hidden: Option<usize>,
    /// Output buckets by piece count: 1, 2, 4 or 8 [default: 1, or the --init net's; a
    /// one-bucket --init net is copied into every bucket].
    #[arg(long)]
    buckets: Option<usize>,
    /// Input layout: `plain`, or `king-mirrored` (each side sees the board mirrored left
    /// to right when its king is on files a-d) [default: plain, or the --init net's].
    #[arg(long, value_parser = parse_inputs)]
    inputs: Option<Inputs>,
    /// Passes over the data.
    #[arg(long, default_value_t = DEFAULT_EPOCHS)]
    epochs: usize,
    /// Learning rate (a cosine schedule takes it down to --final-lr).
    #[arg(long, default_value_t = DEFAULT_LR)]
    lr: f32,
    /// The learning rate at the last step, at most --lr [default: 5% of --lr].
    #[arg(long)]
    final_lr: Option<f32>,
    /// Weight of the game result in the target, 0..=1.
    #[arg(long, default_value_t = DEFAULT_WDL)]
    wdl: f32,
    /// Minimise |prediction - target| to this power, within [1.5, 4]; above 2 weighs large
    /// errors more (the losses reported stay squared errors, so that runs compare).
    #[arg(long, default_value_t = DEFAULT_LOSS_POWER)]
    loss_power: f32,
    /// Share of the games held out, [0, 1).
    #[arg(long, default_value_t = DEFAULT_HOLDOUT)]
    holdout: f64,
    /// Threads [default: all cores].
    #[arg(long)]
    threads: Option<usize>,
    /// Seed of the weights and the shuffles (the held-out split is the same for every seed).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Positions per optimiser step (use 2048 on small data).
    #[arg(long, default_value_t = DEFAULT_BATCH)]
    batch: usize,
    /// Start from this float checkpoint or network file instead of random weights.
    #[arg(long)]
    init: Option<String>,
    /// Also train on the left-right mirror of every position without castling rights.
    #[arg(long)]
    mirror: bool,
    /// Pull the weights back towards the --init network's with this strength (per step,
    /// times the learning rate, like a weight decay towards the start instead of zero),
    /// so that training further forgets less of what the start knew.
    #[arg(long, default_value_t = 0.0, requires = "init")]
    anchor: f32,
    /// AdamW's weight decay: every step shrinks each weight by this times the learning rate
    /// of its value, which keeps a net that sees few games from fitting their noise.
    #[arg(long, default_value_t = DEFAULT_DECAY)]
    decay: f32,
    /// Label each training position with the mean of its search score and those of up to
    /// this many plies after it in its game (the held-out positions keep their own).
    #[arg(long, default_value_t = 0)]
    lookahead: usize,
    /// Go on from OUT.state, which every epoch writes, after the last epoch it records, as
    /// if the run had never stopped; without that file, start from the first epoch. The
    /// flags and data must be the run's own (a state of another run is refused).
    #[arg(long, conflicts_with = "measure")]
    resume: bool,
}

fn parse_inputs(word: &str) -> Result<Inputs, String> {
    match word {
        "plain" => Ok(Inputs::Plain),
        "king-mirrored" => Ok(Inputs::KingMirrored),
        _ => Err("expected `plain` or `king-mirrored`".into()),
    }
}

/// Reads the flags and expands data directories.
pub fn parse_args(args: &[String]) -> Result<Command, TrainError> {
    let args: Args = crate::cli::parse("train", args)?;
    let defaults = TrainConfig::default();
    let init = match &args.init {
        Some(path) => Some(fit_init(&args, load_init(path)?)?),
        None => None,
    };
    let config = TrainConfig {
        inputs: args
            .inputs
            .or(init.as_ref().map(Network::inputs))
            .unwrap_or(defaults.inputs),
        hidden: args
            .hidden
            .or(init.as_ref().map(Network::hidden))
            .unwrap_or(defaults.hidden),
        buckets: args
            .buckets
            .or(init.as_ref().map(Network::buckets))
            .unwrap_or(defaults.buckets),
        epochs: args.epochs,
        lr: args.lr,
        final_lr: args.final_lr.unwrap_or(args.lr * FINAL_LR_RATIO),
        wdl: args.wdl,
        loss_power: args.loss_power,
        threads: args.threads.unwrap_or(defaults.threads),
        seed: args.seed,
        batch: args.batch,
        anchor: args.anchor,
        decay: args.decay,
    };
    let holdout = args.holdout;
    check_config(&config, holdout)?;
    let mut data = Vec::new();
    for (sources, scores) in [
        (&args.data, Scores::Raw),
        (&args.scaled_data, Scores::MaterialScaled),
    ] {
        for source in sources {
            data.extend(expand(Path::new(source))?.into_iter().map(|f| (f, scores)));
        }
    }
    let task = match args.out {
        Some(out) => Task::Train { out },
        None => Task::Measure(
            args.measure
                .iter()
                .map(|path| Ok((path.clone(), load_init(path)?)))
                .collect::<Result<_, TrainError>>()?,
        ),
    };
    Ok(Command {
        data,
        task,
        holdout,
        config,
        init,
        mirror: args.mirror,
        lookahead: args.lookahead,
        resume: args.resume,
    })
}

/// The `--init` network `net` fitted to the flags: widened to `--hidden`, its one output
/// bucket copied into `--buckets` buckets; refused if `--hidden` is narrower, or
/// `--buckets` or `--inputs` differ from what it has.
fn fit_init(args: &Args, mut net: Network) -> Result<Network, TrainError> {
    let invalid = |why: String| Err(CliError::Invalid(why).into());
    if let Some(hidden) = args.hidden {
        if hidden < net.hidden() {
            return invalid(format!(
                "--hidden {hidden} is narrower than the --init network's {}",
                net.hidden()
            ));
        }
        if hidden > net.hidden() && hidden.is_multiple_of(16) && HIDDEN_RANGE.contains(&hidden) {
            net = net.widened(hidden, args.seed);
        }
    }
    if let Some(buckets) = args.buckets {
        if !BUCKET_COUNTS.contains(&buckets) {
            return invalid(format!("--buckets must be one of {BUCKET_COUNTS:?}"));
        }
        if net.buckets() == 1 && buckets > 1 {
            net = net.with_buckets(buckets);
        } else if net.buckets() != buckets {
            return invalid(format!(
                "--buckets {buckets} differs from the --init network's {}",
                net.buckets()
            ));
        }
    }
    if args.inputs.is_some_and(|inputs| inputs != net.inputs()) {
        return invalid("--inputs differs from the --init network's input layout".into());
    }
    Ok(net)
}

/// Refuses settings outside their ranges, naming the flags.
fn check_config(config: &TrainConfig, holdout: f64) -> Result<(), TrainError> {
    let invalid = |why: &str| Err(CliError::Invalid(why.into()).into());
    if !HIDDEN_RANGE.contains(&config.hidden) || !config.hidden.is_multiple_of(16) {
        return invalid("--hidden must be a multiple of 16 within 16..=2048");
    }
    if !(1..=MAX_EPOCHS).contains(&config.epochs)
        || config.batch == 0
        || !(1..=256).contains(&config.threads)
    {
        return invalid(
            "--epochs must be within 1..=100000, --batch positive and --threads within 1..=256",
        );
    }
    if !BUCKET_COUNTS.contains(&config.buckets) {
        return invalid(&format!("--buckets must be one of {BUCKET_COUNTS:?}"));
    }
    if !(config.lr > 0.0 && config.lr.is_finite()) {
        return invalid("--lr must be positive");
    }
    if !(0.0..=config.lr).contains(&config.final_lr) {
        return invalid("--final-lr must be within [0, --lr]");
    }
    // A pull of the whole distance or more in one step would overshoot the start.
    if !(config.anchor >= 0.0 && config.anchor * config.lr < 1.0) {
        return invalid("--anchor must be zero or positive, and --anchor times --lr below 1");
    }
    if !(config.decay >= 0.0 && config.decay * config.lr < 1.0) {
        return invalid("--decay must be zero or positive, and --decay times --lr below 1");
    }
    if !(1.5..=4.0).contains(&config.loss_power) {
        return invalid("--loss-power must be within [1.5, 4]");
    }
    if !(0.0..=1.0).contains(&config.wdl) || !(0.0..1.0).contains(&holdout) {
        return invalid("--wdl must be within [0, 1] and --holdout within [0, 1)");
    }
    Ok(())
}

/// The starting weights of `--init PATH`: a float checkpoint, or a network file (such as
/// a built-in net under `nets/`) divided back to floats by [`dequantise`], so that a
/// network can be trained further on new data.
fn load_init(path: &str) -> Result<Network, TrainError> {
    let bytes = read_regular_file(Path::new(path))?;
    if bytes.starts_with(&crate::nnue::file::MAGIC) {
        let params = NetworkParams::from_bytes(&bytes).map_err(|error| TrainError::Network {
            path: path.to_string(),
            error,
        })?;
        if params.activation != crate::nnue::file::Activation::SCReLU {
            return Err(TrainError::Activation {
                path: path.to_string(),
                activation: params.activation,
            });
        }
        return Ok(dequantise(&params));
    }
    checkpoint::from_bytes(&bytes).map_err(|error| TrainError::Checkpoint {
        path: path.to_string(),
        error,
    })
}

/// A file stands for itself, a directory for its `*.viri` files in name order.
fn expand(path: &Path) -> Result<Vec<PathBuf>, TrainError> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files = Vec::new();
    for entry in std::fs::read_dir(path).at_path(path)? {
        let file = entry.at_path(path)?.path();
        if file.is_file() && file.extension().is_some_and(|e| e == "viri") {
            files.push(file);
        }
    }
    files.sort();
    Ok(files)
}
