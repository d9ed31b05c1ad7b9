//! Nets trained by bullet (the GPU trainer many engines use), converted to Cutoff's own
//! file (`file.rs`) by `cutoff net import`, so that `EvalFile` and the built-in net stay
//! one format.
//!
//! bullet writes a quantised net (`quantised.bin`) as its arrays in the order the trainer
//! declares them, little-endian, with nothing between them, and pads the whole to a
//! multiple of 64 bytes with the bytes of `bullet` repeated. For the perspective net
//! `(768 -> H)x2 -> K` that Cutoff runs, with `l0` the feature layer and `l1` the output:
//!
//! | bullet array | type, length | Cutoff's field                                       |
//! |--------------|--------------|------------------------------------------------------|
//! | `l0w`        | i16, 768 · H | feature weights, input-major (`[768][H]`), × QA       |
//! | `l0b`        | i16, H       | feature biases, × QA                                  |
//! | `l1w`        | i16, K · 2H  | output weights, per bucket the side to move's H then  |
//! |              |              | the other side's, × QB: `[K][2H]` as saved with       |
//! |              |              | `.transpose()` ([`OutputLayout::Transposed`]), else   |
//! |              |              | bullet's column-major `[2H][K]`                       |
//! | `l1b`        | i16, K       | output biases, × QA·QB (widened to i32)               |
//!
//! bullet's `Chess768` inputs are Cutoff's plain inputs, index for index: from each
//! side's view `384 · (colour ≠ side) + 64 · piece + square`, the square flipped
//! vertically for Black's view, pieces in the order pawn, knight, bishop, rook, queen,
//! king. `Chess768hm` (each view also mirrored left to right when its own king stands on
//! files a–d) is Cutoff's king-mirrored layout. bullet's `MaterialCount<K>` output
//! buckets, `(pieces − 2) / ceil(32 / K)`, are Cutoff's `(pieces − 2) · K / 32` for K of
//! 1, 2, 4 and 8 (the bucket counts Cutoff runs).

use super::file::{
    Activation, Inputs, NetworkParams, Quantisation, BUCKET_COUNTS, HIDDEN_RANGE, INPUTS,
};

/// The bytes bullet pads its quantised nets with, repeated.
pub const PADDING: &[u8; 6] = b"bullet";

/// How `l1w`, the output weights, are laid out when there are several output buckets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OutputLayout {
    /// `[K][2H]`: saved with `SavedFormat::id("l1w")...transpose()`, as bullet's examples
    /// with output buckets do (and Cutoff's own layout).
    #[default]
    Transposed,
    /// `[2H][K]`: bullet's own column-major layout, saved without `.transpose()`.
    ColumnMajor,
}

/// What the bullet file holds: the shape and arithmetic the net was trained with, which
/// the file itself does not record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BulletShape {
    /// H, the hidden units per perspective.
    pub hidden: usize,
    /// K, the output buckets (`MaterialCount<K>`; 1 without output buckets).
    pub buckets: usize,
    /// `Chess768` ([`Inputs::Plain`]) or `Chess768hm` ([`Inputs::KingMirrored`]).
    pub inputs: Inputs,
    pub activation: Activation,
    pub quant: Quantisation,
    pub output_layout: OutputLayout,
}

/// Why a bullet file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    #[error(
        "hidden size {0}: Cutoff runs hidden sizes that are multiples of 16 within {min}..={max}",
        min = HIDDEN_RANGE.start(),
        max = HIDDEN_RANGE.end()
    )]
    Hidden(usize),
    #[error(
        "{0} output buckets: Cutoff runs 1, 2, 4 or 8, where its buckets by piece count are \
         bullet's MaterialCount"
    )]
    Buckets(usize),
    #[error(
        "{0}: QA and QB must be within 1..={max_q}, the scale within 1..={max_scale}",
        max_q = super::quant::MAX_Q,
        max_scale = super::quant::MAX_SCALE
    )]
    Quantisation(Quantisation),
    #[error(
        "the file is {found} bytes, but a bullet net (768 -> {hidden})x2 -> {buckets} of i16 \
         arrays is {expected} bytes ({unpadded} padded to a multiple of 64){hint}"
    )]
    Size {
        found: usize,
        expected: usize,
        unpadded: usize,
        hidden: usize,
        buckets: usize,
        /// The shapes whose size the file has, if any: `; ... fits --hidden H --buckets K`.
        hint: String,
    },
    #[error(
        "byte {at} is {byte:#04x}, not bullet's padding ('bullet' repeated, or zeros): the \
         file is not a net of this shape"
    )]
    Padding { at: usize, byte: u8 },
}

