//! The state of an unfinished training run (`--resume`): after every epoch the trainer
//! writes, beside the network, everything the next epoch needs that the command line and
//! the data do not give again: the float weights, AdamW's moments and step count, and how
//! many epochs are done. The shuffled order of the positions is not kept: a resumed run
//! replays the shuffles of the epochs done from the seed (a second or two each on tens of
//! millions of positions), so that it goes on exactly as the run that stopped would have.
//!
//! A state belongs to one run: its [`Fingerprint`] folds in every flag that changes what
//! is learnt (all of [`TrainConfig`] but the thread count, `--holdout`, `--mirror`,
//! `--lookahead`, the `--init` weights) and every training position in load order, and a
//! state of another run is refused rather than continued with the wrong data or schedule.
//! The thread count is left out: another count continues the run as well, only not to the
//! last bit (the threads' partial gradients are summed in another order); the state keeps
//! the count it was written with, and a resume with another says so.
//!
//! Layout, little-endian: magic `CUTOFFTS1` (9 bytes), fingerprint (u64), epochs done
//! (u32), threads (u32), AdamW steps (u64), parameter count N (u64), the float checkpoint of
//! the network
//! (`checkpoint.rs`, its own length first as a u64), AdamW's first moments (N × f32), its
//! second moments (N × f32), then an FNV-1a checksum (u64) of everything before it.

use super::checkpoint::{self, CheckpointError};
use super::data::Record;
use super::model::Network;
use super::optim::Moments;
use super::TrainConfig;

/// The magic bytes at the start of a state file.
pub const MAGIC: [u8; 9] = *b"CUTOFFTS1";
/// Folded in first: a trainer whose fingerprint covers other flags bumps it, so that its
/// fingerprints never equal an older trainer's by accident.
const FINGERPRINT_VERSION: u64 = 1;

/// What a run that stopped after some epochs had learnt and where it was.
#[derive(Debug, Clone, PartialEq)]
pub struct RunState {
    /// The run it belongs to ([`Fingerprint`]).
    pub fingerprint: u64,
    /// Epochs finished (the network is the one written after the last of them).
    pub epochs_done: usize,
    /// The `--threads` of the run that wrote it.
    pub threads: usize,
    pub net: Network,
    pub moments: Moments,
}

/// Why a state file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StateError {
    /// Not a state file (wrong magic, or too short for its header).
    #[error("not a Cutoff training state")]
    NotAState,
    /// The checksum or the sizes do not match: a truncated or damaged file.
    #[error("training state is damaged (checksum or size mismatch)")]
    Damaged,
    /// The network inside could not be read.
    #[error("training state's network: {0}")]
    Network(#[from] CheckpointError),
    /// The moments are not the size of the network.
    #[error("training state has {moments} moments for {params} weights")]
    Moments { moments: usize, params: usize },
    /// The network's shape, the epochs or the optimiser's steps do not fit the run.
    #[error("training state does not fit the run: {0}")]
    Misfit(String),
}

impl RunState {
    /// Refuses a state that cannot go on as the run of `config` with `steps_per_epoch`
    /// optimiser steps an epoch: another network shape, more epochs than the run has, or
    /// a step count that is not the epochs' (a file whose fingerprint matched by accident
    /// or by hand must not reach the optimiser).
    pub fn check_fits(
        &self,
        config: &TrainConfig,
        steps_per_epoch: usize,
    ) -> Result<(), StateError> {
        let misfit = |why: String| Err(StateError::Misfit(why));
        let shape = (self.net.hidden(), self.net.buckets(), self.net.inputs());
        if shape != (config.hidden, config.buckets, config.inputs) {
            return misfit(format!(
                "its network is {} units x {} buckets, the run's {} x {}",
                shape.0, shape.1, config.hidden, config.buckets
            ));
        }
        if self.epochs_done > config.epochs {
            return misfit(format!(
                "{} epochs done of {}",
                self.epochs_done, config.epochs
            ));
        }
        let steps = (self.epochs_done as u64).checked_mul(steps_per_epoch as u64);
        if steps != Some(self.moments.steps) {
            return misfit(format!(
                "{} optimiser steps after {} epochs of {steps_per_epoch}",
                self.moments.steps, self.epochs_done
            ));
        }
        Ok(())
    }
}

