//! `cutoff net import`: converts a net trained elsewhere into Cutoff's own network file,
//! which `EvalFile` loads (and which can be built in), keeping its weights and its
//! arithmetic exactly.
//!
//! ```text
//! cutoff net import --from bullet QUANTISED.bin --hidden H [--buckets K]
//!                   [--qa 255 --qb 64 --scale 400] [--activation screlu|crelu]
//!                   [--inputs chess768|chess768hm] [--output-weights transposed|column-major]
//!                   --out NET.nnue
//! ```
//!
//! The bullet file records no shape, so the flags give the one it was trained with (see
//! `nnue::bullet` and docs/BULLET.md). A file whose size or padding does not fit them is
//! refused and nothing is written. The written file is read back and checked as
//! `EvalFile` would read it; stdout gets one line saying what was written and the start
//! position's score.

use std::path::PathBuf;

use crate::cli::CliError;
use crate::file_error::{AtPath, FileError};
use crate::nnue::bullet::{self, BulletShape, ImportError, OutputLayout};
use crate::nnue::file::{Activation, Inputs, NetFileError, Quantisation, QA, QB, SCALE};
use crate::nnue::{evaluate_fresh, Network};

/// Why `net` could not do its job.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// A bad command line.
    #[error("{0}")]
    Flags(#[from] CliError),
    /// A file could not be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// The bullet file does not fit the shape the flags give.
    #[error("{path}: {source}")]
    Import {
        path: String,
        #[source]
        source: ImportError,
    },
    /// The converted net is not a valid network (cannot happen once the import checks
    /// passed; reported rather than written).
    #[error("the converted network is refused: {0}")]
    Network(#[from] NetFileError),
}

/// What `net` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Action {
    /// Convert a net trained elsewhere into Cutoff's network file.
    Import,
}

/// The trainers whose nets `net import` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Source {
    /// bullet's `quantised.bin`.
    Bullet,
}

/// The activation of the hidden layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ActivationFlag {
    /// Squared clipped ReLU: `.screlu()`.
    Screlu,
    /// Clipped ReLU: `.crelu()`.
    Crelu,
}

/// The input layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum InputsFlag {
    /// bullet's `Chess768`.
    Chess768,
    /// bullet's `Chess768hm` (mirrored by each side's king).
    Chess768hm,
}

/// The layout of the output weights with output buckets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputWeightsFlag {
    /// `[K][2H]`: `l1w` saved with `.transpose()`.
    Transposed,
    /// `[2H][K]`: `l1w` saved without `.transpose()`.
    ColumnMajor,
}

/// The command line of `cutoff net`.
#[derive(Debug, clap::Parser)]
#[command(
    name = "cutoff net",
    about = "Converts a net trained by bullet (the simple perspective net (768 -> H)x2 -> K, \
             Chess768 inputs, i16 arrays) into Cutoff's network file for EvalFile, keeping \
             its weights, quantisation and activation exactly. See docs/BULLET.md."
)]
pub struct Args {
    /// What to do: `import`.
    #[arg(value_enum)]
    action: Action,
    /// The trainer that wrote the net.
    #[arg(long, value_enum)]
    from: Source,
    /// The net to convert (bullet's quantised.bin).
    input: PathBuf,
    /// Hidden units per perspective (H): a multiple of 16 within 16..=2048.
    #[arg(long)]
    hidden: usize,
    /// Output buckets (K, bullet's MaterialCount<K>): 1, 2, 4 or 8.
    #[arg(long, default_value_t = 1)]
    buckets: usize,
    /// QA: the feature layer's quantisation (activations clamped to [0, QA]).
    #[arg(long, default_value_t = QA)]
    qa: i32,
    /// QB: the output weights' quantisation (the output bias is × QA·QB).
    #[arg(long, default_value_t = QB)]
    qb: i32,
    /// The eval scale: the net's output × scale is centipawns.
    #[arg(long, default_value_t = SCALE)]
    scale: i32,
    /// The hidden layer's activation.
    #[arg(long, value_enum, default_value_t = ActivationFlag::Screlu)]
    activation: ActivationFlag,
    /// The input layout.
    #[arg(long, value_enum, default_value_t = InputsFlag::Chess768)]
    inputs: InputsFlag,
    /// How l1w is laid out with output buckets.
    #[arg(long, value_enum, default_value_t = OutputWeightsFlag::Transposed)]
    output_weights: OutputWeightsFlag,
    /// The network file to write.
    #[arg(long)]
    out: PathBuf,
}

