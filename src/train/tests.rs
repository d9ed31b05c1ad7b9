//! Tests of the trainer on data made here: random legal games scored by a known function.

use cozy_chess::{Board, Color, Piece};

use super::data::{load_bytes, Record, Scores, Split};
use super::export::{dequantise, export_bytes, quantise};
use super::model::{Network, Objective, Scratch};
use super::{train, TrainConfig};
use crate::cli::words;
use crate::nnue::file::{feature_index, NetworkParams};
use crate::position::legal_moves;
use crate::rng::SplitMix64;
use crate::viri::{GameResult, ViriGame};

/// White's material minus Black's, in centipawns (100 / 300 / 300 / 500 / 900).
fn material(board: &Board) -> i16 {
    let values = [100, 300, 300, 500, 900, 0];
    let side = |color| -> i16 {
        Piece::ALL
            .iter()
            .map(|&piece| values[piece as usize] * board.colored_pieces(color, piece).len() as i16)
            .sum()
    };
    side(Color::White) - side(Color::Black)
}

/// `count` random legal games of up to 160 plies from the start position, each ply scored
/// by [`material`], the result the sign of the final material; with every board seen.
pub(super) fn random_games(count: usize, seed: u64) -> (Vec<u8>, Vec<Board>) {
    let mut rng = SplitMix64::new(seed);
    let mut bytes = Vec::new();
    let mut boards = Vec::new();
    for _ in 0..count {
        let start = Board::default();
        let mut board = start.clone();
        let mut plies = Vec::new();
        for _ in 0..160 {
            let moves = legal_moves(&board);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            plies.push((mv, material(&board)));
            boards.push(board.clone());
            board.play_unchecked(mv);
        }
        let result = match material(&board) {
            m if m > 0 => GameResult::WhiteWins,
            m if m < 0 => GameResult::BlackWins,
            _ => GameResult::Draw,
        };
        ViriGame {
            start,
            result,
            plies,
        }
        .write_to(&mut bytes);
    }
    (bytes, boards)
}

pub(super) fn material_split(games: usize, seed: u64) -> Split {
    let (bytes, _) = random_games(games, seed);
    load_bytes(&bytes, 0.1, Scores::Raw).unwrap()
}

/// The error `sigmoid(out) − target` of one position computed independently in f64,
/// straight from the board.
fn reference_error(net: &Network, board: &Board, record: &Record, wdl: f64) -> f64 {
    let (h, buckets) = (net.hidden(), net.buckets());
    let p: Vec<f64> = net.params.iter().map(|&x| f64::from(x)).collect();
    let (weights, rest) = p.split_at(crate::nnue::file::INPUTS * h);
    let (bias, rest) = rest.split_at(h);
    let (ow, ob) = rest.split_at(buckets * 2 * h);
    // The 2..=32 pieces in equal bands, one per bucket.
    let pieces = board.occupied().len() as usize;
    let bucket = ((pieces - 2) * buckets / 32).min(buckets - 1);
    let ow = &ow[bucket * 2 * h..(bucket + 1) * 2 * h];
    let us = board.side_to_move();
    let mut out = ob[bucket];
    for (half, perspective) in [us, !us].into_iter().enumerate() {
        let mut acc = bias.to_vec();
        for color in [Color::White, Color::Black] {
            for piece in Piece::ALL {
                for square in board.colored_pieces(color, piece) {
                    let f = feature_index(perspective, color, piece, square);
                    for (a, w) in acc.iter_mut().zip(&weights[f * h..(f + 1) * h]) {
                        *a += w;
                    }
                }
            }
        }
        for (a, w) in acc.iter().zip(&ow[half * h..(half + 1) * h]) {
            let c = a.clamp(0.0, 1.0);
            out += c * c * w;
        }
    }
    let result = f64::from(record.result) / 2.0;
    let target = wdl * result + (1.0 - wdl) / (1.0 + (-f64::from(record.score) / 400.0).exp());
    let prediction = 1.0 / (1.0 + (-out).exp());
    prediction - target
}