/// FNV-1a over 64-bit words: the checksum of a state file and the fold of a run's
/// fingerprint. Fixed here (not `std`'s hasher, which may change between Rust releases), so
/// that a state written by one build is read by the next.
#[derive(Debug, Clone, Copy)]
pub struct Fingerprint(u64);

impl Default for Fingerprint {
    fn default() -> Self {
        let mut fold = Fingerprint(0xcbf2_9ce4_8422_2325);
        fold.add(FINGERPRINT_VERSION);
        fold
    }
}

impl Fingerprint {
    /// Folds one word in.
    pub fn add(&mut self, word: u64) {
        self.0 = (self.0 ^ word).wrapping_mul(0x0000_0100_0000_01b3);
    }

    /// Folds in the flags that decide what a run learns (the thread count excepted).
    pub fn add_config(
        &mut self,
        config: &TrainConfig,
        holdout: f64,
        mirror: bool,
        lookahead: usize,
    ) {
        let TrainConfig {
            hidden,
            buckets,
            inputs,
            epochs,
            lr,
            final_lr,
            wdl,
            loss_power,
            threads: _,
            seed,
            batch,
            anchor,
            decay,
        } = config;
        for word in [
            *hidden as u64,
            *buckets as u64,
            u64::from(inputs.code()),
            *epochs as u64,
        ] {
            self.add(word);
        }
        for float in [lr, final_lr, wdl, anchor, decay] {
            self.add(u64::from(float.to_bits()));
        }
        // Folded in only when it is not the squared error's, so that the states of runs
        // written before `--loss-power` existed are still taken.
        if *loss_power != super::DEFAULT_LOSS_POWER {
            self.add(u64::from(loss_power.to_bits()));
        }
        for word in [
            *seed,
            *batch as u64,
            holdout.to_bits(),
            u64::from(mirror),
            lookahead as u64,
        ] {
            self.add(word);
        }
    }

    /// Folds in the starting weights (`--init`), or a marker for random ones.
    pub fn add_start(&mut self, init: Option<&Network>) {
        self.add(u64::from(init.is_some()));
        for p in init.map_or(&[][..], |net| &net.params[..]) {
            self.add(u64::from(p.to_bits()));
        }
    }

    /// Folds in the training positions, in order.
    pub fn add_records(&mut self, records: &[Record]) {
        self.add(records.len() as u64);
        for record in records {
            let features = record.white_features();
            let mut word = features.len() as u64;
            for (i, &feature) in features.iter().enumerate() {
                word = word << 16 | u64::from(feature);
                if i % 3 == 2 {
                    self.add(word);
                    word = 0;
                }
            }
            self.add(word);
            self.add(
                u64::from(record.score as u16)
                    | u64::from(record.result) << 16
                    | u64::from(record.black_to_move()) << 24
                    | u64::from(record.mirrorable) << 25,
            );
        }
    }

    /// The fingerprint so far.
    pub fn value(&self) -> u64 {
        self.0
    }
}

/// The checksum of `bytes`, eight at a time (the tail padded with zeros).
fn checksum(bytes: &[u8]) -> u64 {
    let mut fold = Fingerprint::default();
    fold.add(bytes.len() as u64);
    for chunk in bytes.chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        fold.add(u64::from_le_bytes(word));
    }
    fold.value()
}

