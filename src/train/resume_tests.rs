//! `--resume`: a run stopped after an epoch and resumed ends with the network of the run
//! that never stopped, and a state that is not the run's own is refused.

use super::resume::{self, RunState};
use super::tests::{material_split, quick_config, random_games};
use super::{train_run, Network, RunStart, Split, TrainError};
use crate::cli::words;

/// The state after each epoch of a run of `config` from random weights on `split`.
fn states_of(config: &super::TrainConfig, split: &mut Split, fingerprint: u64) -> Vec<RunState> {
    let mut states = Vec::new();
    let start = RunStart {
        init: Network::new(config.hidden, config.buckets, config.seed),
        resumed: None,
    };
    train_run(start, config, split, |report, net, moments| {
        states.push(RunState {
            fingerprint,
            epochs_done: report.epoch,
            threads: config.threads,
            net: net.clone(),
            moments: moments.clone(),
        });
    });
    states
}

#[test]
fn a_resumed_run_ends_where_the_whole_run_does() {
    let config = quick_config(32, 4);
    let whole = states_of(&config, &mut material_split(30, 5), 0);
    assert_eq!(whole.len(), 4);
    for stopped_after in 1..4 {
        let start = RunStart {
            init: Network::new(config.hidden, config.buckets, config.seed),
            resumed: Some(whole[stopped_after - 1].clone()),
        };
        let mut epochs = Vec::new();
        let net = train_run(
            start,
            &config,
            &mut material_split(30, 5),
            |report, _, _| {
                epochs.push(report.epoch);
            },
        );
        assert_eq!(epochs, (stopped_after + 1..=4).collect::<Vec<_>>());
        assert_eq!(net, whole[3].net, "stopped after epoch {stopped_after}");
    }
    // Without the moments (a new run from the checkpoint, as --init does) it ends elsewhere.
    let start = RunStart {
        init: whole[1].net.clone(),
        resumed: None,
    };
    let restarted = train_run(
        start,
        &quick_config(32, 2),
        &mut material_split(30, 5),
        |_, _, _| {},
    );
    assert_ne!(restarted, whole[3].net);
}

/// `cutoff train --resume` end to end: the state a run writes, a stopped run's state, a
/// finished run, and states that are not the run's.
#[test]
fn the_command_resumes_its_own_run_only() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/train-resume-test");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (bytes, _) = random_games(30, 11);
    std::fs::write(dir.join("a.viri"), &bytes).unwrap();
    let out = dir.join("net.bin");
    let state_path = dir.join("net.bin.state");
    let flags = |extra: &str| {
        words(&format!(
            "--data {} --out {} --hidden 16 --epochs 3 --batch 128 --threads 2 --lr 0.01 {extra}",
            dir.display(),
            out.display()
        ))
    };
    let run = |extra: &str| super::run(&super::parse_args(&flags(extra)).unwrap());
    // --resume without a state starts from the first epoch: the same as a plain run.
    run("--resume").unwrap();
    let whole = std::fs::read(&out).unwrap();
    let state = resume::from_bytes(&std::fs::read(&state_path).unwrap()).unwrap();
    assert_eq!(state.epochs_done, 3);
    assert_eq!(super::export_bytes(&state.net), whole);
    run("").unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), whole);

    // A run stopped after its first epoch: that epoch's state, as the command writes it.
    let command = super::parse_args(&flags("")).unwrap();
    let mut split = super::load_training_split(&command).unwrap();
    let fingerprint = super::run_fingerprint(&command, &split.train);
    assert_eq!(fingerprint, state.fingerprint);
    let first = states_of(&command.config, &mut split, fingerprint);
    std::fs::write(&state_path, resume::to_bytes(&first[0])).unwrap();
    std::fs::write(&out, b"the network of epoch 1").unwrap();
    run("--resume").unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), whole, "resumed after epoch 1");

    // A finished run trains no more: its network is written again from the state.
    std::fs::write(&out, b"overwritten since").unwrap();
    run("--resume").unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), whole);
    std::fs::write(&out, b"left alone").unwrap();

    // Other flags, other data or a damaged state: refused, nothing written.
    for other in [
        "--resume --wdl 0.1",
        "--resume --mirror",
        "--resume --seed 2",
    ] {
        let error = run(other).unwrap_err();
        assert!(
            matches!(error, TrainError::OtherRun { .. }),
            "{other}: {error}"
        );
        assert!(
            error.to_string().contains("belongs to another run"),
            "{error}"
        );
    }
    assert_eq!(std::fs::read(&out).unwrap(), b"left alone");
    std::fs::write(dir.join("b.viri"), random_games(5, 12).0).unwrap();
    assert!(matches!(run("--resume"), Err(TrainError::OtherRun { .. })));
    std::fs::remove_file(dir.join("b.viri")).unwrap();
    let mut damaged = std::fs::read(&state_path).unwrap();
    damaged[40] ^= 1;
    std::fs::write(&state_path, &damaged).unwrap();
    let error = run("--resume").unwrap_err();
    assert!(matches!(error, TrainError::State { .. }), "{error}");
    assert_eq!(std::fs::read(&out).unwrap(), b"left alone");
    // --resume and --measure do not go together.
    let mut measure = flags("--resume");
    let at = measure.iter().position(|w| w == "--out").unwrap();
    measure[at] = "--measure".to_string();
    measure[at + 1] = dir.join("net.bin.ckpt").display().to_string();
    measure.retain(|w| w != "--hidden" && w != "16");
    assert!(super::parse_args(&measure).is_err());
}