/// The blocked passes give the per-position passes' loss and gradient (up to the rounding
/// of the output, summed in another order), with every backend this CPU runs, through
/// several groups (the last one partial), one and eight buckets, both input layouts, the
/// squared error and a higher power.
#[test]
fn blocked_gradients_agree_with_the_per_position_passes() {
    use super::blocked::{self, Block, Gradient, GroupScratch, Pass, BLOCK, GROUP};
    use crate::nnue::file::Inputs;
    use crate::nnue::simd::Backend;
    let records = material_split(12, 21).train;
    assert!(records.len() > 2 * GROUP && !records.len().is_multiple_of(GROUP));
    let hidden = 2 * BLOCK;
    for (inputs, buckets, power) in [(Inputs::Plain, 1, 2.0), (Inputs::KingMirrored, 8, 2.5)] {
        let mut net = Network::new(hidden, buckets, 7).with_inputs(inputs);
        let mut rng = SplitMix64::new(9);
        let start = net.bias_start();
        for p in &mut net.params[start..] {
            *p = (rng.unit() as f32 - 0.5) * 0.6;
        }
        let objective = Objective { wdl: 0.3, power };
        let scale = 1.0 / records.len() as f32;
        let mut expected = vec![0.0; net.params.len()];
        let expected_loss = net.add_gradient(
            &records,
            objective,
            scale,
            &mut expected,
            &mut Scratch::new(hidden),
        );
        let largest = expected.iter().fold(0.0f32, |m, g| m.max(g.abs()));
        let mut weights = vec![Block::default(); start / BLOCK];
        blocked::to_blocked(net.feature_weights(), &mut weights, hidden);
        let pass = Pass {
            net: &net,
            weights: &weights,
            objective,
            scale,
        };
        for backend in [Backend::Scalar, Backend::Avx2] {
            if !backend.is_supported() {
                eprintln!("{backend:?} not supported here: not checked");
                continue;
            }
            let mut grad = Gradient::new(&net);
            let mut scratch = GroupScratch::new(hidden);
            let loss = pass.add_gradient(backend, &records, &mut grad, &mut scratch);
            assert!(
                (loss - expected_loss).abs() < 1e-6 * expected_loss,
                "{backend:?}"
            );
            let mut flat = vec![0.0; net.params.len()];
            grad.write_flat(&mut flat, hidden);
            for (i, (g, e)) in flat.iter().zip(&expected).enumerate() {
                assert!(
                    (g - e).abs() <= 1e-4 * e.abs() + 1e-6 * largest,
                    "{backend:?} {inputs:?}: parameter {i}: {g} vs {e}"
                );
            }
            assert!(flat[..start].iter().any(|g| *g != 0.0));
        }
    }
}

#[test]
fn gradients_agree_with_finite_differences() {
    gradients_agree_with_finite_differences_at(2.0);
}

#[test]
fn gradients_of_a_higher_loss_power_agree_with_finite_differences() {
    gradients_agree_with_finite_differences_at(2.5);
}

/// The gradient of `|error|^power` against central differences of an f64 reference, and
/// the reported loss against the reference's squared error.
fn gradients_agree_with_finite_differences_at(power: f32) {
    let (bytes, _) = random_games(3, 11);
    let mut boards = Vec::new();
    let mut records = Vec::new();
    for game in crate::viri::read_games(&bytes).unwrap() {
        let result = game.result as u8;
        for (board, _, score) in game.positions().skip(10).step_by(9) {
            records.push(Record::new(&board, score, result));
            boards.push(board);
        }
    }
    assert!(records.len() >= 10);
    let mut net = Network::new(16, 8, 3);
    // Non-zero biases, so that units sit on both sides of the kinks.
    let mut rng = SplitMix64::new(5);
    let (start, end) = (net.bias_start(), net.params.len());
    for p in &mut net.params[start..end] {
        *p = (rng.unit() as f32 - 0.5) * 0.6;
    }
    let objective = Objective { wdl: 0.3, power };
    let mean_of = |net: &Network, power: f64| -> f64 {
        boards
            .iter()
            .zip(&records)
            .map(|(b, r)| reference_error(net, b, r, f64::from(objective.wdl)))
            .map(|error| error.abs().powf(power))
            .sum::<f64>()
            / records.len() as f64
    };
    let total = |net: &Network| mean_of(net, f64::from(power));
    let mut grad = vec![0.0; net.params.len()];
    let mut scratch = Scratch::new(16);
    let scale = 1.0 / records.len() as f32;
    let loss = net.add_gradient(&records, objective, scale, &mut grad, &mut scratch);
    assert!((loss / records.len() as f64 - mean_of(&net, 2.0)).abs() < 1e-5);

    // The positions go through more than one output bucket.
    let used_buckets = grad[net.output_bias_start()..]
        .iter()
        .filter(|g| **g != 0.0)
        .count();
    assert!(used_buckets >= 2, "only {used_buckets} bucket(s) used");

    // Every bias and output weight, and the feature weights of the first position's pieces.
    let mut checked: Vec<usize> = (start..end).collect();
    for &f in records[0].white_features() {
        for unit in [0, 5, 15] {
            checked.push(usize::from(f) * 16 + unit);
        }
    }
    let mut nonzero = 0;
    for index in checked {
        // Central differences on the f64 reference, with the parameter stepped in f64.
        let eps = 1e-3f32;
        let original = net.params[index];
        // The stepped parameter is an f32, so the step actually taken is measured.
        let shifted = |delta: f32| {
            let mut probe = net.clone();
            probe.params[index] = original + delta;
            (total(&probe), f64::from(probe.params[index]))
        };
        let (up, x_up) = shifted(eps);
        let (down, x_down) = shifted(-eps);
        let numeric = (up - down) / (x_up - x_down);
        let analytic = f64::from(grad[index]);
        if analytic.abs() > 1e-6 {
            nonzero += 1;
        }
        assert!(
            (numeric - analytic).abs() <= 1e-4 + 0.02 * numeric.abs(),
            "parameter {index}: analytic {analytic}, numeric {numeric}"
        );
    }
    assert!(nonzero > 40, "only {nonzero} non-zero gradients checked");
}

