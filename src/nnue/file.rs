//! The network file: a quantised perspective network in a small little-endian format with a
//! header and a checksum, so that a damaged or foreign file is refused with a clear error.
//!
//! Architecture: 768 inputs (colour × piece × square, from each side's view; see
//! [`feature_index`]) → `hidden` units per perspective with shared weights, SCReLU
//! (clamp to [0, 1], squared; or CReLU, clamped only: see [`Activation`]), the two
//! perspectives concatenated side to move first → one output, the evaluation in units of
//! SCALE centipawns. The output layer may come in `B` buckets chosen by the number of
//! pieces on the board ([`output_bucket`]), so that the middlegame and the endgame weigh
//! the same hidden features differently. With
//! [`Inputs::KingMirrored`] each perspective also sees the board mirrored left to right
//! whenever its own king stands on files a–d ([`Inputs::mirrors`]), so that the king is
//! always on files e–h and a position and its mirror image share one set of features.
//!
//! Layout, all integers little-endian:
//!
//! | bytes            | field                                                          |
//! |------------------|----------------------------------------------------------------|
//! | 8                | magic `CUTOFFNN`                                               |
//! | 4 (u32)          | format version, [`VERSION`] (version 1, without the bucket     |
//! |                  | count, is still read, as one bucket; version 2, without the    |
//! |                  | input layout, as [`Inputs::Plain`]; version 3, without the     |
//! |                  | activation, as SCReLU)                                         |
//! | 4 (u32)          | hidden size `H` (a multiple of 16, 16..=2048)                  |
//! | 4 (u32) × 3      | QA, QB (1..=32767), SCALE (1..=100000): Cutoff's trainer       |
//! |                  | writes [`QA`], [`QB`], [`SCALE`]; an imported net keeps its own|
//! | 4 (u32)          | output buckets `B` (1, 2, 4 or 8); absent in version 1         |
//! | 4 (u32)          | input layout: 0 plain, 1 king-mirrored; absent before version 3|
//! | 4 (u32)          | activation: 0 SCReLU, 1 CReLU; absent before version 4         |
//! | 768·H (i16)      | feature weights, feature-major: `w[feature * H + unit]`, × QA  |
//! | H (i16)          | feature biases, × QA                                           |
//! | B·2·H (i16)      | output weights, bucket by bucket, each the side to move's H    |
//! |                  | first, × QB                                                    |
//! | B·4 (i32)        | output biases, one per bucket, × QA·QB                         |
//! | 8 (u64)          | FNV-1a 64 of every byte before it                              |
//!
//! Integer evaluation: `acc = bias + Σ w[f]` per perspective (i16); with `b` the bucket
//! of the position, `sum = Σ clamp(acc, 0, QA)² · out_w[b]` over both halves (i32); then
//! `eval = (sum / QA + out_bias[b]) · SCALE / (QA · QB)` centipawns for the side to move.
//! With CReLU, `sum = Σ clamp(acc, 0, QA) · out_w[b]` and `eval = (sum + out_bias[b]) ·
//! SCALE / (QA · QB)` ([`Quantisation::centipawns`]). The trainer clips weights to
//! ±[`WEIGHT_CLIP`] so that `clamp(acc) · out_w` fits in i16.

use cozy_chess::{Color, File, Piece, Square};

pub use super::quant::{Activation, Quantisation};

/// The magic bytes at the start of every network file.
pub const MAGIC: [u8; 8] = *b"CUTOFFNN";
/// The version of the layout this build reads and writes.
pub const VERSION: u32 = 4;
/// The bucket counts a file may declare.
pub const BUCKET_COUNTS: [usize; 4] = [1, 2, 4, 8];
/// Inputs per perspective: 2 colours × 6 pieces × 64 squares.
pub const INPUTS: usize = 768;
/// Quantisation of the feature layer (activations are clamped to [0, QA]) of the nets
/// Cutoff's trainer writes (an imported net's file records its own; see [`Quantisation`]).
pub const QA: i32 = 255;
/// Quantisation of the output weights of the trainer's nets.
pub const QB: i32 = 64;
/// The trainer's network's output × SCALE is the evaluation in centipawns.
pub const SCALE: i32 = 400;
/// Float weights are kept within ±WEIGHT_CLIP by the trainer (127 / 64 = 1.98).
pub const WEIGHT_CLIP: f32 = 1.98;
/// The smallest and largest hidden sizes a file may declare.
pub const HIDDEN_RANGE: std::ops::RangeInclusive<usize> = 16..=2048;