/// The bytes of `state`.
pub fn to_bytes(state: &RunState) -> Vec<u8> {
    let net = checkpoint::to_bytes(&state.net);
    let n = state.net.params.len();
    let mut out = Vec::with_capacity(MAGIC.len() + 48 + net.len() + 8 * n);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&state.fingerprint.to_le_bytes());
    out.extend_from_slice(&(state.epochs_done as u32).to_le_bytes());
    out.extend_from_slice(&(state.threads as u32).to_le_bytes());
    out.extend_from_slice(&state.moments.steps.to_le_bytes());
    out.extend_from_slice(&(n as u64).to_le_bytes());
    out.extend_from_slice(&(net.len() as u64).to_le_bytes());
    out.extend_from_slice(&net);
    for moment in [&state.moments.momentum, &state.moments.velocity] {
        for m in moment {
            out.extend_from_slice(&m.to_le_bytes());
        }
    }
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// A little-endian reader over a state's bytes; `None` past the end.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, count: usize) -> Option<&'a [u8]> {
        let (head, rest) = self.bytes.split_at_checked(count)?;
        self.bytes = rest;
        Some(head)
    }

    fn word<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N)?.try_into().ok()
    }

    fn floats(&mut self, count: usize) -> Option<Vec<f32>> {
        let bytes = self.take(count.checked_mul(4)?)?;
        Some(
            bytes
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect(),
        )
    }
}