pub(super) fn quick_config(hidden: usize, epochs: usize) -> TrainConfig {
    TrainConfig {
        hidden,
        buckets: 1,
        inputs: crate::nnue::file::Inputs::Plain,
        epochs,
        lr: 0.01,
        final_lr: 0.01 * super::FINAL_LR_RATIO,
        wdl: 0.0,
        loss_power: super::DEFAULT_LOSS_POWER,
        threads: 2,
        seed: 9,
        batch: 256,
        anchor: 0.0,
        decay: super::DEFAULT_DECAY,
    }
}

/// Targets are `sigmoid(material / 400)` (wdl 0), a function of the features alone. The
/// best constant prediction has a loss equal to the targets' variance, and an untrained
/// or broken network does no better; the held-out games (never trained on) must come
/// below a tenth of it, which needs the net to have learnt the piece values. 32 units take
/// the per-position passes, 64 the blocked ones (`blocked.rs`), both on two threads; the
/// blocked ones also minimising the error to the power 2.5 (the held-out loss is still the
/// squared error).
#[test]
fn learns_material_on_held_out_games() {
    for (hidden, loss_power) in [(32, 2.0), (64, 2.0), (64, 2.5)] {
        assert_eq!(super::blocked::supports(hidden), hidden == 64);
        let mut split = material_split(300, 1);
        assert!(split.train.len() > 10_000 && split.held_out.len() > 500);
        let variance = super::constant_loss(&split.held_out, 0.0).unwrap();
        let mut last = None;
        let config = TrainConfig {
            loss_power,
            ..quick_config(hidden, 8)
        };
        train(&config, &mut split, |report, _| {
            last = report.held_out_loss;
        });
        let held_out = last.unwrap();
        assert!(
            held_out < 0.1 * variance,
            "{hidden} units, power {loss_power}: held-out loss {held_out}, target variance {variance}"
        );
    }
}

#[test]
fn the_hand_crafted_reference_is_measured_on_every_held_out_position() {
    let split = material_split(100, 3);
    assert_eq!(split.held_out_classical.len(), split.held_out.len());
    let reference = super::reference_loss(&split.held_out, &split.held_out_classical, 0.0).unwrap();
    let variance = super::constant_loss(&split.held_out, 0.0).unwrap();
    // The targets are material scores, which the hand-crafted evaluation mostly knows.
    assert!(
        reference.best < 0.5 * variance,
        "{reference:?} vs {variance}"
    );
    assert!(reference.best <= reference.as_is);

    // An evaluation that is exactly twice the targets' scores is perfect at divisor 800.
    let doubled: Vec<i16> = split.held_out.iter().map(|r| 2 * r.score).collect();
    let reference = super::reference_loss(&split.held_out, &doubled, 0.0).unwrap();
    assert_eq!(reference.best_divisor, 800.0);
    assert!(
        reference.best < 1e-9 && reference.as_is > 1e-4,
        "{reference:?}"
    );
}

/// The engine's own integer evaluation of the quantised network `params` (the inference
/// module's reference, computed from scratch), in centipawns for the side to move.
fn quantised_eval(params: &NetworkParams, board: &Board) -> i32 {
    let network = crate::nnue::Network::from_params(params).unwrap();
    crate::nnue::evaluate_fresh(&network, board)
}

/// The mean and worst absolute difference between the float evaluation of `net` and the
/// integer evaluation of `params` over `boards`, in centipawns.
fn eval_gap(net: &Network, params: &NetworkParams, boards: &[Board]) -> (f32, f32) {
    let mut worst = 0.0f32;
    let mut total = 0.0f32;
    for board in boards {
        let diff = (quantised_eval(params, board) as f32 - net.evaluate(board)).abs();
        worst = worst.max(diff);
        total += diff;
    }
    (total / boards.len() as f32, worst)
}

