//! Tests of the tuner: the model against the engine's evaluation, the gradient against
//! finite differences, recovery of known weights from synthetic labels, the file format and
//! the command end to end; plus an ignored speed measurement.

use std::path::PathBuf;
use std::time::Instant;

use cozy_chess::Board;

use crate::bench_positions::BENCH_POSITIONS;
use crate::cli::words;
use crate::eval::params::idx;
use crate::eval::{coefficients, Coefficients, ENTRIES, NUM_PARAMS, S, WEIGHTS};

use super::data::{Dataset, LineError};
use super::model::{self, sigmoid, to_float};
use super::optim::{fit_k, train, Problem, TrainConfig};
use crate::playouts::random_playouts;
use crate::rng::SplitMix64;

/// The start position and the bench positions.
fn start_boards() -> Vec<Board> {
    let mut boards = vec![Board::default()];
    boards.extend(
        BENCH_POSITIONS
            .iter()
            .map(|fen| Board::from_fen(fen, false).unwrap()),
    );
    boards
}

/// `count` varied legal positions: every position after the fourth ply of random legal
/// playouts (at most 60 plies) from [`start_boards`].
fn playout_boards(count: usize, seed: u64) -> Vec<Board> {
    random_playouts(&start_boards(), count, seed, 60, 4)
}

/// A data set of `boards`, labelled by `label(coefficients) -> (score, result)`.
fn dataset(boards: &[Board], mut label: impl FnMut(&Coefficients) -> (f32, f32)) -> Dataset {
    let mut data = Dataset::new();
    for board in boards {
        let coeffs = coefficients(board);
        let (score, result) = label(&coeffs);
        data.push(&coeffs, score, result).unwrap();
    }
    data
}

/// A path in the temp directory unique to this process and `name`.
fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("cutoff-tune-{}-{name}", std::process::id()))
}

/// The untruncated evaluation straight from `trace.rs`'s formula, written independently of
/// `model.rs` and its compact storage.
fn reference_eval(coeffs: &Coefficients, weights: &[[f64; 2]]) -> f64 {
    use crate::eval::params::{DANGER_EG_DIVISOR, DANGER_MG_DIVISOR};
    let dot = |terms: &[(usize, i32)], half: usize| -> f64 {
        terms
            .iter()
            .map(|&(i, n)| weights[i][half] * f64::from(n))
            .sum()
    };
    let penalty = |terms: &[(usize, i32)]| {
        let mg = dot(terms, 0).max(0.0);
        let eg = dot(terms, 1).max(0.0);
        [
            -mg * mg / f64::from(DANGER_MG_DIVISOR),
            -eg / f64::from(DANGER_EG_DIVISOR),
        ]
    };
    let mut total = [dot(&coeffs.linear, 0), dot(&coeffs.linear, 1)];
    for (side, sign) in [(0, 1.0), (1, -1.0)] {
        if coeffs.danger_applied[side] {
            let p = penalty(&coeffs.danger[side]);
            total[0] += sign * p[0];
            total[1] += sign * p[1];
        }
    }
    let phase = f64::from(coeffs.phase);
    (total[0] * phase + total[1] * (24.0 - phase)) * f64::from(coeffs.scale) / 3072.0
}