/// The header of a version 1 file (no bucket count).
const HEADER_BYTES_V1: usize = 8 + 4 * 5;
/// The header of a version 2 file (no input layout).
const HEADER_BYTES_V2: usize = HEADER_BYTES_V1 + 4;
/// The header of a version 3 file (no activation).
const HEADER_BYTES_V3: usize = HEADER_BYTES_V2 + 4;
/// The header of a current file.
const HEADER_BYTES: usize = HEADER_BYTES_V3 + 4;

/// How each perspective's 768 inputs see the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Inputs {
    /// Colour × piece × square as the perspective sees the board ([`feature_index`]).
    #[default]
    Plain,
    /// The same, with the board also mirrored left to right whenever the perspective's
    /// own king stands on files a–d: the king always on files e–h.
    KingMirrored,
}

impl Inputs {
    /// The layout's code in the file header.
    pub fn code(self) -> u32 {
        match self {
            Inputs::Plain => 0,
            Inputs::KingMirrored => 1,
        }
    }

    /// What reports say about the layout: nothing for plain inputs.
    pub fn note(self) -> &'static str {
        match self {
            Inputs::Plain => "",
            Inputs::KingMirrored => ", king-mirrored inputs",
        }
    }

    /// The layout of a header code, if there is one.
    pub fn from_code(code: u32) -> Option<Inputs> {
        match code {
            0 => Some(Inputs::Plain),
            1 => Some(Inputs::KingMirrored),
            _ => None,
        }
    }

    /// Whether a perspective whose own king stands on `king` sees the board mirrored
    /// left to right.
    #[inline(always)]
    pub fn mirrors(self, king: Square) -> bool {
        self == Inputs::KingMirrored && king.file() <= File::D
    }
}

/// The output bucket of a position with `pieces` pieces (kings included, 2..=32) in a
/// network of `buckets` buckets: the 2..=32 pieces cut into `buckets` equal bands, so that
/// with 8 buckets 2-5 pieces use bucket 0 and 30-32 bucket 7.
#[inline(always)]
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    (pieces.saturating_sub(2) * buckets / 32).min(buckets - 1)
}

/// The input index of `piece` of `color` on `square`, seen from `perspective`: the side's
/// own pieces first, and the board mirrored vertically for Black.
#[inline(always)]
pub fn feature_index(perspective: Color, color: Color, piece: Piece, square: Square) -> usize {
    let (side, square) = match perspective {
        Color::White => (color as usize, square as usize),
        Color::Black => (1 - color as usize, square as usize ^ 56),
    };
    side * 384 + piece as usize * 64 + square
}

/// [`feature_index`] of `square` mirrored left to right when `mirrored`: the input of a
/// view that [`Inputs::mirrors`] by its own king.
#[inline(always)]
pub fn oriented_feature_index(
    perspective: Color,
    mirrored: bool,
    color: Color,
    piece: Piece,
    square: Square,
) -> usize {
    let square = if mirrored { square.flip_file() } else { square };
    feature_index(perspective, color, piece, square)
}

/// A quantised network's parameters, as stored in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetworkParams {
    pub hidden: usize,
    /// Output buckets, one of [`BUCKET_COUNTS`].
    pub buckets: usize,
    /// How the inputs see the board.
    pub inputs: Inputs,
    /// The hidden layer's activation.
    pub activation: Activation,
    /// QA, QB and SCALE.
    pub quant: Quantisation,
    /// `INPUTS × hidden`, feature-major.
    pub feature_weights: Vec<i16>,
    /// `hidden`.
    pub feature_bias: Vec<i16>,
    /// `buckets × 2 × hidden`: per bucket the side to move's half, then the other side's.
    pub output_weights: Vec<i16>,
    /// `buckets`.
    pub output_bias: Vec<i32>,
}

/// Why a network file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetFileError {
    /// Not a Cutoff network (wrong magic).
    #[error(
        "not a Cutoff network file (bad magic; a net trained by bullet is first converted by `cutoff net import`)"
    )]
    NotANetwork,
    /// A layout version this build does not read.
    #[error("network format version {0}, this build reads 1..={VERSION}")]
    Version(u32),
    /// A hidden size outside [`HIDDEN_RANGE`] or not a multiple of 16.
    #[error("hidden size {0} is not a multiple of 16 within {min}..={max}", min = HIDDEN_RANGE.start(), max = HIDDEN_RANGE.end())]
    Hidden(u32),
    /// A bucket count not in [`BUCKET_COUNTS`].
    #[error("{0} output buckets, this build reads {BUCKET_COUNTS:?}")]
    Buckets(u32),
    /// An input layout this build does not know.
    #[error("input layout {0}, this build reads 0 (plain) and 1 (king-mirrored)")]
    Inputs(u32),
    /// An activation this build does not know.
    #[error("activation {0}, this build reads 0 (SCReLU) and 1 (CReLU)")]
    Activation(u32),
    /// Quantisation constants out of range.
    #[error(
        "quantisation QA {qa} QB {qb} SCALE {scale}, this build reads QA and QB within 1..={max_q} and SCALE within 1..={max_scale}",
        max_q = super::quant::MAX_Q,
        max_scale = super::quant::MAX_SCALE
    )]
    Quantisation { qa: u32, qb: u32, scale: u32 },
    /// The file is shorter or longer than its header says.
    #[error("network file is {found} bytes, its header says {expected} (truncated or damaged)")]
    Size { expected: usize, found: usize },
    /// The checksum does not match the contents.
    #[error("network file checksum mismatch (damaged)")]
    Checksum,
}

