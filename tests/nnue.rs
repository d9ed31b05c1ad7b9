//! The `EvalFile` option and the `eval` command against the real `cutoff` binary: a
//! network file written here (random weights, the documented format) is loaded and used
//! by `eval` and by searches; missing, truncated and foreign files are refused with an
//! error and the current evaluation kept.

mod common;

use std::time::Duration;

use common::{is_error, parse_bestmove, temp_dir, EngineProcess};
use cutoff::nnue::file::{Inputs, NetworkParams, INPUTS};
use cutoff::rng::SplitMix64;

const TIMEOUT: Duration = Duration::from_secs(30);

/// A network with random weights in the trainer's ranges and 8 output buckets, as file
/// bytes.
fn random_network_bytes(hidden: usize, seed: u64) -> Vec<u8> {
    random_network_bytes_with(hidden, seed, Inputs::Plain)
}

fn random_network_bytes_with(hidden: usize, seed: u64, inputs: Inputs) -> Vec<u8> {
    let mut rng = SplitMix64::new(seed);
    let mut values = |n: usize, range: i32| -> Vec<i16> {
        (0..n)
            .map(|_| (rng.below(2 * range as usize + 1) as i32 - range) as i16)
            .collect()
    };
    let buckets = 8;
    NetworkParams {
        hidden,
        buckets,
        inputs,
        activation: Default::default(),
        quant: Default::default(),
        feature_weights: values(INPUTS * hidden, 200),
        feature_bias: values(hidden, 200),
        output_weights: values(buckets * 2 * hidden, 127),
        output_bias: vec![0; buckets],
    }
    .to_bytes()
}

/// The `Final evaluation` line's centipawns after `eval`.
fn final_evaluation(engine: &mut EngineProcess) -> String {
    engine.send("eval");
    let lines = engine.sync();
    match lines.iter().find(|l| l.starts_with("Final evaluation:")) {
        Some(line) => line.clone(),
        None => engine.fail(&format!("no final evaluation line in {lines:?}")),
    }
}

/// The last `score cp N` of a fresh depth-3 search of the opening position these tests
/// use (`ucinewgame` first, so that no table entry of an earlier search takes part): the
/// search's verdict, which follows the evaluation in use.
fn search_score(engine: &mut EngineProcess) -> i32 {
    engine.send("ucinewgame");
    engine.send("position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    engine.send("go depth 3");
    let lines = engine.read_until_bestmove(TIMEOUT);
    if lines.last().and_then(|l| parse_bestmove(l)).is_none() {
        engine.fail(&format!("no bestmove: {lines:?}"));
    }
    let score = lines.iter().rev().find_map(|line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.windows(2).position(|w| w == ["score", "cp"])?;
        words.get(at + 2)?.parse().ok()
    });
    match score {
        Some(cp) => cp,
        None => engine.fail(&format!("no `score cp` in {lines:?}")),
    }
}