/// The integer evaluator computes exactly the float net of the rounded weights, up to its
/// two truncating divisions: `sum / QA` (under 1 / (QA·QB) of the output, 0.025 cp) and
/// the final one (under 1 cp).
#[test]
fn integer_evaluator_is_the_float_net_of_the_rounded_weights() {
    let mut split = material_split(100, 2);
    let config = TrainConfig {
        buckets: 8,
        ..quick_config(64, 3)
    };
    let net = train(&config, &mut split, |_, _| {});
    assert_eq!(net.buckets(), 8);
    let params = quantise(&net);
    let rounded = dequantise(&params);
    assert_eq!(quantise(&rounded), params);
    let (_, boards) = random_games(20, 3);
    let (mean, worst) = eval_gap(&rounded, &params, &boards);
    assert!(worst < 1.03, "mean {mean} cp, worst {worst} cp");
}

/// Splitting a one-bucket network into buckets copies its output layer into each: the
/// same function on every position, whatever its bucket.
#[test]
fn a_network_split_into_buckets_computes_the_same() {
    let mut split = material_split(40, 6);
    let one = train(&quick_config(32, 1), &mut split, |_, _| {});
    let eight = one.with_buckets(8);
    assert_eq!(eight.buckets(), 8);
    let (_, boards) = random_games(10, 8);
    let pieces: std::collections::BTreeSet<u32> =
        boards.iter().map(|b| b.occupied().len()).collect();
    assert!(pieces.len() > 8, "too few piece counts: {pieces:?}");
    for board in &boards {
        assert_eq!(one.evaluate(board), eight.evaluate(board), "{board}");
    }
}

#[test]
fn a_widened_network_computes_the_same_and_then_learns() {
    let mut split = material_split(40, 6);
    let narrow = train(&quick_config(32, 1), &mut split, |_, _| {}).with_buckets(8);
    let wide = narrow.widened(64, 3);
    assert_eq!(wide.hidden(), 64);
    assert_eq!(wide.buckets(), 8);
    let (_, boards) = random_games(10, 8);
    for board in &boards {
        let (a, b) = (narrow.evaluate(board), wide.evaluate(board));
        assert!((a - b).abs() < 1e-3, "{a} against {b} at {board}");
    }
    // The extra units have random feature weights, so that training moves them apart.
    let extra: Vec<f32> = wide.feature_weights()[..64]
        .iter()
        .skip(32)
        .copied()
        .collect();
    assert!(extra.iter().any(|&w| w != 0.0));
    assert!(extra.windows(2).any(|w| w[0] != w[1]));
}

/// Rounding costs some accuracy: output weights are multiples of 1/QB = 1/64, an error of
/// up to 1/128 each, times activations in [0, 1] summed over 2H units (and the
/// accumulators are multiples of 1/255). For this net (H = 64, trained briefly at a high
/// rate) that is a few centipawns on average; the bounds below are about twice the
/// observed gap, far below what a wrong scale or a swapped half would give (hundreds).
#[test]
fn quantised_net_agrees_with_float_net() {
    let mut split = material_split(100, 2);
    let net = train(&quick_config(64, 3), &mut split, |_, _| {});
    let params = quantise(&net);
    let (_, boards) = random_games(20, 3);
    let (mean, worst) = eval_gap(&net, &params, &boards);
    eprintln!("float vs quantised: mean {mean} cp, worst {worst} cp");
    assert!(
        mean < 10.0 && worst < 45.0,
        "mean {mean} cp, worst {worst} cp"
    );
}

#[test]
fn export_then_load_is_exact() {
    let mut split = material_split(30, 4);
    let net = train(&quick_config(32, 1), &mut split, |_, _| {});
    let bytes = export_bytes(&net);
    let loaded = NetworkParams::from_bytes(&bytes).unwrap();
    assert_eq!(loaded, quantise(&net));
}

#[test]
fn training_is_reproducible() {
    for hidden in [16, 64] {
        let config = quick_config(hidden, 2);
        let net_a = train(&config, &mut material_split(20, 6), |_, _| {});
        let net_b = train(&config, &mut material_split(20, 6), |_, _| {});
        assert_eq!(net_a, net_b, "{hidden} units");
    }
}