#[test]
fn model_eval_matches_the_engine() {
    let boards = playout_boards(3000, 7);
    let defaults = to_float(&WEIGHTS);
    let mut odd = to_float(&WEIGHTS);
    for (i, w) in odd.iter_mut().enumerate() {
        w[0] += (i % 7) as f64 - 3.3;
        w[1] -= (i % 5) as f64 - 1.7;
    }
    let mut with_danger = 0;
    let mut total_gap = 0.0;
    let all = start_boards().into_iter().chain(boards).collect::<Vec<_>>();
    for board in &all {
        let coeffs = coefficients(board);
        let mut data = Dataset::new();
        data.push(&coeffs, 0.0, 0.5).unwrap();
        let pos = data.position(0);
        // The model is the formula of trace.rs, for any weights.
        for weights in [&defaults, &odd] {
            let gap = model::eval(&pos, weights) - reference_eval(&coeffs, weights);
            assert!(gap.abs() < 1e-9, "{board}: model off the formula by {gap}");
        }
        // With the defaults it is the engine's evaluation up to the engine's truncations:
        // the final division (under 1 cp) and, where a danger gate applied, the two penalty
        // divisions (under 1 unit per half, so under scale / 128 cp once blended).
        let engine = crate::eval::evaluate_white(board, &WEIGHTS, &mut crate::eval::NoTrace);
        assert_eq!(coeffs.white_eval(&WEIGHTS), engine);
        let gap = (model::eval(&pos, &defaults) - f64::from(engine)).abs();
        let danger = coeffs.danger_applied.contains(&true);
        with_danger += usize::from(danger);
        let bound = if danger {
            1.0 + f64::from(coeffs.scale) / 128.0
        } else {
            1.0
        };
        assert!(gap < bound, "{board}: model and engine differ by {gap} cp");
        total_gap += gap;
    }
    assert!(
        with_danger > 100,
        "only {with_danger} positions test the danger model"
    );
    let mean_gap = total_gap / all.len() as f64;
    assert!(mean_gap < 0.75, "mean gap {mean_gap} cp");
}

/// Positions whose danger gate applies on some side, with material off the board (so the
/// endgame half of the danger penalty counts too).
fn danger_boards() -> Vec<Board> {
    playout_boards(2000, 11)
        .into_iter()
        .chain(start_boards())
        .filter(|b| {
            let c = coefficients(b);
            c.danger_applied.contains(&true) && c.phase <= 20
        })
        .take(24)
        .collect()
}

#[test]
fn gradient_matches_finite_differences() {
    let boards = danger_boards();
    assert!(boards.len() >= 12);
    let mut rng = SplitMix64::new(3);
    let data = dataset(&boards, |c| {
        let score = c.white_eval(&WEIGHTS) as f32 + 50.0;
        let result = [0.0, 0.5, 1.0][rng_index(c)];
        (score, result)
    });
    let problem = Problem::new(&data, 0.005, 0.3);
    // Away from the defaults, so no weight sits on a special value.
    let mut weights = to_float(&WEIGHTS);
    for w in &mut weights {
        w[0] += (rng.below(1000) as f64 - 500.0) / 100.0;
        w[1] += (rng.below(1000) as f64 - 500.0) / 100.0;
    }
    // The danger sums must be in their non-flat parts for the check to mean anything.
    let mut positive = [0; 2];
    for n in 0..data.len() {
        let pos = data.position(n);
        for terms in pos.danger {
            for (half, count) in positive.iter_mut().enumerate() {
                let units: f64 = terms
                    .iter()
                    .map(|t| weights[t.index as usize][half] * f64::from(t.count))
                    .sum();
                *count += usize::from(!terms.is_empty() && units > 0.0);
            }
        }
    }
    assert!(
        positive[0] >= 3 && positive[1] >= 3,
        "kings in danger: {positive:?}"
    );

    let all: Vec<u32> = (0..data.len() as u32).collect();
    let (grad, loss) = problem.gradient(&weights, &all, 2);
    assert!((loss - problem.loss(&weights, 1)).abs() < 1e-12);
    let checked = [
        idx::MATERIAL + 1,
        idx::PST_PAWN + 12,
        idx::MOBILITY_KNIGHT + 4,
        idx::SHELTER_PAWN,
        idx::TEMPO,
        idx::DANGER_ATTACKER + 1,
        idx::DANGER_ZONE_ATTACK,
        idx::DANGER_WEAK_SQUARE,
        idx::DANGER_OFFSET,
    ];
    let h = 1e-3;
    for &i in &checked {
        for half in 0..2 {
            let mut plus = weights.clone();
            plus[i][half] += h;
            let mut minus = weights.clone();
            minus[i][half] -= h;
            let numeric = (problem.loss(&plus, 1) - problem.loss(&minus, 1)) / (2.0 * h);
            let analytic = grad[i][half];
            let name = crate::eval::name(i);
            assert!(
                (numeric - analytic).abs() <= 1e-6 * numeric.abs().max(analytic.abs()) + 1e-12,
                "{name}[{half}]: analytic {analytic:e}, numeric {numeric:e}"
            );
            if i >= idx::DANGER_ATTACKER {
                assert!(analytic.abs() > 1e-8, "{name}: danger gradient is zero");
            }
        }
    }
}

