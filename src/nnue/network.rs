//! The network in memory, laid out for the kernels of `simd.rs`: every row of weights in
//! 32-byte aligned [`Chunk`]s, and the fresh (non-incremental) scalar evaluation that is
//! the reference for everything faster.

use cozy_chess::{Board, Color, Piece, Square};

use super::file::{
    oriented_feature_index, output_bucket, Activation, Inputs, NetFileError, NetworkParams,
    Quantisation, BUCKET_COUNTS, INPUTS, QA, QB, SCALE,
};
use super::simd::{self, Backend, Chunk, CHUNK};
use crate::file_error::{AtPath, FileError};

/// Why [`Network::load`] could not read a network file.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error(transparent)]
    File(#[from] FileError),
    /// The file is no valid network.
    #[error("{path}: {source}")]
    Network {
        path: String,
        #[source]
        source: NetFileError,
    },
}

/// A loaded network: parameters in aligned chunks, and the backend that runs it.
#[derive(Debug, Clone)]
pub struct Network {
    hidden: usize,
    /// `INPUTS` rows of `hidden / 16` chunks, feature-major.
    feature_weights: Vec<Chunk>,
    feature_bias: Vec<Chunk>,
    /// Per output bucket, the side to move's `hidden / 16` chunks, then the other side's.
    output_weights: Vec<Chunk>,
    /// One per output bucket.
    output_bias: Vec<i32>,
    buckets: usize,
    /// How the inputs see the board.
    inputs: Inputs,
    /// The hidden layer's activation.
    activation: Activation,
    /// QA, QB and SCALE.
    quant: Quantisation,
    /// SCReLU at Cutoff's own QA, QB and SCALE: the output's divisions are by constants.
    standard: bool,
    /// Every `QA · w` of the output weights fits in `i16` (within ±128 at QA 255), so the
    /// AVX2 SCReLU kernel's 16-bit trick is exact.
    lizard: bool,
    backend: Backend,
}

/// Packs `values` (a multiple of 16 of them) into chunks.
fn chunks(values: &[i16]) -> Vec<Chunk> {
    values
        .chunks_exact(CHUNK)
        .map(|c| {
            let mut chunk = Chunk::default();
            chunk.0.copy_from_slice(c);
            chunk
        })
        .collect()
}

impl Network {
    /// The network of `params`, run by the fastest backend of this CPU. Refuses a hidden
    /// size that is not a positive multiple of 16 or vectors of the wrong lengths.
    pub fn from_params(params: &NetworkParams) -> Result<Network, NetFileError> {
        let hidden = params.hidden;
        if hidden == 0 || !hidden.is_multiple_of(CHUNK) {
            return Err(NetFileError::Hidden(
                u32::try_from(hidden).unwrap_or(u32::MAX),
            ));
        }
        let buckets = params.buckets;
        if !BUCKET_COUNTS.contains(&buckets) {
            return Err(NetFileError::Buckets(
                u32::try_from(buckets).unwrap_or(u32::MAX),
            ));
        }
        let lengths = [
            (params.feature_weights.len(), INPUTS * hidden),
            (params.feature_bias.len(), hidden),
            (params.output_weights.len(), buckets * 2 * hidden),
            (params.output_bias.len(), buckets),
        ];
        if let Some(&(found, expected)) = lengths.iter().find(|(found, want)| found != want) {
            return Err(NetFileError::Size { expected, found });
        }
        let quant = params.quant;
        if !quant.is_valid() {
            let word = |v: i32| u32::try_from(v).unwrap_or(0);
            return Err(NetFileError::Quantisation {
                qa: word(quant.qa),
                qb: word(quant.qb),
                scale: word(quant.scale),
            });
        }
        Ok(Network {
            hidden,
            feature_weights: chunks(&params.feature_weights),
            feature_bias: chunks(&params.feature_bias),
            output_weights: chunks(&params.output_weights),
            output_bias: params.output_bias.clone(),
            buckets,
            inputs: params.inputs,
            activation: params.activation,
            quant,
            standard: params.activation == Activation::SCReLU && quant == Quantisation::STANDARD,
            lizard: simd::products_fit_i16(quant.qa, &params.output_weights),
            backend: Backend::detected(),
        })
    }

