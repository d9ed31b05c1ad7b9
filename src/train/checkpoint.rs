//! Float checkpoints: the trainer's weights exactly as they stand, so that a run can start
//! from another run's result (`--init`). Only the weights are kept, not the optimiser's
//! moments: a run started from a checkpoint is a new run with its own schedule (the state
//! file of `resume.rs` keeps them, for `--resume`).
//!
//! Layout, little-endian: magic `CUTOFFCK3` (9 bytes), hidden size (u32), output buckets
//! (u32), input layout (u32, the network file's code), then every parameter of
//! [`Network`] in its flat order (f32). Older checkpoints are still read: `CUTOFFCK2` (no
//! input layout) with plain inputs, the first (`CUTOFFF32`, no bucket count either) as one
//! bucket.

use super::model::Network;
use crate::nnue::file::{Inputs, BUCKET_COUNTS, HIDDEN_RANGE};

/// The magic bytes at the start of a checkpoint.
pub const MAGIC: [u8; 9] = *b"CUTOFFCK3";
/// The magic of the checkpoints without an input layout: plain inputs.
const MAGIC_PLAIN_INPUTS: [u8; 9] = *b"CUTOFFCK2";
/// The magic of the first checkpoints: one output bucket, no bucket count.
const MAGIC_ONE_BUCKET: [u8; 9] = *b"CUTOFFF32";

/// Why a checkpoint was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckpointError {
    /// Not a checkpoint (wrong magic, or too short for its header).
    #[error("not a Cutoff float checkpoint")]
    NotACheckpoint,
    /// A hidden size outside the file format's range or not a multiple of 16.
    #[error("checkpoint hidden size {0} is not valid")]
    Hidden(u32),
    /// A bucket count the network file cannot hold.
    #[error("checkpoint has {0} output buckets")]
    Buckets(u32),
    /// An input layout the network file does not know.
    #[error("checkpoint has input layout {0}")]
    Inputs(u32),
    /// A parameter is NaN or infinite (a run that diverged).
    #[error("checkpoint holds NaN or infinite weights (a diverged run)")]
    NotFinite,
    /// The size does not match the hidden size.
    #[error("checkpoint is {found} bytes, its header says {expected} (truncated or damaged)")]
    Size { expected: usize, found: usize },
}

/// The checkpoint bytes of `net`.
pub fn to_bytes(net: &Network) -> Vec<u8> {
    let mut out = Vec::with_capacity(MAGIC.len() + 8 + 4 * net.params.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&(net.hidden() as u32).to_le_bytes());
    out.extend_from_slice(&(net.buckets() as u32).to_le_bytes());
    out.extend_from_slice(&net.inputs().code().to_le_bytes());
    for p in &net.params {
        out.extend_from_slice(&p.to_le_bytes());
    }
    out
}

/// The network of checkpoint `bytes`.
pub fn from_bytes(bytes: &[u8]) -> Result<Network, CheckpointError> {
    let word = |at: usize| -> Option<u32> {
        let b = bytes.get(at..at + 4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let (header, buckets, inputs) = match bytes.get(..MAGIC.len()) {
        Some(magic) if magic == MAGIC => (
            MAGIC.len() + 12,
            word(MAGIC.len() + 4),
            word(MAGIC.len() + 8),
        ),
        Some(magic) if magic == MAGIC_PLAIN_INPUTS => {
            (MAGIC.len() + 8, word(MAGIC.len() + 4), Some(0))
        }
        Some(magic) if magic == MAGIC_ONE_BUCKET => (MAGIC.len() + 4, Some(1), Some(0)),
        _ => return Err(CheckpointError::NotACheckpoint),
    };
    let (Some(hidden), Some(buckets), Some(inputs)) = (word(MAGIC.len()), buckets, inputs) else {
        return Err(CheckpointError::NotACheckpoint);
    };
    let inputs = Inputs::from_code(inputs).ok_or(CheckpointError::Inputs(inputs))?;
    if !HIDDEN_RANGE.contains(&(hidden as usize)) || !hidden.is_multiple_of(16) {
        return Err(CheckpointError::Hidden(hidden));
    }
    if !BUCKET_COUNTS.contains(&(buckets as usize)) {
        return Err(CheckpointError::Buckets(buckets));
    }
    let (hidden, buckets) = (hidden as usize, buckets as usize);
    let expected = header + 4 * Network::param_count(hidden, buckets);
    if bytes.len() != expected {
        return Err(CheckpointError::Size {
            expected,
            found: bytes.len(),
        });
    }
    let params: Vec<f32> = bytes[header..]
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    if !params.iter().all(|p| p.is_finite()) {
        return Err(CheckpointError::NotFinite);
    }
    Ok(Network::from_params(hidden, buckets, params).with_inputs(inputs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_is_exact_and_damage_is_refused() {
        let net = Network::new(32, 8, 4);
        let bytes = to_bytes(&net);
        assert_eq!(from_bytes(&bytes), Ok(net.clone()));
        let mirrored = Network::new(16, 4, 6).with_inputs(Inputs::KingMirrored);
        assert_eq!(from_bytes(&to_bytes(&mirrored)), Ok(mirrored));
        // A checkpoint without the input layout: plain inputs.
        let mut plain = MAGIC_PLAIN_INPUTS.to_vec();
        plain.extend_from_slice(&bytes[9..17]);
        plain.extend_from_slice(&bytes[21..]);
        assert_eq!(from_bytes(&plain), Ok(net.clone()));
        let mut inputs = bytes.clone();
        inputs[17] = 9;
        assert_eq!(from_bytes(&inputs), Err(CheckpointError::Inputs(9)));
        // A first-format checkpoint: one bucket, no count.
        let one = Network::new(16, 1, 5);
        let mut old = MAGIC_ONE_BUCKET.to_vec();
        old.extend_from_slice(&16u32.to_le_bytes());
        old.extend(one.params.iter().flat_map(|p| p.to_le_bytes()));
        assert_eq!(from_bytes(&old), Ok(one));
        assert_eq!(
            from_bytes(&bytes[..12]),
            Err(CheckpointError::NotACheckpoint)
        );
        let mut buckets = bytes.clone();
        buckets[13] = 3;
        assert_eq!(from_bytes(&buckets), Err(CheckpointError::Buckets(3)));
        let mut diverged = bytes.clone();
        let last = diverged.len() - 4;
        diverged[last..].copy_from_slice(&f32::NAN.to_le_bytes());
        assert_eq!(from_bytes(&diverged), Err(CheckpointError::NotFinite));
        assert!(matches!(
            from_bytes(&bytes[..bytes.len() - 4]),
            Err(CheckpointError::Size { .. })
        ));
        assert_eq!(
            from_bytes(b"CUTOFFNN and more"),
            Err(CheckpointError::NotACheckpoint)
        );
    }
}