/// A deterministic 0..3 from a position's coefficients, to vary the results.
fn rng_index(c: &Coefficients) -> usize {
    (c.linear.len() + c.phase as usize) % 3
}

#[test]
fn fit_k_recovers_the_labelling_scale() {
    let boards = playout_boards(2000, 5);
    let defaults = to_float(&WEIGHTS);
    let k0 = 0.0061;
    let mut data = Dataset::new();
    for board in &boards {
        let coeffs = coefficients(board);
        data.push(&coeffs, 0.0, 0.5).unwrap();
    }
    let soft: Vec<(f64, f64)> = Problem::eval_result_pairs(&data, &defaults, data.len())
        .into_iter()
        .map(|(e, _)| (e, sigmoid(k0, e)))
        .collect();
    let k = fit_k(&soft, 2);
    assert!(
        (k / k0 - 1.0).abs() < 1e-3,
        "fitted K {k}, labelled with {k0}"
    );
}

#[test]
fn tuning_recovers_changed_weights() {
    let changes = [
        (idx::MATERIAL + 1, S(-40, -40)),
        (idx::MATERIAL + 3, S(0, 30)),
        (idx::MOBILITY_ROOK + 7, S(20, -15)),
        (idx::TEMPO, S(15, 10)),
    ];
    let mut truth = WEIGHTS;
    for &(i, delta) in &changes {
        truth[i] += delta;
    }
    let k = 0.006;
    let boards = playout_boards(4000, 1);
    let data = dataset(&boards, |c| {
        let eval = c.white_eval(&truth);
        (eval as f32, sigmoid(k, f64::from(eval)) as f32)
    });
    let problem = Problem::new(&data, k, 0.5);
    // Train the changed weights and a few unchanged ones, which must stay put.
    let steady = [
        idx::MATERIAL + 2,
        idx::PIECE_BISHOP_PAIR,
        idx::MOBILITY_KNIGHT + 4,
    ];
    let mut trainable = vec![false; NUM_PARAMS];
    for i in changes.iter().map(|c| c.0).chain(steady) {
        trainable[i] = true;
    }
    let start = to_float(&WEIGHTS);
    let config = TrainConfig {
        epochs: 60,
        batch_size: 512,
        learning_rate: 2.0,
        decay: 0.95,
        seed: 9,
        threads: 2,
        l2: 0.0,
    };
    let before = problem.loss(&start, 2);
    let mut last = f64::NAN;
    let tuned = train(&problem, &start, Some(&trainable), &config, |r| {
        last = r.loss;
    });
    let after = problem.loss(&tuned, 2);
    assert_eq!(after, last);
    assert!(after < before / 50.0, "loss {before:e} -> {after:e}");
    for (i, w) in tuned.iter().enumerate() {
        let expected = if trainable[i] { truth[i] } else { WEIGHTS[i] };
        let name = crate::eval::name(i);
        for half in 0..2 {
            let want = f64::from([expected.0, expected.1][half]);
            let tolerance = if trainable[i] { 3.0 } else { 0.0 };
            assert!(
                (w[half] - want).abs() <= tolerance,
                "{name}[{half}]: tuned {}, true {want}",
                w[half]
            );
        }
    }
}

