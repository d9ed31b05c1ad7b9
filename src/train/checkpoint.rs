//! Float checkpoints: the trainer's weights exactly as they stand, so that a run can start
//! from another run's result (`--init`). Only the weights are kept, not the optimiser's
//! moments: a run started from a checkpoint is a new run with its own schedule.
//!
//! Layout, little-endian: magic `CUTOFFF32` (9 bytes), hidden size (u32), then every
//! parameter of [`Network`] in its flat order (f32).

use std::fmt;

use super::model::Network;
use crate::nnue::file::HIDDEN_RANGE;

/// The magic bytes at the start of a checkpoint.
pub const MAGIC: [u8; 9] = *b"CUTOFFF32";

/// Why a checkpoint was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckpointError {
    /// Not a checkpoint (wrong magic, or too short for its header).
    NotACheckpoint,
    /// A hidden size outside the file format's range or not a multiple of 16.
    Hidden(u32),
    /// The size does not match the hidden size.
    Size { expected: usize, found: usize },
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::NotACheckpoint => write!(f, "not a Cutoff float checkpoint"),
            CheckpointError::Hidden(h) => write!(f, "checkpoint hidden size {h} is not valid"),
            CheckpointError::Size { expected, found } => write!(
                f,
                "checkpoint is {found} bytes, its header says {expected} (truncated or damaged)"
            ),
        }
    }
}

impl std::error::Error for CheckpointError {}

/// The checkpoint bytes of `net`.
pub fn to_bytes(net: &Network) -> Vec<u8> {
    let mut out = Vec::with_capacity(MAGIC.len() + 4 + 4 * net.params.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&(net.hidden() as u32).to_le_bytes());
    for p in &net.params {
        out.extend_from_slice(&p.to_le_bytes());
    }
    out
}

/// The network of checkpoint `bytes`.
pub fn from_bytes(bytes: &[u8]) -> Result<Network, CheckpointError> {
    let header = MAGIC.len() + 4;
    if bytes.len() < header || bytes[..MAGIC.len()] != MAGIC {
        return Err(CheckpointError::NotACheckpoint);
    }
    let mut word = [0u8; 4];
    word.copy_from_slice(&bytes[MAGIC.len()..header]);
    let hidden = u32::from_le_bytes(word);
    if !HIDDEN_RANGE.contains(&(hidden as usize)) || !hidden.is_multiple_of(16) {
        return Err(CheckpointError::Hidden(hidden));
    }
    let hidden = hidden as usize;
    let expected = header + 4 * Network::param_count(hidden);
    if bytes.len() != expected {
        return Err(CheckpointError::Size {
            expected,
            found: bytes.len(),
        });
    }
    let params = bytes[header..]
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    Ok(Network::from_params(hidden, params))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_is_exact_and_damage_is_refused() {
        let net = Network::new(32, 4);
        let bytes = to_bytes(&net);
        assert_eq!(from_bytes(&bytes), Ok(net));
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