    /// Reads a network file (see `file.rs`), with all its checks.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetFileError> {
        Network::from_params(&NetworkParams::from_bytes(bytes)?)
    }

    /// Reads the network file at `path` (a tool's `--net`), with all its checks.
    pub fn load(path: &str) -> Result<Network, LoadError> {
        let bytes = super::file::read_file(std::path::Path::new(path)).at_path(path)?;
        Network::from_bytes(&bytes).map_err(|source| LoadError::Network {
            path: path.to_string(),
            source,
        })
    }

    /// Hidden units per perspective.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Output buckets (see `file::output_bucket`).
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// How the inputs see the board.
    pub fn inputs(&self) -> Inputs {
        self.inputs
    }

    /// The hidden layer's activation.
    pub fn activation(&self) -> Activation {
        self.activation
    }

    /// QA, QB and SCALE.
    pub fn quantisation(&self) -> Quantisation {
        self.quant
    }

    /// Whether the SCReLU output runs the 16-bit kernel (every `QA · w` fits in `i16`);
    /// otherwise it runs the exact 32-bit scalar one.
    pub fn output_fits_i16(&self) -> bool {
        self.lizard
    }

    /// The input row of `piece` of `color` on `square`, seen from `perspective`, whose
    /// view is `mirrored` (`self.inputs().mirrors(its king)`, found once per view).
    #[inline(always)]
    pub(crate) fn piece_row(
        &self,
        perspective: Color,
        mirrored: bool,
        color: Color,
        piece: Piece,
        square: Square,
    ) -> &[Chunk] {
        self.row(oriented_feature_index(
            perspective,
            mirrored,
            color,
            piece,
            square,
        ))
    }

    /// The backend that runs this network.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Runs this network with `backend` if this CPU supports it (returns whether it does;
    /// an unsupported backend leaves the network unchanged). Every backend gives the same
    /// numbers; this is for tests and benchmarks.
    pub fn set_backend(&mut self, backend: Backend) -> bool {
        let supported = backend.is_supported();
        if supported {
            self.backend = backend;
        }
        supported
    }

    /// Chunks per perspective's accumulator.
    pub(crate) fn chunks(&self) -> usize {
        self.hidden / CHUNK
    }

    /// The weights of input `feature` (`0..INPUTS`).
    #[inline(always)]
    pub(crate) fn row(&self, feature: usize) -> &[Chunk] {
        let n = self.chunks();
        &self.feature_weights[feature * n..(feature + 1) * n]
    }

    pub(crate) fn bias(&self) -> &[Chunk] {
        &self.feature_bias
    }

    /// Fills `us` and `them` with the accumulators of `board` seen from `perspective` and
    /// from the other side (scalar kernels if `backend` is `Scalar`).
    pub(crate) fn refresh(
        &self,
        backend: Backend,
        board: &Board,
        perspective: Color,
        acc: &mut [Chunk],
    ) {
        let mirrored = self.inputs.mirrors(board.king(perspective));
        let mut rows: Vec<&[Chunk]> = Vec::with_capacity(32);
        for square in board.occupied() {
            if let (Some(piece), Some(color)) = (board.piece_on(square), board.color_on(square)) {
                rows.push(self.piece_row(perspective, mirrored, color, piece, square));
            }
        }
        simd::refresh(backend, acc, self.bias(), &rows);
    }

    /// The evaluation in centipawns for the side to move of a position with `pieces`
    /// pieces, from its accumulator `us` and the other side's `them`.
    #[inline(always)]
    pub(crate) fn output(
        &self,
        backend: Backend,
        pieces: usize,
        us: &[Chunk],
        them: &[Chunk],
    ) -> i32 {
        let n = self.chunks();
        let bucket = output_bucket(pieces, self.buckets);
        let weights = &self.output_weights[bucket * 2 * n..(bucket + 1) * 2 * n];
        let (w_us, w_them) = weights.split_at(n);
        let bias = self.output_bias[bucket];
        if self.standard {
            // Cutoff's own nets: every constant known at compile time.
            let qa = QA as i16;
            let sum = simd::screlu_dot(backend, self.lizard, qa, us, w_us)
                .wrapping_add(simd::screlu_dot(backend, self.lizard, qa, them, w_them));
            return scale_output(sum, bias);
        }
        // QA is within 1..=32767 (checked when the network was made).
        let qa = self.quant.qa as i16;
        let sum = match self.activation {
            Activation::SCReLU => simd::screlu_dot(backend, self.lizard, qa, us, w_us)
                .wrapping_add(simd::screlu_dot(backend, self.lizard, qa, them, w_them)),
            Activation::CReLU => simd::crelu_dot(backend, qa, us, w_us)
                .wrapping_add(simd::crelu_dot(backend, qa, them, w_them)),
        };
        self.quant.centipawns(self.activation, sum, bias)
    }
}

/// `(sum / QA + bias) · SCALE / (QA · QB)`, the file's formula at Cutoff's own constants
/// (SCReLU; [`Quantisation::centipawns`] for any others), computed in `i64` so that no
/// intermediate overflows (the result is then within `i32`).
#[inline(always)]
pub fn scale_output(sum: i32, bias: i32) -> i32 {
    let cp = (i64::from(sum / QA) + i64::from(bias)) * i64::from(SCALE) / i64::from(QA * QB);
    cp as i32
}

/// The evaluation of `board` in centipawns for its side to move, recomputed from scratch
/// with the scalar kernels: the reference for the incremental and vectorised paths.
pub fn evaluate_fresh(net: &Network, board: &Board) -> i32 {
    let n = net.chunks();
    let mut us = vec![Chunk::default(); n];
    let mut them = vec![Chunk::default(); n];
    let stm = board.side_to_move();
    net.refresh(Backend::Scalar, board, stm, &mut us);
    net.refresh(Backend::Scalar, board, !stm, &mut them);
    net.output(Backend::Scalar, board.occupied().len() as usize, &us, &them)
}