#[test]
fn training_is_deterministic() {
    let boards = playout_boards(600, 2);
    let data = dataset(&boards, |c| (c.white_eval(&WEIGHTS) as f32 * 0.8, 0.5));
    let problem = Problem::new(&data, 0.006, 0.5);
    let config = TrainConfig {
        epochs: 2,
        batch_size: 100,
        threads: 2,
        ..TrainConfig::default()
    };
    let start = to_float(&WEIGHTS);
    let a = train(&problem, &start, None, &config, |_| {});
    let b = train(&problem, &start, None, &config, |_| {});
    assert_eq!(a, b);
    assert_ne!(a, start);
}

#[test]
fn held_out_positions_pick_the_epoch_and_stay_out_of_training() {
    let boards = playout_boards(800, 3);
    let k = 0.006;
    let (mut truth, mut contrary) = (WEIGHTS, WEIGHTS);
    truth[idx::MATERIAL + 1] += S(-60, -60);
    contrary[idx::MATERIAL + 1] += S(60, 60);
    // The first three quarters lower the knight's value; the held-out tail raises it, so
    // the more the training learns, the worse the held-out loss gets.
    let mut n = 0;
    let data = dataset(&boards, |c| {
        n += 1;
        let eval = c.white_eval(if n <= 600 { &truth } else { &contrary });
        (eval as f32, sigmoid(k, f64::from(eval)) as f32)
    });
    let problem = Problem::new(&data, k, 0.0).hold_out(0.25);
    assert_eq!((problem.training_len(), problem.held_out_len()), (600, 200));
    let config = TrainConfig {
        epochs: 8,
        batch_size: 100,
        learning_rate: 2.0,
        threads: 2,
        ..TrainConfig::default()
    };
    let start = to_float(&WEIGHTS);
    let mut reports = Vec::new();
    let tuned = train(&problem, &start, None, &config, |r| reports.push(*r));
    let first = reports[0].loss;
    let last = reports[reports.len() - 1].loss;
    assert!(last < first, "training loss {first} -> {last}");
    let mut lowest = f64::INFINITY;
    for r in &reports {
        let held_out = r.held_out.unwrap();
        assert_eq!(r.kept, held_out < lowest, "epoch {}", r.epoch);
        lowest = lowest.min(held_out);
    }
    assert_eq!(problem.held_out_loss(&tuned, 2), Some(lowest));
    assert!(
        reports.iter().any(|r| !r.kept),
        "the held-out loss never rose"
    );
    // The held-out tail never reaches the optimiser: training on the first 600 alone
    // follows the same path, epoch by epoch.
    let head = dataset(&boards[..600], |c| {
        let eval = c.white_eval(&truth);
        (eval as f32, sigmoid(k, f64::from(eval)) as f32)
    });
    let alone = Problem::new(&head, k, 0.0);
    assert_eq!(alone.held_out_loss(&start, 2), None);
    let mut losses = Vec::new();
    train(&alone, &start, None, &config, |r| {
        assert!(r.kept);
        losses.push(r.loss);
    });
    assert_eq!(losses, reports.iter().map(|r| r.loss).collect::<Vec<_>>());
}

#[test]
fn l2_pull_holds_weights_towards_their_start() {
    let boards = playout_boards(800, 4);
    let k = 0.006;
    let knight = idx::MATERIAL + 1;
    let mut truth = WEIGHTS;
    truth[knight] += S(-60, -60);
    let data = dataset(&boards, |c| {
        let eval = c.white_eval(&truth);
        (eval as f32, sigmoid(k, f64::from(eval)) as f32)
    });
    let problem = Problem::new(&data, k, 0.0);
    let mut trainable = vec![false; NUM_PARAMS];
    trainable[knight] = true;
    let start = to_float(&WEIGHTS);
    let moved = |l2: f64| {
        let config = TrainConfig {
            epochs: 40,
            batch_size: 100,
            learning_rate: 2.0,
            threads: 2,
            l2,
            ..TrainConfig::default()
        };
        let tuned = train(&problem, &start, Some(&trainable), &config, |_| {});
        start[knight][0] - tuned[knight][0]
    };
    let (free, held, pinned) = (moved(0.0), moved(1e-7), moved(1e-2));
    assert!(
        (free - 60.0).abs() < 3.0,
        "without a pull the knight moved {free}"
    );
    assert!(
        held > 5.0 && held < free - 5.0,
        "a mild pull moved it {held}"
    );
    assert!(pinned.abs() < 2.0, "a strong pull moved it {pinned}");
}