/// FNV-1a, 64 bits.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The size of a current file with `hidden` units and `buckets` output buckets.
pub const fn file_size(hidden: usize, buckets: usize) -> usize {
    HEADER_BYTES + body_size(hidden, buckets)
}

/// The bytes after the header: weights, biases and checksum.
const fn body_size(hidden: usize, buckets: usize) -> usize {
    2 * (INPUTS * hidden + hidden + buckets * 2 * hidden) + 4 * buckets + 8
}

/// The largest valid network file.
pub const MAX_FILE_SIZE: usize = file_size(*HIDDEN_RANGE.end(), BUCKET_COUNTS[3]);

/// Reads the network file at `path` for loading: only a regular file (a FIFO or a device
/// could block or never end), and never more than [`MAX_FILE_SIZE`] bytes, so that a wrong
/// path cannot exhaust the memory; the bytes are then checked by
/// [`NetworkParams::from_bytes`].
pub fn read_file(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    let bytes = crate::file_error::read_regular_file_up_to(path, MAX_FILE_SIZE as u64 + 1)?;
    if bytes.len() > MAX_FILE_SIZE {
        return Err(std::io::Error::other(format!(
            "larger than any network file ({MAX_FILE_SIZE} bytes)"
        )));
    }
    Ok(bytes)
}