/// The state in `bytes`.
pub fn from_bytes(bytes: &[u8]) -> Result<RunState, StateError> {
    if bytes.len() < MAGIC.len() + 48 || bytes[..MAGIC.len()] != MAGIC {
        return Err(StateError::NotAState);
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    if checksum(body) != u64::from_le_bytes(sum.try_into().map_err(|_| StateError::Damaged)?) {
        return Err(StateError::Damaged);
    }
    let mut reader = Reader {
        bytes: &body[MAGIC.len()..],
    };
    let damaged = StateError::Damaged;
    let fingerprint = u64::from_le_bytes(reader.word().ok_or(damaged.clone())?);
    let epochs_done = u32::from_le_bytes(reader.word().ok_or(damaged.clone())?) as usize;
    let threads = u32::from_le_bytes(reader.word().ok_or(damaged.clone())?) as usize;
    let steps = u64::from_le_bytes(reader.word().ok_or(damaged.clone())?);
    let n = u64::from_le_bytes(reader.word().ok_or(damaged.clone())?);
    let net_len = u64::from_le_bytes(reader.word().ok_or(damaged.clone())?);
    let net_bytes = usize::try_from(net_len)
        .ok()
        .and_then(|len| reader.take(len))
        .ok_or(damaged.clone())?;
    let net = checkpoint::from_bytes(net_bytes)?;
    let n = usize::try_from(n).map_err(|_| damaged.clone())?;
    if n != net.params.len() {
        return Err(StateError::Moments {
            moments: n,
            params: net.params.len(),
        });
    }
    let momentum = reader.floats(n).ok_or(damaged.clone())?;
    let velocity = reader.floats(n).ok_or(damaged.clone())?;
    if !reader.bytes.is_empty() {
        return Err(damaged);
    }
    Ok(RunState {
        fingerprint,
        epochs_done,
        threads,
        net,
        moments: Moments {
            momentum,
            velocity,
            steps,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> RunState {
        let net = Network::new(16, 2, 3);
        let n = net.params.len();
        RunState {
            fingerprint: 0x1234_5678_9abc_def0,
            epochs_done: 3,
            threads: 2,
            moments: Moments {
                momentum: (0..n).map(|i| i as f32 * 0.5).collect(),
                velocity: (0..n).map(|i| i as f32 * 0.25).collect(),
                steps: 42,
            },
            net,
        }
    }

    #[test]
    fn round_trip_is_exact() {
        let state = state();
        assert_eq!(from_bytes(&to_bytes(&state)), Ok(state));
    }

    #[test]
    fn a_state_must_fit_the_run() {
        let state = state();
        let config = TrainConfig {
            hidden: 16,
            buckets: 2,
            epochs: 5,
            ..TrainConfig::default()
        };
        assert_eq!(state.check_fits(&config, 14), Ok(()));
        let misfit = |config: &TrainConfig, steps_per_epoch: usize| {
            matches!(
                state.check_fits(config, steps_per_epoch),
                Err(StateError::Misfit(_))
            )
        };
        assert!(misfit(&config, 15), "42 steps are not 3 epochs of 15");
        assert!(misfit(
            &TrainConfig {
                hidden: 32,
                ..config.clone()
            },
            14
        ));
        assert!(misfit(
            &TrainConfig {
                buckets: 8,
                ..config.clone()
            },
            14
        ));
        assert!(misfit(
            &TrainConfig {
                epochs: 2,
                ..config.clone()
            },
            14
        ));
        let mirrored = TrainConfig {
            inputs: crate::nnue::file::Inputs::KingMirrored,
            ..config.clone()
        };
        assert!(misfit(&mirrored, 14));
    }

    #[test]
    fn damage_is_refused() {
        let bytes = to_bytes(&state());
        assert_eq!(from_bytes(&bytes[..20]), Err(StateError::NotAState));
        assert_eq!(
            from_bytes(b"CUTOFFCK3 and more"),
            Err(StateError::NotAState)
        );
        assert_eq!(
            from_bytes(&bytes[..bytes.len() - 1]),
            Err(StateError::Damaged)
        );
        for at in [10, 30, 60, bytes.len() / 2, bytes.len() - 9] {
            let mut flipped = bytes.clone();
            flipped[at] ^= 0x10;
            assert_eq!(from_bytes(&flipped), Err(StateError::Damaged), "byte {at}");
        }
    }

    #[test]
    fn the_fingerprint_sees_every_flag_that_changes_the_run() {
        let base = TrainConfig {
            threads: 1,
            ..TrainConfig::default()
        };
        let print_with = |config: &TrainConfig, holdout: f64, mirror: bool, lookahead: usize| {
            let mut fold = Fingerprint::default();
            fold.add_config(config, holdout, mirror, lookahead);
            fold.value()
        };
        let print = |config: &TrainConfig, holdout: f64, mirror: bool| {
            print_with(config, holdout, mirror, 0)
        };
        let reference = print(&base, 0.05, false);
        assert_ne!(print_with(&base, 0.05, false, 2), reference);
        let other_threads = TrainConfig {
            threads: 2,
            ..base.clone()
        };
        assert_eq!(print(&other_threads, 0.05, false), reference);
        let changed = [
            TrainConfig {
                hidden: 256,
                ..base.clone()
            },
            TrainConfig {
                epochs: 11,
                ..base.clone()
            },
            TrainConfig {
                lr: 0.002,
                ..base.clone()
            },
            TrainConfig {
                final_lr: 0.0,
                ..base.clone()
            },
            TrainConfig {
                anchor: 1.0,
                ..base.clone()
            },
            TrainConfig {
                inputs: crate::nnue::file::Inputs::KingMirrored,
                ..base.clone()
            },
            TrainConfig {
                wdl: 0.1,
                ..base.clone()
            },
            TrainConfig {
                seed: 2,
                ..base.clone()
            },
            TrainConfig {
                batch: 4096,
                ..base.clone()
            },
            TrainConfig {
                decay: 0.0,
                ..base.clone()
            },
            TrainConfig {
                loss_power: 2.5,
                ..base.clone()
            },
            TrainConfig {
                buckets: 8,
                ..base.clone()
            },
        ];
        for config in &changed {
            assert_ne!(print(config, 0.05, false), reference, "{config:?}");
        }
        assert_ne!(print(&base, 0.1, false), reference);
        assert_ne!(print(&base, 0.05, true), reference);
        let start = |init: Option<&Network>| {
            let mut fold = Fingerprint::default();
            fold.add_start(init);
            fold.value()
        };
        let net = Network::new(16, 1, 1);
        assert_ne!(start(None), start(Some(&net)));
        assert_ne!(start(Some(&net)), start(Some(&Network::new(16, 1, 2))));
    }
}