#[test]
fn data_lines_parse_and_bad_lines_are_named_and_skipped() {
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    let good = format!("{fen} | 35 | 0.5");
    let text = format!("# comment\n\n{good}\n{good}\n");
    let (data, bad) = Dataset::parse(&text, 2).unwrap();
    assert!(bad.is_empty(), "{bad:?}");
    assert_eq!(data.len(), 2);
    let pos = data.position(1);
    assert_eq!((pos.score, pos.result, pos.phase), (35.0, 0.5, 24));

    let parse = |line: &str| super::data::parse_line(line).map(|_| ());
    assert_eq!(parse(fen), Err(LineError::FieldCount(1)));
    assert!(matches!(
        parse("8/8/8 w - - | 1 | 1.0"),
        Err(LineError::Fen(_))
    ));
    assert_eq!(
        parse(&format!("{fen} | 1.5 | 1.0")),
        Err(LineError::Score("1.5".into()))
    );
    assert_eq!(
        parse(&format!("{fen} | 1 | 0.7")),
        Err(LineError::Result("0.7".into()))
    );
    assert_eq!(parse(&format!("{fen} | -12 | 1")), Ok(()));

    // Several bad lines, several threads: each is reported, in line order, and skipped.
    let mut lines = vec![good.clone(); 40];
    lines[5] = format!("{fen} | 12 | win");
    lines[30] = "garbage".to_string();
    let (data, bad) = Dataset::parse(&lines.join("\n"), 3).unwrap();
    assert_eq!(data.len(), 38);
    let numbers: Vec<usize> = bad.iter().map(|b| b.line).collect();
    assert_eq!(numbers, [6, 31]);
    assert_eq!(bad[0].error, LineError::Result("win".into()));
    assert!(
        bad[0].to_string().contains("line 6") && bad[0].to_string().contains("'win'"),
        "{}",
        bad[0]
    );

    // A file with a malformed line and bytes that are not UTF-8: both lines are skipped,
    // the two good ones kept.
    let path = temp_path("malformed.txt");
    let mut bytes = format!("{good}\n# note\n{good}\n{fen} | x | 1.0\n").into_bytes();
    bytes.extend_from_slice(b"\xff\xfe | 1 | 0.5\n");
    std::fs::write(&path, bytes).unwrap();
    let loaded = Dataset::load(&path, 2);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(loaded.unwrap().len(), 2);
}