/// The command line end to end: flags, a data directory, the written network.
#[test]
fn command_writes_a_loadable_network() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/train-test");
    std::fs::create_dir_all(&dir).unwrap();
    let (bytes, _) = random_games(20, 8);
    std::fs::write(dir.join("a.viri"), &bytes).unwrap();
    std::fs::write(dir.join("b.viri.part"), b"unfinished").unwrap();
    let out = dir.join("net.bin");
    let args = words(&format!(
        "--data {} --out {} --hidden 16 --epochs 1 --batch 128 --threads 2",
        dir.display(),
        out.display()
    ));
    let command = super::parse_args(&args).unwrap();
    assert_eq!(command.data, [(dir.join("a.viri"), Scores::Raw)]);
    super::run(&command).unwrap();
    let params = NetworkParams::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(params.hidden, 16);
    // The float checkpoint beside it is the same network, and a run can start from it.
    let checkpoint = dir.join("net.bin.ckpt");
    let net = super::checkpoint::from_bytes(&std::fs::read(&checkpoint).unwrap()).unwrap();
    assert_eq!(quantise(&net), params);
    let mut resumed = args.clone();
    resumed.retain(|word| word != "--hidden" && word != "16");
    resumed.extend(["--init".to_string(), checkpoint.display().to_string()]);
    let command = super::parse_args(&resumed).unwrap();
    assert_eq!(command.init.as_ref(), Some(&net));
    assert_eq!(command.config.hidden, 16);
    // So can a network file: its integers divided back to floats.
    let last = resumed.len() - 1;
    resumed[last] = out.display().to_string();
    let command = super::parse_args(&resumed).unwrap();
    assert_eq!(command.init.as_ref(), Some(&dequantise(&params)));
    // A one-bucket start is split into the buckets asked for; other counts are refused.
    let with_buckets = |count: &str| {
        let mut words = resumed.clone();
        words.extend(["--buckets".to_string(), count.to_string()]);
        super::parse_args(&words)
    };
    let command = with_buckets("8").unwrap();
    assert_eq!(command.config.buckets, 8);
    assert_eq!(
        command.init.as_ref(),
        Some(&dequantise(&params).with_buckets(8))
    );
    assert!(with_buckets("3").is_err());
    // The anchor pulls towards the start, so it needs one, and a pull cannot be negative.
    let with_anchor = |strength: &str| {
        let mut words = resumed.clone();
        words.extend(["--anchor".to_string(), strength.to_string()]);
        super::parse_args(&words)
    };
    assert_eq!(with_anchor("30").unwrap().config.anchor, 30.0);
    assert_eq!(command.config.anchor, 0.0);
    assert!(with_anchor("-1").is_err());
    // At the default rate 0.001, a pull of 1,000 would cover the whole distance a step.
    assert!(with_anchor("999").is_ok() && with_anchor("1000").is_err());
    assert!(super::parse_args(&words("--data a.viri --out n.nnue --anchor 30")).is_err());
    // Without --init too, only the bucket counts the network file holds, and a sane
    // number of epochs.
    for bad in ["--buckets 0", "--buckets 3", "--epochs 1000000000000"] {
        let args = words(&format!("--data a.viri --out n.nnue {bad}"));
        let error = super::parse_args(&args)
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(error.contains(&bad[..9]), "{bad}: {error}");
    }
    // The weight decay: 0.01 unless given, never negative, never a whole step's shrink.
    let with_decay = |decay: &str| {
        let mut words = words("--data a.viri --out n.nnue");
        words.extend(["--decay".to_string(), decay.to_string()]);
        super::parse_args(&words)
    };
    assert_eq!(command.config.decay, super::DEFAULT_DECAY);
    assert_eq!(with_decay("0.5").unwrap().config.decay, 0.5);
    assert_eq!(with_decay("0").unwrap().config.decay, 0.0);
    assert!(with_decay("-0.1").is_err() && with_decay("1000").is_err());
    // The loss power: the squared error unless given, within [1.5, 4].
    let with_power = |power: &str| {
        let mut words = words("--data a.viri --out n.nnue");
        words.extend(["--loss-power".to_string(), power.to_string()]);
        super::parse_args(&words)
    };
    assert_eq!(command.config.loss_power, 2.0);
    assert_eq!(with_power("2.5").unwrap().config.loss_power, 2.5);
    for bad in ["1", "4.5", "NaN"] {
        let error = with_power(bad).map(|_| ()).unwrap_err().to_string();
        assert!(error.contains("--loss-power"), "{bad}: {error}");
    }
    // A damaged network file is refused with the file's own error.
    let damaged = dir.join("damaged.nnue");
    let bytes = std::fs::read(&out).unwrap();
    std::fs::write(&damaged, &bytes[..bytes.len() - 1]).unwrap();
    resumed[last] = damaged.display().to_string();
    let error = super::parse_args(&resumed).unwrap_err();
    assert!(
        matches!(error, super::TrainError::Network { .. }),
        "{error}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A file cut inside a game keeps the games before the cut, and the files after it are
/// read in full: one damaged chunk does not stop a training run.
#[test]
fn a_file_cut_inside_a_game_keeps_the_games_before_it() {
    let (bytes, _) = random_games(12, 21);
    let whole = load_bytes(&bytes, 0.0, Scores::Raw).unwrap();
    let dir = std::env::temp_dir().join(format!("cutoff-cut-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (cut, intact) = (dir.join("cut.viri"), dir.join("intact.viri"));
    // Three bytes short: the last game's closing null move is incomplete.
    std::fs::write(&cut, &bytes[..bytes.len() - 3]).unwrap();
    std::fs::write(&intact, &bytes).unwrap();
    let files = [(cut, Scores::Raw), (intact, Scores::Raw)];
    let split = super::load_files(&files, 0.0, 0, 2).unwrap();
    assert_eq!(split.stats.games, 2 * whole.stats.games - 1);
    assert!(split.train.len() > whole.train.len());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The damage is named as a reader of the file counts: the game's number from 1 and the
/// byte it starts at.
#[test]
fn damage_names_the_game_from_one_and_its_first_byte() {
    let (bytes, _) = random_games(3, 22);
    let mut reader = crate::viri::GameReader::new(&bytes);
    reader.next_game().unwrap();
    reader.next_game().unwrap();
    let third = reader.offset();
    let (split, damage) =
        super::data::load_until_damage(&bytes[..bytes.len() - 3], 0.0, Scores::Raw, 0);
    let (byte, error) = damage.unwrap();
    assert_eq!((split.stats.games, byte), (2, third));
    assert!(error.to_string().starts_with("game 3: "), "{error}");
}

#[test]
fn devices_are_refused_as_data_and_as_a_start() {
    let zero = std::path::Path::new("/dev/zero");
    if !zero.exists() {
        return;
    }
    // Read whole, /dev/zero would never end; it is refused at once instead.
    let error = super::load_files(&[(zero.to_path_buf(), Scores::Raw)], 0.05, 0, 1).unwrap_err();
    assert!(error.to_string().contains("not a regular file"), "{error}");
    let args = words("--data /dev/zero --out unused.nnue --init /dev/zero");
    let error = super::parse_args(&args).unwrap_err();
    assert!(
        matches!(error, super::TrainError::File(_))
            && error.to_string().contains("not a regular file"),
        "{error}"
    );
}

/// The label of every kept position of `bytes`, in order, from the side to move's view:
/// `white_label(plies, ply)` gives it from White's, `plies` being the boards and recorded
/// scores of the position's whole game and `ply` the position's index there.
fn expected_labels(bytes: &[u8], white_label: impl Fn(&[(Board, i16)], usize) -> i32) -> Vec<i32> {
    let mut expected = Vec::new();
    let mut reader = crate::viri::GameReader::new(bytes);
    while let Some(game) = reader.next_game().unwrap() {
        let plies: Vec<(Board, i16)> = game.positions().map(|(b, _, score)| (b, score)).collect();
        for (ply, (board, mv, score)) in game.positions().enumerate() {
            if super::data::keep(&board, mv, score, ply) {
                let white = white_label(&plies, ply);
                let us = board.side_to_move();
                expected.push(if us == Color::White { white } else { -white });
            }
        }
    }
    expected
}

/// Asserts that `after` holds the records of `before` but for their scores, and returns how
/// many scores differ.
fn relabelled(before: &[Record], after: &[Record]) -> usize {
    assert_eq!(before.len(), after.len());
    let mut changed = 0;
    for (b, a) in before.iter().zip(after) {
        let mut same_score = *a;
        same_score.score = b.score;
        assert_eq!(same_score, *b);
        changed += usize::from(a.score != b.score);
    }
    changed
}

#[test]
fn scaled_data_has_the_material_scale_divided_out() {
    let (bytes, _) = random_games(20, 6);
    let raw = load_bytes(&bytes, 0.0, Scores::Raw).unwrap();
    let scaled = load_bytes(&bytes, 0.0, Scores::MaterialScaled).unwrap();
    let expected = expected_labels(&bytes, |plies, ply| {
        let (board, score) = &plies[ply];
        crate::nnue::material::unscale_by_material((*score).into(), board)
    });
    assert!(expected.len() > 100);
    let unscaled: Vec<i32> = scaled.train.iter().map(|r| i32::from(r.score)).collect();
    assert_eq!(unscaled, expected);
    // The same positions, each score as large or larger, and most of them larger.
    let grown = relabelled(&raw.train, &scaled.train);
    for (r, s) in raw.train.iter().zip(&scaled.train) {
        assert!(i32::from(s.score).abs() >= i32::from(r.score).abs());
    }
    assert!(2 * grown > expected.len(), "{grown} of {}", expected.len());
}

#[test]
fn lookahead_labels_are_the_mean_of_the_next_plies_scores() {
    let (bytes, _) = random_games(20, 7);
    let own = load_bytes(&bytes, 0.0, Scores::Raw).unwrap();
    let smoothed = super::data::load_bytes_with(&bytes, 0.0, Scores::Raw, 2).unwrap();
    let expected = expected_labels(&bytes, |plies, ply| {
        let window = &plies[ply..(ply + 3).min(plies.len())];
        let sum: i32 = window.iter().map(|(_, s)| i32::from(*s)).sum();
        (f64::from(sum) / window.len() as f64).round() as i32
    });
    assert!(expected.len() > 100);
    let labels: Vec<i32> = smoothed.train.iter().map(|r| i32::from(r.score)).collect();
    assert_eq!(labels, expected);
    // The same positions; only the labels moved, and many of them did.
    let moved = relabelled(&own.train, &smoothed.train);
    assert!(10 * moved > expected.len(), "{moved} of {}", expected.len());
    // Held-out positions keep their own scores.
    let held_own = load_bytes(&bytes, 1.0, Scores::Raw).unwrap();
    let held_smoothed = super::data::load_bytes_with(&bytes, 1.0, Scores::Raw, 2).unwrap();
    assert!(held_own.held_out.len() > 100);
    assert_eq!(held_own.held_out, held_smoothed.held_out);
}

#[test]
fn lookahead_unscales_each_ply_by_its_own_board_and_stops_at_a_mate_score() {
    // Random games with a mate score every seventh ply.
    let (bytes, _) = random_games(20, 8);
    let mate = i16::try_from(crate::score::MATE - 5).unwrap();
    let mut marked = Vec::new();
    for mut game in crate::viri::read_games(&bytes).unwrap() {
        for (i, ply) in game.plies.iter_mut().enumerate() {
            if i % 7 == 6 {
                ply.1 = if i % 2 == 0 { mate } else { -mate };
            }
        }
        game.write_to(&mut marked);
    }
    let lookahead = 4;
    let split =
        super::data::load_bytes_with(&marked, 0.0, Scores::MaterialScaled, lookahead).unwrap();
    let expected = expected_labels(&marked, |plies, ply| {
        let window: Vec<i32> = plies[ply..]
            .iter()
            .take(lookahead + 1)
            .take_while(|(_, score)| i32::from(score.unsigned_abs()) < i32::from(mate))
            .map(|(board, score)| {
                crate::nnue::material::unscale_by_material((*score).into(), board)
            })
            .collect();
        let sum: i32 = window.iter().sum();
        (f64::from(sum) / window.len() as f64).round() as i32
    });
    assert!(expected.len() > 100);
    let labels: Vec<i32> = split.train.iter().map(|r| i32::from(r.score)).collect();
    assert_eq!(labels, expected);
}

#[test]
fn lookahead_is_read_from_its_flag() {
    let command = super::parse_args(&words("--data a.viri --out n.nnue --lookahead 3")).unwrap();
    assert_eq!(command.lookahead, 3);
    let command = super::parse_args(&words("--data a.viri --out n.nnue")).unwrap();
    assert_eq!(command.lookahead, 0);
    assert!(super::parse_args(&words("--data a.viri --out n.nnue --lookahead -1")).is_err());
}

#[test]
fn scaled_data_is_read_from_its_own_flag() {
    let command =
        super::parse_args(&words("--data a.viri --scaled-data b.viri --out net.nnue")).unwrap();
    assert_eq!(
        command.data,
        [
            (std::path::PathBuf::from("a.viri"), Scores::Raw),
            (std::path::PathBuf::from("b.viri"), Scores::MaterialScaled)
        ]
    );
    assert!(super::parse_args(&words("--scaled-data b.viri --out net.nnue")).is_ok());
    let missing = super::parse_args(&words("--out net.nnue"))
        .unwrap_err()
        .to_string();
    assert!(
        missing.contains("--data") && missing.contains("--scaled-data"),
        "{missing}"
    );
}

#[test]
fn the_built_in_network_is_measured_on_every_held_out_position() {
    let (bytes, _) = random_games(20, 5);
    // Everything held out, so the held-out positions are the kept ones in game order.
    let split = load_bytes(&bytes, 1.0, Scores::Raw).unwrap();
    let net = crate::nnue::embedded().expect("a network is built in");
    let mut expected = Vec::new();
    let mut reader = crate::viri::GameReader::new(&bytes);
    while let Some(game) = reader.next_game().unwrap() {
        for (ply, (board, mv, score)) in game.positions().enumerate() {
            if super::data::keep(&board, mv, score, ply) {
                expected.push(crate::nnue::evaluate_fresh(&net, &board));
            }
        }
    }
    assert!(expected.len() > 100);
    assert_eq!(split.held_out.len(), expected.len());
    let measured: Vec<i32> = split
        .held_out_built_in
        .iter()
        .map(|&cp| i32::from(cp))
        .collect();
    assert_eq!(measured, expected);
    let reference = super::reference_loss(&split.held_out, &split.held_out_built_in, 0.3);
    assert!(reference.is_some_and(|r| r.best <= r.as_is));
}

/// The loss a `--measure` line gives (the number after `loss `).
fn loss_of(line: &str) -> f64 {
    line.split("loss ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// The loss at the best scale a `--measure` line gives (the number after ` (`).
fn best_loss_of(line: &str) -> f64 {
    line.split(" (")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .unwrap()
        .parse()
        .unwrap()
}

/// `--measure` trains nothing: it reports each network's loss on the held-out games' kept
/// positions, after the built-in network's and the hand-crafted evaluation's on the same positions.
#[test]
fn measure_reports_each_networks_loss_on_the_held_out_positions() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/train-measure-test");
    std::fs::create_dir_all(&dir).unwrap();
    let (bytes, _) = random_games(20, 12);
    let data = dir.join("a.viri");
    std::fs::write(&data, &bytes).unwrap();
    // The built-in network's own file, and a small random net as a float checkpoint.
    let built_in = dir.join("built-in.nnue");
    std::fs::write(
        &built_in,
        crate::nnue::embedded::EMBEDDED.expect("a built-in net"),
    )
    .unwrap();
    let random = Network::new(16, 1, 4);
    let checkpoint = dir.join("random.ckpt");
    std::fs::write(&checkpoint, super::checkpoint::to_bytes(&random)).unwrap();
    let command = super::parse_args(&words(&format!(
        "--data {} --measure {} --measure {} --threads 2 --holdout 0.5",
        data.display(),
        built_in.display(),
        checkpoint.display()
    )))
    .unwrap();
    let lines = super::measure(
        &command,
        &match &command.task {
            super::Task::Measure(nets) => nets.clone(),
            super::Task::Train { .. } => panic!("--measure parsed as training"),
        },
    )
    .unwrap();
    assert_eq!(lines.len(), 4, "{lines:?}");
    // The positions training with --holdout 0.5 holds out, none mirrored.
    let split = load_bytes(&bytes, 0.5, Scores::Raw).unwrap();
    let all = split.held_out;
    let count = all.len();
    assert!(count > 300 && !split.train.is_empty());
    assert!(
        lines
            .iter()
            .all(|l| l.contains(&format!(" on {count} positions"))),
        "{lines:?}"
    );
    assert!(lines[0].starts_with("the built-in network: "));
    assert!(lines[1].starts_with("the hand-crafted evaluation: "));
    // The random checkpoint's line is its loss, computed directly.
    let mut scratch = Scratch::new(16);
    let expected = random.loss(&all, 0.0, &mut scratch) / count as f64;
    assert!(lines[3].starts_with(&format!("{}: ", checkpoint.display())));
    assert!(
        (loss_of(&lines[3]) - expected).abs() < 1e-6,
        "{} vs {expected}",
        lines[3]
    );
    // Every line gives the loss at the best scale too, never above the loss as it is.
    for line in &lines {
        let best = best_loss_of(line);
        assert!(best <= loss_of(line) + 1e-5, "{line}");
        assert!(line.contains(" at its best scale, cp / "), "{line}");
    }
    // The built-in file, read back to floats, scores as the engine's integer evaluation of it.
    let (engine, float) = (loss_of(&lines[0]), loss_of(&lines[2]));
    assert!(
        (float - engine).abs() < 0.02 * engine,
        "{float} vs {engine}"
    );
    assert!(
        float < loss_of(&lines[3]) / 2.0,
        "the built-in net no better than a random one"
    );
    // Training flags do not go with --measure, and without it --out is needed.
    for extra in ["--out net.nnue", "--mirror", "--hidden 32"] {
        let args = format!(
            "--data {} --measure {} {extra}",
            data.display(),
            built_in.display()
        );
        assert!(
            super::parse_args(&words(&args)).is_err(),
            "{extra} accepted"
        );
    }
    let error = super::parse_args(&words(&format!("--data {}", data.display())))
        .unwrap_err()
        .to_string();
    assert!(error.contains("--out"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--final-lr` sets where the cosine schedule ends (5% of `--lr` unless given), within
/// [0, --lr], and changes what the run learns.
#[test]
fn the_final_learning_rate_is_a_flag() {
    let parse =
        |extra: &str| super::parse_args(&words(&format!("--data a.viri --out n.nnue {extra}")));
    let config = parse("--lr 0.002").unwrap().config;
    assert_eq!(config.final_lr, 0.002 * super::FINAL_LR_RATIO);
    assert_eq!(
        parse("--lr 0.002 --final-lr 0.0005")
            .unwrap()
            .config
            .final_lr,
        0.0005
    );
    assert_eq!(parse("--final-lr 0").unwrap().config.final_lr, 0.0);
    for bad in [
        "--lr 0.001 --final-lr 0.002",
        "--final-lr=-1",
        "--final-lr NaN",
    ] {
        assert!(parse(bad).is_err(), "{bad}");
    }
    let cosine_to = |final_lr: f32| {
        let config = TrainConfig {
            final_lr,
            ..quick_config(16, 3)
        };
        train(&config, &mut material_split(20, 4), |_, _| {})
    };
    assert_ne!(cosine_to(0.0), cosine_to(0.01 * super::FINAL_LR_RATIO));
}
