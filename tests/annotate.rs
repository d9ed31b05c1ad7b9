//! `cutoff annotate`: runs the real binary over the small PGN files of
//! `tests/data/annotate` (a mixed file, two tactical games, a self-play game made by
//! Cutoff at 200,000 nodes a move) and checks the marks, the evaluations and the JSON.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

mod common;

/// A file of `tests/data/annotate`.
fn data(name: &str) -> String {
    format!("{}/tests/data/annotate/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn annotate(args: &[&str]) -> Output {
    Command::new(common::binary())
        .arg("annotate")
        .args(args)
        .output()
        .expect("cannot run cutoff")
}

/// stdout of a run that must succeed.
fn stdout_of(args: &[&str]) -> String {
    let output = annotate(args);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{args:?} failed: {stderr}");
    String::from_utf8(output.stdout).unwrap()
}

/// The JSON objects of a `--json` run, one per game.
fn json_games(args: &[&str]) -> Vec<Value> {
    let mut args = args.to_vec();
    args.push("--json");
    stdout_of(&args)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

/// The move of `game` at `ply` (1 for the first move).
fn ply(game: &Value, ply: usize) -> &Value {
    &game["moves"][ply - 1]
}

/// The `[%eval ...]` values of a PGN text, in order.
fn pgn_evals(pgn: &str) -> Vec<String> {
    pgn.split("[%eval ")
        .skip(1)
        .map(|rest| rest.split(']').next().unwrap().to_string())
        .collect()
}

#[test]
fn python_chess_reads_the_output_of_a_mixed_file() {
    let dir: PathBuf = common::temp_dir("annotate", "mixed");
    let out = dir.join("out.pgn");
    let input = data("mixed.pgn");
    let output = annotate(&[&input, "--nodes", "2000", "--out", out.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert!(output.status.success(), "{stderr}");
    assert!(output.stdout.is_empty());
    // The broken game is named with its ply and token, and kept up to it.
    assert!(
        stderr.contains("game 4") && stderr.contains("ply 7"),
        "{stderr}"
    );
    assert!(stderr.contains("Qxh8"), "{stderr}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.matches("[Event ").count(), 5, "{text}");
    let broken = text.split("[Event \"Broken\"]").nth(1).unwrap();
    assert!(
        broken.contains("3... Nf6"),
        "the broken game keeps its moves: {text}"
    );
    assert!(
        broken.contains("The annotation stops here: game 4"),
        "{text}"
    );

    let has_python_chess = Command::new("python3")
        .args(["-c", "import chess.pgn"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if !has_python_chess {
        eprintln!(
            "SKIPPED: python-chess is not installed (pip install chess); .ci/run installs it"
        );
        std::fs::remove_dir_all(&dir).unwrap();
        return;
    }
    let check = format!("{}/tests/annotate_check.py", env!("CARGO_MANIFEST_DIR"));
    let checked = Command::new("python3")
        .args([&check, &input, out.to_str().unwrap()])
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    // stderr carries python-chess's own complaint about the input's illegal move.
    let report = String::from_utf8_lossy(&checked.stdout).to_string();
    let errors = String::from_utf8_lossy(&checked.stderr);
    assert!(checked.status.success(), "{report}{errors}\n{text}");
    assert_eq!(report.trim(), "ok 5 games", "{errors}");
}

#[test]
fn a_queen_left_en_prise_is_a_blunder_with_the_capture_as_the_better_line() {
    let args = [&data("tactics.pgn") as &str, "--nodes", "20000"];
    let games = json_games(&args);
    let game = &games[0];
    // 2... Qg5 puts Black's queen en prise; 3. Nf3 leaves it there (and White's own
    // queen to 3... Qxh5).
    assert_eq!(ply(game, 4)["san"], "Qg5");
    assert_eq!(ply(game, 4)["class"], "blunder", "{game}");
    let missed = ply(game, 5);
    assert_eq!(missed["san"], "Nf3");
    assert_eq!(missed["class"], "blunder", "{game}");
    assert_eq!(missed["best"], "Qxg5");
    assert_eq!(missed["pv"][0], "h5g5");
    assert_eq!(game["white"]["blunders"], 1);
    let pgn = stdout_of(&args);
    assert!(pgn.contains("3. Nf3?? {"), "{pgn}");
    assert!(pgn.contains("( 3. Qxg5 "), "{pgn}");
}

#[test]
fn a_forced_reply_is_never_marked() {
    // 1. Qg8+ Rxg8 (the only legal move) 2. Nf7#. At depth 1 the search before the reply
    // does not see the smothered mate, the search after it does: by its scores the
    // reply drops Black's expected score from a won position to a lost one.
    let games = json_games(&[&data("tactics.pgn"), "--depth", "1"]);
    let reply = ply(&games[1], 2);
    assert_eq!(reply["san"], "Rxg8");
    assert_eq!(reply["forced"], true);
    assert!(reply["drop"].as_f64().unwrap() >= 30.0, "{reply}");
    assert_eq!(reply["class"], Value::Null, "{reply}");
}

/// A game of a strong search's moves (Cutoff's own at four times the nodes) holds no
/// mistake or blunder. An inaccuracy (`?!`, 10 points of winning chance) is within what
/// two searches of 50,000 and 200,000 nodes, or two versions of the search, disagree on:
/// at most one is allowed.
#[test]
fn a_game_of_best_moves_gets_no_question_mark() {
    let args = [&data("selfplay.pgn") as &str, "--nodes", "50000"];
    let pgn = stdout_of(&args);
    let movetext = pgn.split("\n\n").nth(1).unwrap();
    // Outside the comments (the summary counts `?!`, `?`, `??`), no move is marked but
    // for at most one inaccuracy.
    let outside: String = movetext
        .split('{')
        .map(|part| part.split_once('}').map_or(part, |(_, after)| after))
        .collect();
    let inaccuracies = outside.matches("?!").count();
    assert!(inaccuracies <= 1, "{pgn}");
    assert_eq!(outside.matches('?').count(), inaccuracies, "{pgn}");
    assert_eq!(pgn_evals(&pgn).len(), 50, "{pgn}");
    assert!(pgn.contains("White: accuracy"), "{pgn}");
}

#[test]
fn the_same_run_gives_the_same_output_and_json_has_the_pgn_evaluations() {
    let args = [
        &data("mixed.pgn") as &str,
        "--nodes",
        "3000",
        "--threads",
        "1",
    ];
    let first = stdout_of(&args);
    assert_eq!(first, stdout_of(&args));
    let games = json_games(&args);
    let json_evals: Vec<String> = games
        .iter()
        .flat_map(|game| game["moves"].as_array().unwrap().clone())
        .filter_map(|m| m["eval_text"].as_str().map(str::to_string))
        .collect();
    assert_eq!(pgn_evals(&first), json_evals);
    // The JSON's numbers say the same as its text: `0.35` is `{"cp": 35}`.
    for m in games.iter().flat_map(|g| g["moves"].as_array().unwrap()) {
        let (eval, text) = (&m["eval"], m["eval_text"].as_str());
        match (eval["cp"].as_i64(), eval["mate"].as_i64(), text) {
            (Some(cp), None, Some(text)) => {
                assert_eq!(format!("{:.2}", cp as f64 / 100.0), text);
            }
            (None, Some(0), None) => {}
            (None, Some(mate), Some(text)) => assert_eq!(format!("#{mate}"), text),
            _ => panic!("{m}"),
        }
    }
}

#[test]
fn reads_standard_input_and_refuses_an_unreadable_file() {
    let mut child = Command::new(common::binary())
        .args(["annotate", "-", "--nodes", "1000"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pgn = "[Event \"stdin\"]\n[Result \"*\"]\n\n1. e4 e5 *\n";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(pgn.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.starts_with("[Event \"stdin\"]\n[Result \"*\"]\n\n{ Cutoff"),
        "{text}"
    );
    assert_eq!(pgn_evals(&text).len(), 2, "{text}");

    let missing = annotate(&["no-such-file.pgn"]);
    assert!(!missing.status.success());
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert!(stderr.contains("no-such-file.pgn"), "{stderr}");
}

/// A tag given twice is one key of the JSON headers, with its first value (as the PGN
/// reader's `tag` gives it): parsers differ on which value of a repeated key they keep.
#[test]
fn a_repeated_tag_is_one_json_key() {
    let dir = common::temp_dir("annotate", "repeated");
    let path = dir.join("repeated.pgn");
    std::fs::write(
        &path,
        "[Event \"first\"]\n[Event \"second\"]\n\n1. e4 e5 *\n",
    )
    .unwrap();
    let text = stdout_of(&[path.to_str().unwrap(), "--nodes", "200", "--json"]);
    assert_eq!(text.matches("\"Event\":").count(), 1, "{text}");
    let game: Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(game["headers"]["Event"], "first", "{text}");
}

/// The output reads back as the same games: a `Result` tag that is no result (the review
/// ends the movetext with `*` instead of its text, which opened a comment that ran into
/// the next game) and a tag value holding an escaped line break (written as a space,
/// since a tag value ends with its line).
#[test]
fn odd_tags_do_not_merge_the_games_of_the_output() {
    let dir = common::temp_dir("annotate", "odd-tags");
    let path = dir.join("odd.pgn");
    let out = dir.join("out.pgn");
    std::fs::write(
        &path,
        "[Event \"a\\\nb\"]\n[Result \"{oops\"]\n\n1. e4 e5\n\n\
         [Event \"second\"]\n[Result \"1-0\"]\n\n1. d4 d5 1-0\n",
    )
    .unwrap();
    let args = [path.to_str().unwrap(), "--nodes", "200", "--out"];
    stdout_of(&[&args[..], &[out.to_str().unwrap()]].concat());
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("[Event \"a b\"]"), "{text}");
    let again = json_games(&[out.to_str().unwrap(), "--nodes", "200"]);
    assert_eq!(again.len(), 2, "{text}");
    assert_eq!(again[0]["headers"]["Event"], "a b", "{text}");
    assert_eq!(again[1]["headers"]["Event"], "second", "{text}");
}

/// A run refused before its first search (here for tablebases that are not there)
/// leaves an existing `--out` file as it was.
#[test]
fn a_refused_run_leaves_the_output_file_alone() {
    let dir = common::temp_dir("annotate", "refused");
    let out = dir.join("kept.pgn");
    std::fs::write(&out, "precious\n").unwrap();
    let output = annotate(&[
        &data("tactics.pgn"),
        "--out",
        out.to_str().unwrap(),
        "--syzygy",
        dir.join("no-such-folder").to_str().unwrap(),
    ]);
    assert!(!output.status.success());
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "precious\n");
}
