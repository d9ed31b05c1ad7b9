//! `cutoff datagen` and `cutoff tune` end to end through the real binary: the data file
//! holds legal quiet positions in the documented format, the same seed gives the same
//! file whatever the thread count, a resumed run appends exactly the games that were
//! missing, and the tuner reads the file and writes a parameter source.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use cozy_chess::Board;

mod common;

/// A fresh directory for this test's files.
fn temp_dir(name: &str) -> PathBuf {
    common::temp_dir("datagen", name)
}

fn cutoff(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args(args)
        .output()
        .unwrap()
}

/// Runs `cutoff datagen` with small settings, seed 3, and `extra` flags, into `out`.
fn datagen(out: &Path, extra: &[&str]) -> Output {
    let out = out.to_str().unwrap();
    let mut args = vec!["datagen", "--nodes", "600", "--hash", "2", "--seed", "3"];
    args.extend_from_slice(&["--out", out]);
    args.extend_from_slice(extra);
    let output = cutoff(&args);
    assert!(
        output.status.success(),
        "datagen failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

#[test]
fn datagen_writes_legal_quiet_positions() {
    let dir = temp_dir("legal");
    let path = dir.join("data.txt");
    let output = datagen(&path, &["--games", "4", "--threads", "2"]);
    let progress = String::from_utf8_lossy(&output.stderr);
    assert!(
        progress.contains("4/4 games written"),
        "progress on stderr: {progress}"
    );
    assert!(output.stdout.is_empty(), "stdout stays empty");

    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 20, "only {} positions", lines.len());
    let mut results = Vec::new();
    for line in &lines {
        let fields: Vec<&str> = line.split(" | ").collect();
        assert_eq!(fields.len(), 3, "not `FEN | score | result`: {line}");
        let board: Board = fields[0]
            .parse()
            .unwrap_or_else(|e| panic!("illegal FEN {:?}: {e:?}", fields[0]));
        assert!(board.checkers().is_empty(), "in check: {line}");
        let score: i32 = fields[1].parse().unwrap();
        assert!(score.abs() < 10_000, "mate scores are not kept: {line}");
        assert!(["1.0", "0.5", "0.0"].contains(&fields[2]), "result: {line}");
        results.push(fields[2]);
    }
    // A game's positions share its result, so the results come in runs, at most four.
    results.dedup();
    assert!(results.len() <= 4, "results {results:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn same_seed_same_file_with_any_thread_count_and_resumes_append() {
    let dir = temp_dir("resume");
    let one = dir.join("one.txt");
    let two = dir.join("two.txt");
    let resumed = dir.join("resumed.txt");
    datagen(&one, &["--games", "4", "--threads", "1"]);
    datagen(&two, &["--games", "4", "--threads", "2"]);
    datagen(&resumed, &["--games", "1", "--threads", "1"]);
    datagen(
        &resumed,
        &["--games", "3", "--threads", "2", "--first-game", "1"],
    );
    let read = |path: &Path| std::fs::read_to_string(path).unwrap();
    assert!(!read(&one).is_empty());
    assert_eq!(read(&one), read(&two), "1 thread and 2 threads differ");
    assert_eq!(read(&one), read(&resumed), "a resumed run differs");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tune_reads_datagen_output_and_writes_params() {
    let dir = temp_dir("tune");
    let data = dir.join("data.txt");
    let params = dir.join("params.rs");
    datagen(&data, &["--games", "4", "--threads", "2"]);
    let output = cutoff(&[
        "tune",
        "--data",
        data.to_str().unwrap(),
        "--out",
        params.to_str().unwrap(),
        "--epochs",
        "2",
        "--batch",
        "32",
        "--threads",
        "2",
    ]);
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "tune failed: {log}");
    assert!(log.contains("fitted K"), "{log}");
    assert!(log.contains("held out"), "{log}");
    let source = std::fs::read_to_string(&params).unwrap();
    assert!(source.contains("params! {"), "{source}");
    assert!(source.contains("MATERIAL: [S; 6]"), "{source}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The last game numbers below 2^64: the run plays the one game asked for and ends (the
/// shared game counter once wrapped to game 0 there, and a second thread played on
/// forever).
#[test]
fn the_last_game_numbers_end_the_run() {
    let dir = temp_dir("last-games");
    let path = dir.join("last.viri");
    let mut child = Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .args([
            "datagen",
            "--games",
            "1",
            "--first-game",
            "18446744073709551614",
        ])
        .args([
            "--nodes",
            "100",
            "--hash",
            "1",
            "--threads",
            "2",
            "--format",
            "viri",
        ])
        .arg("--out")
        .arg(&path)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let limit = std::time::Duration::from_secs(120);
    let status = common::exit_within(&mut child, limit, "datagen of the last game");
    assert!(status.success(), "{status}");
    let games = cutoff::viri::read_games(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(games.len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn viri_format_holds_every_ply_and_resumes_thread_independently() {
    let dir = temp_dir("viri");
    let whole = dir.join("whole.viri");
    datagen(
        &whole,
        &["--games", "4", "--threads", "1", "--format", "viri"],
    );
    let bytes = std::fs::read(&whole).unwrap();
    let games = cutoff::viri::read_games(&bytes).unwrap();
    assert_eq!(games.len(), 4);
    for game in &games {
        assert!(
            game.plies.len() >= 8,
            "a game of {} plies",
            game.plies.len()
        );
        // The game ends where the rules or the adjudication end it, never mid-way: the
        // final position is either over by the rules or was adjudicated (a decisive result
        // then has a large score for the winner near the end).
        let last_score = i32::from(game.plies.last().unwrap().1);
        match game.result {
            cutoff::viri::GameResult::WhiteWins => assert!(last_score > 0, "{last_score}"),
            cutoff::viri::GameResult::BlackWins => assert!(last_score < 0, "{last_score}"),
            cutoff::viri::GameResult::Draw => {}
        }
    }
    // Two threads, in two runs (games 0-1, then 2-3 resumed): the same bytes.
    let split = dir.join("split.viri");
    let args = ["--threads", "2", "--format", "viri"];
    datagen(&split, &[&["--games", "2"][..], &args[..]].concat());
    datagen(
        &split,
        &[&["--games", "2", "--first-game", "2"][..], &args[..]].concat(),
    );
    assert_eq!(std::fs::read(&split).unwrap(), bytes);
}

#[test]
fn datagen_plays_with_the_network_it_is_given() {
    use cutoff::nnue::file::{NetworkParams, INPUTS};
    let dir = temp_dir("net");
    let mut rng = cutoff::rng::SplitMix64::new(4);
    let mut values = |n: usize, range: i32| -> Vec<i16> {
        (0..n)
            .map(|_| (rng.below(2 * range as usize + 1) as i32 - range) as i16)
            .collect()
    };
    let params = NetworkParams {
        hidden: 16,
        buckets: 1,
        inputs: cutoff::nnue::file::Inputs::Plain,
        activation: Default::default(),
        quant: Default::default(),
        feature_weights: values(INPUTS * 16, 200),
        feature_bias: values(16, 200),
        output_weights: values(32, 127),
        output_bias: vec![0],
    };
    let net = dir.join("random.nnue");
    std::fs::write(&net, params.to_bytes()).unwrap();
    let with_net = dir.join("net.viri");
    let output = datagen(
        &with_net,
        &[
            "--games",
            "2",
            "--format",
            "viri",
            "--net",
            net.to_str().unwrap(),
        ],
    );
    let progress = String::from_utf8_lossy(&output.stderr);
    assert!(
        progress.contains("network of 16 hidden units"),
        "{progress}"
    );
    // `--hce` plays with the hand-crafted evaluation whatever network is built in.
    let classical = dir.join("classical.viri");
    let output = datagen(&classical, &["--games", "2", "--format", "viri", "--hce"]);
    let progress = String::from_utf8_lossy(&output.stderr);
    assert!(progress.contains("hand-crafted"), "{progress}");
    let read = |path: &Path| cutoff::viri::read_games(&std::fs::read(path).unwrap()).unwrap();
    assert_ne!(
        read(&with_net),
        read(&classical),
        "the network changed no game"
    );

    let damaged = dir.join("damaged.nnue");
    std::fs::write(&damaged, b"CUTOFFNN but then nothing").unwrap();
    let output = cutoff(&[
        "datagen",
        "--games",
        "1",
        "--nodes",
        "100",
        "--out",
        "x.viri",
        "--net",
        damaged.to_str().unwrap(),
    ]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("damaged.nnue"));
}