impl Args {
    /// The shape the flags give.
    fn shape(&self) -> BulletShape {
        BulletShape {
            hidden: self.hidden,
            buckets: self.buckets,
            inputs: match self.inputs {
                InputsFlag::Chess768 => Inputs::Plain,
                InputsFlag::Chess768hm => Inputs::KingMirrored,
            },
            activation: match self.activation {
                ActivationFlag::Screlu => Activation::SCReLU,
                ActivationFlag::Crelu => Activation::CReLU,
            },
            quant: Quantisation {
                qa: self.qa,
                qb: self.qb,
                scale: self.scale,
            },
            output_layout: match self.output_weights {
                OutputWeightsFlag::Transposed => OutputLayout::Transposed,
                OutputWeightsFlag::ColumnMajor => OutputLayout::ColumnMajor,
            },
        }
    }
}

/// Runs `cutoff net ARGS`.
pub fn main(args: &[String]) -> Result<(), NetError> {
    let args: Args = crate::cli::parse("net", args)?;
    match args.action {
        Action::Import => import(&args),
    }
}

/// Converts `args.input` into `args.out`, and says what was written.
fn import(args: &Args) -> Result<(), NetError> {
    let Source::Bullet = args.from;
    // One byte more than any net Cutoff runs, so that the size check names a file that is
    // too large.
    let limit = bullet::MAX_FILE_SIZE as u64 + 1;
    let bytes =
        crate::file_error::read_regular_file_up_to(&args.input, limit).at_path(&args.input)?;
    let params = bullet::import(&bytes, &args.shape()).map_err(|source| NetError::Import {
        path: args.input.display().to_string(),
        source,
    })?;
    let file = params.to_bytes();
    // Read back as EvalFile reads it, before anything is written.
    let network = Network::from_bytes(&file)?;
    std::fs::write(&args.out, &file).at_path(&args.out)?;
    let start = evaluate_fresh(&network, &cozy_chess::Board::default());
    println!(
        "wrote {} ({} bytes): (768 -> {})x2 -> {} {}, {}{}, {}; start position {start:+} cp",
        args.out.display(),
        file.len(),
        network.hidden(),
        network.buckets(),
        network.activation(),
        network.quantisation(),
        network.inputs().note(),
        kernel_note(&network),
    );
    Ok(())
}

/// Which output kernel runs the net.
fn kernel_note(network: &Network) -> &'static str {
    match network.activation() {
        Activation::CReLU => "CReLU output kernel",
        Activation::SCReLU if network.output_fits_i16() => "16-bit SCReLU output kernel",
        Activation::SCReLU => {
            "32-bit scalar SCReLU output kernel (slower: some QA · w exceed 16 bits)"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::words;

    #[test]
    fn the_flags_give_the_shape_with_bullets_defaults() {
        let args: Args = crate::cli::parse(
            "net",
            &words("import --from bullet q.bin --hidden 64 --out n"),
        )
        .unwrap();
        assert_eq!(
            args.shape(),
            BulletShape {
                hidden: 64,
                buckets: 1,
                inputs: Inputs::Plain,
                activation: Activation::SCReLU,
                quant: Quantisation::STANDARD,
                output_layout: OutputLayout::Transposed,
            }
        );
        let line = "import --from bullet q.bin --hidden 32 --buckets 8 --qa 181 --qb 128 \
                    --scale 300 --activation crelu --inputs chess768hm \
                    --output-weights column-major --out n";
        let args: Args = crate::cli::parse("net", &words(line)).unwrap();
        let shape = args.shape();
        assert_eq!((shape.hidden, shape.buckets), (32, 8));
        assert_eq!(
            shape.quant,
            Quantisation {
                qa: 181,
                qb: 128,
                scale: 300
            }
        );
        assert_eq!(shape.activation, Activation::CReLU);
        assert_eq!(shape.inputs, Inputs::KingMirrored);
        assert_eq!(shape.output_layout, OutputLayout::ColumnMajor);
        for bad in [
            "import --from bullet q.bin --out n",
            "import --from marlinflow q.bin --hidden 16 --out n",
            "export --from bullet q.bin --hidden 16 --out n",
            "import --from bullet q.bin --hidden 16 --activation relu --out n",
            "import --from bullet q.bin --hidden 16",
        ] {
            assert!(
                crate::cli::parse::<Args>("net", &words(bad)).is_err(),
                "{bad}"
            );
        }
    }
}