/// The bytes of bullet's arrays for `hidden` units and `buckets` output buckets, before
/// the padding.
pub const fn unpadded_size(hidden: usize, buckets: usize) -> usize {
    2 * (INPUTS * hidden + hidden + buckets * 2 * hidden + buckets)
}

/// The size of bullet's file: [`unpadded_size`] rounded up to a multiple of 64.
pub const fn file_size(hidden: usize, buckets: usize) -> usize {
    unpadded_size(hidden, buckets).next_multiple_of(64)
}

/// The largest file of a shape Cutoff runs.
pub const MAX_FILE_SIZE: usize = file_size(*HIDDEN_RANGE.end(), BUCKET_COUNTS[3]);

/// Cutoff's parameters of the bullet net `bytes` of `shape`: checks the shape, the
/// quantisation, the size and the padding, then copies the arrays (transposing the output
/// weights of a column-major file). Every value is kept as it is: nothing is
/// re-quantised.
pub fn import(bytes: &[u8], shape: &BulletShape) -> Result<NetworkParams, ImportError> {
    let BulletShape {
        hidden: h,
        buckets: k,
        ..
    } = *shape;
    if !HIDDEN_RANGE.contains(&h) || !h.is_multiple_of(16) {
        return Err(ImportError::Hidden(h));
    }
    if !BUCKET_COUNTS.contains(&k) {
        return Err(ImportError::Buckets(k));
    }
    if !shape.quant.is_valid() {
        return Err(ImportError::Quantisation(shape.quant));
    }
    check_size(bytes.len(), h, k)?;
    let unpadded = unpadded_size(h, k);
    check_padding(&bytes[unpadded..], unpadded)?;
    let values: Vec<i16> = bytes[..unpadded]
        .chunks_exact(2)
        .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
        .collect();
    let (feature_weights, rest) = values.split_at(INPUTS * h);
    let (feature_bias, rest) = rest.split_at(h);
    let (output_weights, output_bias) = rest.split_at(k * 2 * h);
    let output_weights = match shape.output_layout {
        OutputLayout::Transposed => output_weights.to_vec(),
        // `[2H][K]` to `[K][2H]`.
        OutputLayout::ColumnMajor => (0..k)
            .flat_map(|bucket| (0..2 * h).map(move |j| output_weights[j * k + bucket]))
            .collect(),
    };
    Ok(NetworkParams {
        hidden: h,
        buckets: k,
        inputs: shape.inputs,
        activation: shape.activation,
        quant: shape.quant,
        feature_weights: feature_weights.to_vec(),
        feature_bias: feature_bias.to_vec(),
        output_weights,
        output_bias: output_bias.iter().map(|&b| i32::from(b)).collect(),
    })
}

/// Refuses a file whose size is not that of `hidden` and `buckets`, naming the shapes
/// whose size it has.
fn check_size(found: usize, hidden: usize, buckets: usize) -> Result<(), ImportError> {
    let expected = file_size(hidden, buckets);
    if found == expected {
        return Ok(());
    }
    let fits: Vec<String> = HIDDEN_RANGE
        .step_by(16)
        .flat_map(|h| BUCKET_COUNTS.map(|k| (h, k)))
        .filter(|&(h, k)| file_size(h, k) == found)
        .map(|(h, k)| format!("--hidden {h} --buckets {k}"))
        .collect();
    let hint = if fits.is_empty() {
        String::new()
    } else {
        format!("; that size fits {}", fits.join(" or "))
    };
    Err(ImportError::Size {
        found,
        expected,
        unpadded: unpadded_size(hidden, buckets),
        hidden,
        buckets,
        hint,
    })
}