#[test]
fn eval_file_loads_a_network_that_eval_and_search_use() {
    let dir = temp_dir("nnue", "load");
    let path = dir.join("random.nnue");
    std::fs::write(&path, random_network_bytes(32, 1)).unwrap();
    let mut engine = EngineProcess::start();
    let built_in_search = search_score(&mut engine);
    engine.send("position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let classical = final_evaluation(&mut engine);
    engine.send(&format!("setoption name EvalFile value {}", path.display()));
    let answer = engine.sync();
    if answer.len() != 1 || !answer[0].contains("32 hidden units") {
        engine.fail(&format!("expected the network's report, got {answer:?}"));
    }
    engine.send("eval");
    let report = engine.sync();
    if !report.iter().any(|l| l.starts_with("NNUE: 768 -> 32")) {
        engine.fail(&format!("eval does not show the network: {report:?}"));
    }
    let network = final_evaluation(&mut engine);
    assert_ne!(
        classical, network,
        "the network's verdict equals the classical one"
    );

    // The mirrored position (colours swapped, ranks flipped) gets exactly the opposite
    // verdict from White's view.
    engine.send("position fen rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3");
    let mirrored = final_evaluation(&mut engine);
    let cp = |line: &str| -> i32 { line.split_whitespace().nth(2).unwrap().parse().unwrap() };
    assert_eq!(cp(&network), -cp(&mirrored), "{network} / {mirrored}");

    // The search follows the loaded network: a random net's verdict is not the built-in's.
    let network_search = search_score(&mut engine);
    assert_ne!(
        network_search, built_in_search,
        "the search ignores EvalFile"
    );

    // <empty> returns to the built-in evaluation.
    engine.send("setoption name EvalFile value <empty>");
    assert!(engine.sync().is_empty());
    engine.send("position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    assert_eq!(final_evaluation(&mut engine), classical);
    assert_eq!(search_score(&mut engine), built_in_search);
}

/// A net whose sides see the board mirrored when their king is on files a-d: loaded,
/// reported, symmetric under the colour flip, and searched with (the king crosses the
/// middle in the searched lines).
#[test]
fn eval_file_loads_a_king_mirrored_network() {
    let dir = temp_dir("nnue", "mirrored");
    let path = dir.join("mirrored.nnue");
    std::fs::write(
        &path,
        random_network_bytes_with(32, 5, Inputs::KingMirrored),
    )
    .unwrap();
    let mut engine = EngineProcess::start();
    engine.send(&format!("setoption name EvalFile value {}", path.display()));
    let answer = engine.sync();
    if answer.len() != 1 || !answer[0].contains("king-mirrored inputs") {
        engine.fail(&format!("expected the network's report, got {answer:?}"));
    }
    engine.send("position fen 2kr3r/ppp2ppp/2n5/8/8/5N2/PPP2PPP/R4RK1 w - - 0 12");
    engine.send("eval");
    let report = engine.sync();
    if !report.iter().any(|l| l.contains("king-mirrored inputs")) {
        engine.fail(&format!("eval does not show the input layout: {report:?}"));
    }
    let verdict = final_evaluation(&mut engine);
    engine.send("position fen r4rk1/ppp2ppp/5n2/8/8/2N5/PPP2PPP/2KR3R b - - 0 12");
    let flipped = final_evaluation(&mut engine);
    let cp = |line: &str| -> i32 { line.split_whitespace().nth(2).unwrap().parse().unwrap() };
    assert_eq!(cp(&verdict), -cp(&flipped), "{verdict} / {flipped}");
    engine.send("position fen 8/2p5/3k4/8/8/3K4/2P5/8 w - - 0 60");
    engine.send("go depth 8");
    let lines = engine.read_until_bestmove(TIMEOUT);
    assert!(
        lines.last().and_then(|l| parse_bestmove(l)).is_some(),
        "{lines:?}"
    );
}

#[test]
fn bad_network_files_are_refused_and_the_current_network_kept() {
    let dir = temp_dir("nnue", "bad");
    let good = dir.join("good.nnue");
    std::fs::write(&good, random_network_bytes(16, 2)).unwrap();
    let bytes = random_network_bytes(16, 3);
    let truncated = dir.join("truncated.nnue");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let foreign = dir.join("foreign.nnue");
    std::fs::write(&foreign, b"some other engine's network, not ours").unwrap();
    let mut flipped = bytes.clone();
    flipped[1000] ^= 0x40;
    let damaged = dir.join("damaged.nnue");
    std::fs::write(&damaged, &flipped).unwrap();

    let huge = dir.join("huge.nnue");
    std::fs::write(&huge, vec![0u8; cutoff::nnue::file::MAX_FILE_SIZE + 1]).unwrap();

    let mut engine = EngineProcess::start();
    engine.send(&format!("setoption name EvalFile value {}", good.display()));
    engine.sync();
    let before = final_evaluation(&mut engine);
    let mut bad_files = vec![
        (dir.join("missing.nnue"), ""),
        (truncated, "truncated"),
        (foreign, "not a Cutoff network"),
        (damaged, "checksum"),
        (huge, "larger than any network file"),
        (dir.clone(), "not a regular file"),
    ];
    // An endless device is refused at once, not read until the memory runs out.
    if std::path::Path::new("/dev/zero").exists() {
        bad_files.push(("/dev/zero".into(), "not a regular file"));
    }
    for (bad, why) in bad_files {
        engine.send(&format!("setoption name EvalFile value {}", bad.display()));
        let answer = engine.sync();
        if answer.len() != 1 || !is_error(&answer[0]) || !answer[0].contains(why) {
            engine.fail(&format!(
                "{}: expected one error ({why}), got {answer:?}",
                bad.display()
            ));
        }
        assert_eq!(final_evaluation(&mut engine), before, "{}", bad.display());
    }
    // A path of 100,000 characters gets one error line of bounded length.
    let long = "a".repeat(100_000);
    engine.send(&format!("setoption name EvalFile value /{long}"));
    let answer = engine.sync();
    assert_eq!(answer.len(), 1, "{}", answer.len());
    assert!(
        is_error(&answer[0]) && answer[0].contains(" characters)"),
        "{}",
        &answer[0][..200]
    );
    assert!(answer[0].len() < 1_100, "{} characters", answer[0].len());
    assert_eq!(final_evaluation(&mut engine), before);
}

#[test]
fn use_nnue_off_switches_eval_and_search_to_the_hand_crafted_evaluation() {
    let dir = temp_dir("nnue", "use");
    let path = dir.join("random.nnue");
    std::fs::write(&path, random_network_bytes(32, 4)).unwrap();
    let mut engine = EngineProcess::start();
    engine.send("uci");
    let lines = engine.read_until(|l| l == "uciok", TIMEOUT);
    assert!(
        lines
            .iter()
            .any(|l| l == "option name UseNNUE type check default true"),
        "{lines:?}"
    );
    engine.send("position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    engine.send(&format!("setoption name EvalFile value {}", path.display()));
    engine.sync();
    let network = final_evaluation(&mut engine);
    let network_search = search_score(&mut engine);

    engine.send("setoption name UseNNUE value false");
    assert!(engine.sync().is_empty());
    engine.send("eval");
    let report = engine.sync();
    if report.iter().any(|l| l.starts_with("NNUE")) {
        engine.fail(&format!(
            "UseNNUE false still shows the network: {report:?}"
        ));
    }
    let hand_crafted = final_evaluation(&mut engine);
    assert_ne!(network, hand_crafted);
    // The search follows: its verdict is no longer the network's.
    let hand_crafted_search = search_score(&mut engine);
    assert_ne!(
        hand_crafted_search, network_search,
        "the search ignores UseNNUE"
    );

    // The loaded network was kept and comes back.
    engine.send("setoption name UseNNUE value true");
    assert!(engine.sync().is_empty());
    assert_eq!(final_evaluation(&mut engine), network);
    assert_eq!(search_score(&mut engine), network_search);
}