impl NetworkParams {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(file_size(self.hidden, self.buckets));
        out.extend_from_slice(&MAGIC);
        for word in [
            VERSION,
            self.hidden as u32,
            self.quant.qa as u32,
            self.quant.qb as u32,
            self.quant.scale as u32,
            self.buckets as u32,
            self.inputs.code(),
            self.activation.code(),
        ] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        for values in [
            &self.feature_weights,
            &self.feature_bias,
            &self.output_weights,
        ] {
            for v in values.iter() {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        for bias in &self.output_bias {
            out.extend_from_slice(&bias.to_le_bytes());
        }
        let checksum = fnv1a(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }

    /// Reads a file, checking magic, version, sizes, quantisation and checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<NetworkParams, NetFileError> {
        if bytes.len() < HEADER_BYTES_V1 || bytes[..8] != MAGIC {
            return Err(NetFileError::NotANetwork);
        }
        let word = |i: usize| {
            let at = 8 + 4 * i;
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let version = word(0);
        if !(1..=VERSION).contains(&version) {
            return Err(NetFileError::Version(version));
        }
        let hidden = word(1);
        if !HIDDEN_RANGE.contains(&(hidden as usize)) || hidden % 16 != 0 {
            return Err(NetFileError::Hidden(hidden));
        }
        let (qa, qb, scale) = (word(2), word(3), word(4));
        let quant = Quantisation {
            qa: i32::try_from(qa).unwrap_or(0),
            qb: i32::try_from(qb).unwrap_or(0),
            scale: i32::try_from(scale).unwrap_or(0),
        };
        if !quant.is_valid() {
            return Err(NetFileError::Quantisation { qa, qb, scale });
        }
        let header = match version {
            1 => HEADER_BYTES_V1,
            2 => HEADER_BYTES_V2,
            3 => HEADER_BYTES_V3,
            _ => HEADER_BYTES,
        };
        if bytes.len() < header {
            return Err(NetFileError::Size {
                expected: header,
                found: bytes.len(),
            });
        }
        let buckets = if version == 1 { 1 } else { word(5) };
        let inputs = if version < 3 {
            Inputs::Plain
        } else {
            Inputs::from_code(word(6)).ok_or(NetFileError::Inputs(word(6)))?
        };
        let activation = if version < 4 {
            Activation::SCReLU
        } else {
            Activation::from_code(word(7)).ok_or(NetFileError::Activation(word(7)))?
        };
        if !BUCKET_COUNTS.contains(&(buckets as usize)) {
            return Err(NetFileError::Buckets(buckets));
        }
        let (hidden, buckets) = (hidden as usize, buckets as usize);
        let expected = header + body_size(hidden, buckets);
        if bytes.len() != expected {
            return Err(NetFileError::Size {
                expected,
                found: bytes.len(),
            });
        }
        let body_end = expected - 8;
        let mut checksum = [0u8; 8];
        checksum.copy_from_slice(&bytes[body_end..]);
        if fnv1a(&bytes[..body_end]) != u64::from_le_bytes(checksum) {
            return Err(NetFileError::Checksum);
        }
        let mut at = header;
        let mut take = |count: usize| -> Vec<i16> {
            let values = bytes[at..at + 2 * count]
                .chunks_exact(2)
                .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
                .collect();
            at += 2 * count;
            values
        };
        let feature_weights = take(INPUTS * hidden);
        let feature_bias = take(hidden);
        let output_weights = take(buckets * 2 * hidden);
        let output_bias = bytes[body_end - 4 * buckets..body_end]
            .chunks_exact(4)
            .map(|word| i32::from_le_bytes([word[0], word[1], word[2], word[3]]))
            .collect();
        Ok(NetworkParams {
            hidden,
            buckets,
            inputs,
            activation,
            quant,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    fn random_params(hidden: usize, buckets: usize, seed: u64) -> NetworkParams {
        let mut rng = SplitMix64::new(seed);
        let mut values =
            |n: usize| -> Vec<i16> { (0..n).map(|_| rng.below(1001) as i16 - 500).collect() };
        NetworkParams {
            hidden,
            buckets,
            inputs: Inputs::Plain,
            activation: Activation::SCReLU,
            quant: Quantisation::STANDARD,
            feature_weights: values(INPUTS * hidden),
            feature_bias: values(hidden),
            output_weights: values(buckets * 2 * hidden),
            output_bias: (0..buckets as i32).map(|b| b * 1000 - 123_456).collect(),
        }
    }

    #[test]
    fn export_then_load_is_exact() {
        for buckets in BUCKET_COUNTS {
            let params = random_params(32, buckets, 1);
            let bytes = params.to_bytes();
            assert_eq!(bytes.len(), file_size(32, buckets));
            assert_eq!(NetworkParams::from_bytes(&bytes), Ok(params));
        }
        let mirrored = NetworkParams {
            inputs: Inputs::KingMirrored,
            ..random_params(16, 8, 3)
        };
        assert_eq!(
            NetworkParams::from_bytes(&mirrored.to_bytes()),
            Ok(mirrored)
        );
        let imported = NetworkParams {
            activation: Activation::CReLU,
            quant: Quantisation {
                qa: 181,
                qb: 128,
                scale: 350,
            },
            ..random_params(16, 2, 4)
        };
        assert_eq!(
            NetworkParams::from_bytes(&imported.to_bytes()),
            Ok(imported)
        );
    }

    /// `params` written as an older `version` of the file, whose header is the current
    /// one cut after `header` bytes: version 3 has no activation (SCReLU), version 2 no
    /// input layout either (plain inputs), version 1 no bucket count either (one bucket).
    fn old_version_bytes(params: &NetworkParams, version: u32, header: usize) -> Vec<u8> {
        assert_eq!(params.activation, Activation::SCReLU);
        assert!(version == 3 || params.inputs == Inputs::Plain);
        assert!(version >= 2 || params.buckets == 1);
        let current = params.to_bytes();
        let mut old = current[..8].to_vec();
        old.extend_from_slice(&version.to_le_bytes());
        old.extend_from_slice(&current[12..header]);
        old.extend_from_slice(&current[HEADER_BYTES..current.len() - 8]);
        let checksum = fnv1a(&old);
        old.extend_from_slice(&checksum.to_le_bytes());
        old
    }

    #[test]
    fn version_3_files_load_as_screlu() {
        let params = NetworkParams {
            inputs: Inputs::KingMirrored,
            ..random_params(16, 8, 7)
        };
        let old = old_version_bytes(&params, 3, HEADER_BYTES_V3);
        assert_eq!(old.len(), file_size(16, 8) - 4);
        assert_eq!(NetworkParams::from_bytes(&old), Ok(params));
    }

    #[test]
    fn version_2_files_load_with_plain_inputs() {
        let params = random_params(16, 8, 6);
        let old = old_version_bytes(&params, 2, HEADER_BYTES_V2);
        assert_eq!(old.len(), file_size(16, 8) - 8);
        assert_eq!(NetworkParams::from_bytes(&old), Ok(params));
    }

    #[test]
    fn version_1_files_load_as_one_bucket() {
        let params = random_params(16, 1, 5);
        let old = old_version_bytes(&params, 1, HEADER_BYTES_V1);
        assert_eq!(old.len(), file_size(16, 1) - 12);
        assert_eq!(NetworkParams::from_bytes(&old), Ok(params));
    }

    #[test]
    fn buckets_cut_the_piece_counts_into_equal_bands() {
        let eight: Vec<usize> = (2..=32).map(|p| output_bucket(p, 8)).collect();
        assert_eq!(&eight[..5], [0, 0, 0, 0, 1]);
        assert_eq!(&eight[eight.len() - 4..], [6, 7, 7, 7]);
        assert!(eight.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1));
        for buckets in BUCKET_COUNTS {
            assert_eq!(output_bucket(2, buckets), 0);
            assert_eq!(output_bucket(32, buckets), buckets - 1);
        }
        assert!((2..=32).all(|p| output_bucket(p, 1) == 0));
    }

    #[test]
    fn damaged_and_foreign_files_are_refused() {
        let bytes = random_params(16, 8, 2).to_bytes();
        let load = |b: &[u8]| NetworkParams::from_bytes(b).unwrap_err();
        assert_eq!(
            load(b"NNUE and some other engine's bytes"),
            NetFileError::NotANetwork
        );
        assert!(matches!(
            load(&bytes[..bytes.len() - 1]),
            NetFileError::Size { .. }
        ));
        let mut flipped = bytes.clone();
        flipped[HEADER_BYTES + 100] ^= 1;
        assert_eq!(load(&flipped), NetFileError::Checksum);
        let mut version = bytes.clone();
        version[8] = 9;
        assert_eq!(load(&version), NetFileError::Version(9));
        let mut hidden = bytes.clone();
        hidden[12] = 17;
        assert_eq!(load(&hidden), NetFileError::Hidden(17));
        let mut qa = bytes.clone();
        qa[16] = 0;
        assert!(matches!(
            load(&qa),
            NetFileError::Quantisation { qa: 0, .. }
        ));
        let mut scale = bytes.clone();
        scale[26] = 9;
        assert!(matches!(
            load(&scale),
            NetFileError::Quantisation { scale: 590_224, .. }
        ));
        let mut buckets = bytes.clone();
        buckets[28] = 3;
        assert_eq!(load(&buckets), NetFileError::Buckets(3));
        let mut inputs = bytes.clone();
        inputs[32] = 7;
        assert_eq!(load(&inputs), NetFileError::Inputs(7));
        let mut activation = bytes.clone();
        activation[36] = 2;
        assert_eq!(load(&activation), NetFileError::Activation(2));
        // A version 4 header cut short is refused, not read past.
        assert!(matches!(
            load(&bytes[..HEADER_BYTES - 1]),
            NetFileError::Size { .. }
        ));
    }

    #[test]
    fn king_mirrored_inputs_put_the_king_on_files_e_to_h() {
        use cozy_chess::{Color::*, Piece::*, Square};
        let index = |inputs: Inputs, perspective, king, square| {
            oriented_feature_index(perspective, inputs.mirrors(king), White, Knight, square)
        };
        for inputs in [Inputs::Plain, Inputs::KingMirrored] {
            // A king on files e-h leaves the board as it is.
            assert_eq!(
                index(inputs, White, Square::G1, Square::B1),
                feature_index(White, White, Knight, Square::B1)
            );
        }
        // On files a-d it mirrors it, for Black's view too (Black's king on c8).
        assert_eq!(
            index(Inputs::KingMirrored, White, Square::C1, Square::B1),
            feature_index(White, White, Knight, Square::G1)
        );
        assert_eq!(
            index(Inputs::KingMirrored, Black, Square::C8, Square::B1),
            feature_index(Black, White, Knight, Square::G1)
        );
        assert_eq!(
            index(Inputs::Plain, Black, Square::C8, Square::B1),
            feature_index(Black, White, Knight, Square::B1)
        );
    }

    #[test]
    fn features_mirror_between_perspectives() {
        use cozy_chess::{Color::*, Piece::*, Square};
        // White's own king on e1 is Black's own king on e8, seen from each side.
        assert_eq!(
            feature_index(White, White, King, Square::E1),
            feature_index(Black, Black, King, Square::E8)
        );
        assert_eq!(feature_index(White, White, Pawn, Square::A1), 0);
        assert_eq!(feature_index(White, Black, Pawn, Square::A1), 384);
        assert_eq!(
            feature_index(Black, White, King, Square::H1),
            384 + 5 * 64 + 63
        );
    }
}