/// Refuses padding (`tail`, starting at byte `start`) other than bullet's or zeros.
fn check_padding(tail: &[u8], start: usize) -> Result<(), ImportError> {
    let bullet = tail
        .iter()
        .zip(PADDING.iter().cycle())
        .position(|(byte, want)| byte != want);
    let zeros = tail.iter().position(|&byte| byte != 0);
    match (bullet, zeros) {
        (Some(a), Some(b)) => {
            let at = a.max(b);
            Err(ImportError::Padding {
                at: start + at,
                byte: tail[at],
            })
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(hidden: usize, buckets: usize) -> BulletShape {
        BulletShape {
            hidden,
            buckets,
            inputs: Inputs::Plain,
            activation: Activation::SCReLU,
            quant: Quantisation::STANDARD,
            output_layout: OutputLayout::Transposed,
        }
    }

    /// A bullet file of `values` (i16), padded as bullet pads.
    fn file(values: &[i16]) -> Vec<u8> {
        let mut bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let mut pad = PADDING.iter().cycle();
        while !bytes.len().is_multiple_of(64) {
            bytes.push(*pad.next().unwrap());
        }
        bytes
    }

    #[test]
    fn sizes_are_bullets_arrays_padded_to_64_bytes() {
        // (768 -> 16)x2 -> 1: 12,288 + 16 + 32 + 1 values.
        assert_eq!(unpadded_size(16, 1), 2 * 12_337);
        assert_eq!(file_size(16, 1), 24_704);
        // (768 -> 1024)x2 -> 8: 1,607,744 bytes, 48 of them padding.
        assert_eq!(unpadded_size(1024, 8), 1_607_696);
        assert_eq!(file_size(1024, 8), 1_607_744);
        assert_eq!(file_size(2048, 8), MAX_FILE_SIZE);
    }

    #[test]
    fn arrays_land_in_cutoffs_fields() {
        let (h, k) = (16, 4);
        let values: Vec<i16> = (0..unpadded_size(h, k) / 2).map(|i| i as i16).collect();
        let bytes = file(&values);
        let params = import(&bytes, &shape(h, k)).unwrap();
        assert_eq!(params.feature_weights, values[..768 * h]);
        assert_eq!(params.feature_bias, values[768 * h..769 * h]);
        let l1w = &values[769 * h..769 * h + k * 2 * h];
        assert_eq!(params.output_weights, l1w);
        let l1b: Vec<i32> = values[769 * h + k * 2 * h..]
            .iter()
            .map(|&b| i32::from(b))
            .collect();
        assert_eq!(params.output_bias, l1b);
        // Column-major output weights: bucket b's unit j is l1w[j * K + b].
        let column_major = BulletShape {
            output_layout: OutputLayout::ColumnMajor,
            ..shape(h, k)
        };
        let params = import(&bytes, &column_major).unwrap();
        for b in 0..k {
            for j in 0..2 * h {
                assert_eq!(params.output_weights[b * 2 * h + j], l1w[j * k + b]);
            }
        }
    }

    #[test]
    fn wrong_sizes_shapes_and_padding_are_refused() {
        let bytes = file(&vec![1; unpadded_size(32, 8) / 2]);
        assert!(import(&bytes, &shape(32, 8)).is_ok());
        let error = import(&bytes, &shape(16, 8)).unwrap_err();
        assert!(matches!(error, ImportError::Size { found, .. } if found == bytes.len()));
        assert!(
            error.to_string().contains("fits --hidden 32 --buckets 8"),
            "{error}"
        );
        let error = import(&bytes[..bytes.len() - 2], &shape(32, 8)).unwrap_err();
        assert!(matches!(error, ImportError::Size { .. }), "{error}");
        assert_eq!(
            import(&bytes, &shape(24, 8)).unwrap_err(),
            ImportError::Hidden(24)
        );
        assert_eq!(
            import(&bytes, &shape(32, 3)).unwrap_err(),
            ImportError::Buckets(3)
        );
        let zero_qa = BulletShape {
            quant: Quantisation {
                qa: 0,
                qb: 64,
                scale: 400,
            },
            ..shape(32, 8)
        };
        assert!(matches!(
            import(&bytes, &zero_qa),
            Err(ImportError::Quantisation(_))
        ));
        // Zero padding is accepted; anything else in the padding is refused.
        let mut zeros = bytes.clone();
        let unpadded = unpadded_size(32, 8);
        zeros[unpadded..].fill(0);
        assert!(import(&zeros, &shape(32, 8)).is_ok());
        let mut damaged = bytes;
        damaged[unpadded + 2] = b'x';
        assert_eq!(
            import(&damaged, &shape(32, 8)).unwrap_err(),
            ImportError::Padding {
                at: unpadded + 2,
                byte: b'x'
            }
        );
    }
}