#[test]
fn main_tunes_a_file_and_writes_params() {
    let data_path = temp_path("data.txt");
    let out_path = temp_path("params.rs");
    let mut text = String::from("# FEN | score | result\n");
    for (n, board) in start_boards().iter().enumerate() {
        let score = crate::eval::evaluate_white(board, &WEIGHTS, &mut crate::eval::NoTrace);
        let result = ["1.0", "0.5", "0.0"][n % 3];
        text.push_str(&format!("{board} | {score} | {result}\n"));
    }
    std::fs::write(&data_path, text).unwrap();
    let args = format!(
        "--data {} --out {} --epochs 3 --batch 16 --threads 2 --lr 2",
        data_path.display(),
        out_path.display()
    );
    let outcome = super::main(&words(&args));
    let written = std::fs::read_to_string(&out_path);
    std::fs::remove_file(&data_path).unwrap();
    let _ = std::fs::remove_file(&out_path);
    outcome.unwrap();
    let source = written.unwrap();

    assert!(source.contains("params! {"));
    for entry in ENTRIES {
        assert!(
            source.contains(&format!("    {}: ", entry.name)),
            "{}",
            entry.name
        );
    }
    // Read the weights back: every `S(mg, eg)` outside doc comments, in order.
    let table = &source[source.find("params! {").unwrap()..];
    let mut values = Vec::new();
    for line in table.lines().filter(|l| !l.trim_start().starts_with("//")) {
        for cell in line.split("S(").skip(1) {
            let inside = &cell[..cell.find(')').unwrap()];
            let (mg, eg) = inside.split_once(',').unwrap();
            values.push(S(mg.trim().parse().unwrap(), eg.trim().parse().unwrap()));
        }
    }
    assert_eq!(values.len(), NUM_PARAMS);
    let moved = values
        .iter()
        .zip(WEIGHTS.iter())
        .filter(|(a, b)| a != b)
        .count();
    assert!(moved > 10, "only {moved} weights moved");
    // Weights the data never uses stay as they were (the king's material is always 0 - 0).
    assert_eq!(values[idx::MATERIAL + 5], WEIGHTS[idx::MATERIAL + 5]);
}

#[test]
fn bad_flags_are_refused() {
    let run = |args: &str| super::main(&words(args)).unwrap_err().to_string();
    assert!(run("").contains("--data"));
    assert!(run("--data x --lambda 2").contains("--lambda"));
    assert!(run("--data x --threads 0").contains("--threads"));
    assert!(run("--data x --threads 1000000").contains("--threads"));
    assert!(run("--data /dev/zero").contains("not a regular file"));
    assert!(run("--data x --holdout 1").contains("--holdout"));
    assert!(run("--data x --bogus 1").contains("--bogus"));
    let one = temp_path("one.txt");
    std::fs::write(
        &one,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 20 | 0.5\n",
    )
    .unwrap();
    let message = run(&format!("--data {} --holdout 0.9", one.display()));
    std::fs::remove_file(&one).unwrap();
    assert!(message.contains("no positions to train on"), "{message}");
    let missing = temp_path("missing.txt");
    let message = run(&format!("--data {}", missing.display()));
    assert!(
        message.contains(&missing.display().to_string()),
        "{message}"
    );
}

/// Load and epoch speed on 100k synthetic positions: `cargo test --release --lib
/// tune::tests::speed -- --ignored --nocapture`.
#[test]
#[ignore]
fn speed_per_100k_positions() {
    let started = Instant::now();
    let boards = playout_boards(100_000, 17);
    let path = temp_path("speed.txt");
    let mut text = String::new();
    for board in &boards {
        let score = crate::eval::evaluate_white(board, &WEIGHTS, &mut crate::eval::NoTrace);
        let result = sigmoid(0.006, f64::from(score));
        let result = if result > 0.6 {
            "1.0"
        } else if result < 0.4 {
            "0.0"
        } else {
            "0.5"
        };
        text.push_str(&format!("{board} | {score} | {result}\n"));
    }
    std::fs::write(&path, text).unwrap();
    eprintln!("generated in {:.2} s", started.elapsed().as_secs_f64());
    for threads in [1, 2] {
        let started = Instant::now();
        let data = Dataset::load(&path, threads).unwrap();
        eprintln!(
            "load, {threads} thread(s): {:.2} s, {} bytes per position",
            started.elapsed().as_secs_f64(),
            data.bytes() / data.len()
        );
        let problem = Problem::new(&data, 0.006, 0.5);
        let config = TrainConfig {
            epochs: 1,
            threads,
            ..TrainConfig::default()
        };
        train(&problem, &to_float(&WEIGHTS), None, &config, |r| {
            eprintln!("epoch, {threads} thread(s): {:.3} s", r.seconds);
        });
    }
    std::fs::remove_file(&path).unwrap();
}
