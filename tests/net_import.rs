//! `cutoff net import --from bullet`: nets in bullet's quantised layout, written here from
//! seeded random weights (H of 16 and 32, QA 255 and 181, with and without output buckets
//! in both layouts of `l1w`, SCReLU and CReLU), are imported, and Cutoff's evaluation of
//! the imported net equals an evaluation written here directly on bullet's arrays, the
//! way an engine trained by bullet computes it, on many positions with either side to
//! move: fresh, incrementally along games, with the CPU's kernels, and through the
//! binary's `eval`. A file that does not fit the given shape is refused.

mod common;

use std::process::Command;
use std::sync::Arc;

use common::{binary, temp_dir, EngineProcess};
use cozy_chess::{Board, Color, File, Move};
use cutoff::moves::MoveDelta;
use cutoff::nnue::bullet::{self, BulletShape, OutputLayout};
use cutoff::nnue::file::{Activation, Inputs, Quantisation};
use cutoff::nnue::{evaluate_fresh, Network, NnueStack};
use cutoff::position::legal_moves;
use cutoff::rng::SplitMix64;

/// A net as bullet saves it: its arrays in file order, and what it was trained with.
struct BulletNet {
    hidden: usize,
    buckets: usize,
    /// `[768][H]`.
    l0w: Vec<i16>,
    l0b: Vec<i16>,
    /// `[K][2H]` when `transposed`, else `[2H][K]`.
    l1w: Vec<i16>,
    l1b: Vec<i16>,
    transposed: bool,
    /// `Chess768hm` rather than `Chess768`.
    king_mirrored: bool,
    crelu: bool,
    qa: i32,
    qb: i32,
    scale: i32,
}

/// The configuration of one test net.
#[derive(Clone, Copy)]
struct Config {
    hidden: usize,
    buckets: usize,
    transposed: bool,
    king_mirrored: bool,
    crelu: bool,
    qa: i32,
    qb: i32,
    scale: i32,
    /// Output weights within ±this.
    output_range: i32,
    seed: u64,
}

const BASE: Config = Config {
    hidden: 32,
    buckets: 1,
    transposed: true,
    king_mirrored: false,
    crelu: false,
    qa: 255,
    qb: 64,
    scale: 400,
    output_range: 127,
    seed: 1,
};

/// The nets every evaluation test runs: QA 255 and 181, 1 to 8 buckets, both `l1w`
/// layouts, output weights for the 16-bit kernel and beyond it, SCReLU and CReLU.
fn configs() -> Vec<Config> {
    vec![
        BASE,
        Config {
            buckets: 8,
            output_range: 400,
            seed: 2,
            ..BASE
        },
        Config {
            hidden: 16,
            buckets: 8,
            transposed: false,
            qa: 181,
            output_range: 181,
            seed: 3,
            ..BASE
        },
        Config {
            buckets: 4,
            crelu: true,
            output_range: 2_000,
            seed: 4,
            ..BASE
        },
        Config {
            hidden: 16,
            crelu: true,
            qa: 181,
            qb: 128,
            scale: 300,
            seed: 5,
            ..BASE
        },
        Config {
            buckets: 2,
            transposed: false,
            king_mirrored: true,
            qa: 181,
            qb: 90,
            scale: 350,
            output_range: 1_000,
            seed: 6,
            ..BASE
        },
    ]
}

impl BulletNet {
    /// Seeded random weights: feature weights and biases within ±300, output weights
    /// within ±`output_range`, output biases within ±16,000.
    fn random(config: Config) -> BulletNet {
        let mut rng = SplitMix64::new(config.seed);
        let mut values = |n: usize, range: i32| -> Vec<i16> {
            (0..n)
                .map(|_| (rng.below(2 * range as usize + 1) as i32 - range) as i16)
                .collect()
        };
        let (h, k) = (config.hidden, config.buckets);
        BulletNet {
            hidden: h,
            buckets: k,
            l0w: values(768 * h, 300),
            l0b: values(h, 300),
            l1w: values(2 * h * k, config.output_range),
            l1b: values(k, 16_000),
            transposed: config.transposed,
            king_mirrored: config.king_mirrored,
            crelu: config.crelu,
            qa: config.qa,
            qb: config.qb,
            scale: config.scale,
        }
    }

    /// The file bullet writes: the arrays in order, little-endian, padded to a multiple
    /// of 64 bytes with `bullet` repeated.
    fn bytes(&self) -> Vec<u8> {
        let mut bytes: Vec<u8> = [&self.l0w, &self.l0b, &self.l1w, &self.l1b]
            .into_iter()
            .flat_map(|array| array.iter().flat_map(|v| v.to_le_bytes()))
            .collect();
        let mut padding = b"bullet".iter().cycle();
        while !bytes.len().is_multiple_of(64) {
            bytes.push(*padding.next().unwrap());
        }
        bytes
    }

    /// The shape `net import` is told.
    fn shape(&self) -> BulletShape {
        BulletShape {
            hidden: self.hidden,
            buckets: self.buckets,
            inputs: if self.king_mirrored {
                Inputs::KingMirrored
            } else {
                Inputs::Plain
            },
            activation: if self.crelu {
                Activation::CReLU
            } else {
                Activation::SCReLU
            },
            quant: Quantisation {
                qa: self.qa,
                qb: self.qb,
                scale: self.scale,
            },
            output_layout: if self.transposed {
                OutputLayout::Transposed
            } else {
                OutputLayout::ColumnMajor
            },
        }
    }

    /// The `net import` flags of this net.
    fn flags(&self) -> Vec<String> {
        let mut flags = format!(
            "--hidden {} --buckets {} --qa {} --qb {} --scale {}",
            self.hidden, self.buckets, self.qa, self.qb, self.scale
        );
        if self.crelu {
            flags += " --activation crelu";
        }
        if self.king_mirrored {
            flags += " --inputs chess768hm";
        }
        if !self.transposed {
            flags += " --output-weights column-major";
        }
        flags.split_whitespace().map(String::from).collect()
    }

    /// Output weight `j` (0..2H: the side to move's H, then the other side's) of `bucket`.
    fn output_weight(&self, bucket: usize, j: usize) -> i32 {
        let index = if self.transposed {
            bucket * 2 * self.hidden + j
        } else {
            j * self.buckets + bucket
        };
        i32::from(self.l1w[index])
    }

    /// The accumulator of `board` seen from `side`, by bullet's `Chess768` (or
    /// `Chess768hm`) indexing.
    fn accumulator(&self, board: &Board, side: Color) -> Vec<i32> {
        let h = self.hidden;
        let mut flip = if side == Color::Black { 56 } else { 0 };
        if self.king_mirrored && board.king(side).file() < File::E {
            flip ^= 7;
        }
        let mut acc: Vec<i32> = self.l0b.iter().map(|&b| i32::from(b)).collect();
        for square in board.occupied() {
            let piece = board.piece_on(square).unwrap() as usize;
            let colour = board.color_on(square).unwrap();
            let feature = 384 * usize::from(colour != side) + 64 * piece + (square as usize ^ flip);
            for (a, &w) in acc
                .iter_mut()
                .zip(&self.l0w[feature * h..(feature + 1) * h])
            {
                *a += i32::from(w);
            }
        }
        acc
    }

    /// The evaluation an engine trained by bullet computes: bucket `(pieces - 2) /
    /// ceil(32 / K)`, `Σ act(clamp(acc, 0, QA)) · w`, then `(sum / QA + b) · scale /
    /// (QA · QB)` for SCReLU and `(sum + b) · scale / (QA · QB)` for CReLU.
    fn evaluate(&self, board: &Board) -> i32 {
        let pieces = board.occupied().len() as usize;
        let bucket = (pieces - 2) / 32_usize.div_ceil(self.buckets);
        let stm = board.side_to_move();
        let mut sum = 0i64;
        for (half, side) in [stm, !stm].into_iter().enumerate() {
            for (unit, &a) in self.accumulator(board, side).iter().enumerate() {
                let v = i64::from(a.clamp(0, self.qa));
                let activated = if self.crelu { v } else { v * v };
                sum += activated * i64::from(self.output_weight(bucket, half * self.hidden + unit));
            }
        }
        let sum = i32::try_from(sum).expect("the test's weights keep the sum within i32");
        let summed = if self.crelu { sum } else { sum / self.qa };
        let cp = (i64::from(summed) + i64::from(self.l1b[bucket])) * i64::from(self.scale)
            / (i64::from(self.qa) * i64::from(self.qb));
        i32::try_from(cp).unwrap()
    }
}

/// Random games from the start position and a middlegame: every position on the way
/// (both sides to move, every piece count), as (position before, move, position after).
fn games(seed: u64, count: usize) -> Vec<Vec<(Board, Move, Board)>> {
    let mut rng = SplitMix64::new(seed);
    let starts = [
        Board::default(),
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
            .parse()
            .unwrap(),
    ];
    (0..count)
        .map(|game| {
            let mut board = starts[game % starts.len()].clone();
            let mut plies = Vec::new();
            for _ in 0..200 {
                let moves = legal_moves(&board);
                if moves.is_empty() || board.occupied().len() <= 3 {
                    break;
                }
                let mv = moves[rng.below(moves.len())];
                let before = board.clone();
                board.play_unchecked(mv);
                plies.push((before, mv, board.clone()));
            }
            plies
        })
        .collect()
}

/// The imported net as `EvalFile` loads it: through Cutoff's file bytes.
fn import(net: &BulletNet) -> Arc<Network> {
    let params = bullet::import(&net.bytes(), &net.shape()).expect("a well-formed bullet file");
    Arc::new(Network::from_bytes(&params.to_bytes()).expect("a valid network file"))
}

#[test]
fn imported_nets_evaluate_as_bullets_engines_do() {
    let games = games(7, 6);
    let positions: usize = games.iter().map(Vec::len).sum();
    assert!(positions > 600, "{positions}");
    for config in configs() {
        let net = BulletNet::random(config);
        let network = import(&net);
        let mut stack = NnueStack::new(Arc::clone(&network));
        let (mut white, mut black) = (0, 0);
        let mut values = std::collections::HashSet::new();
        for game in &games {
            stack.reset(&game[0].0);
            assert_eq!(stack.evaluate(&game[0].0), net.evaluate(&game[0].0));
            for (before, mv, after) in game {
                let expected = net.evaluate(after);
                values.insert(expected);
                match after.side_to_move() {
                    Color::White => white += 1,
                    Color::Black => black += 1,
                }
                assert_eq!(evaluate_fresh(&network, after), expected, "{after}");
                stack.push(&MoveDelta::new(before, *mv));
                assert_eq!(stack.evaluate(after), expected, "incremental, {after}");
            }
        }
        assert!(white > 300 && black > 300, "{white} / {black}");
        // The positions are told apart: the evaluations are no constant.
        assert!(values.len() > 100, "{} distinct evaluations", values.len());
    }
}

/// The layout matters: the same bytes read with the other `l1w` layout, or the other
/// activation, score differently (so the tests above would catch a swapped layout).
#[test]
fn the_flags_change_what_the_bytes_mean() {
    let net = BulletNet::random(Config {
        buckets: 8,
        seed: 11,
        ..BASE
    });
    let board: Board = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
        .parse()
        .unwrap();
    let expected = net.evaluate(&board);
    assert_eq!(evaluate_fresh(&import(&net), &board), expected);
    for other in [
        BulletNet {
            transposed: false,
            ..BulletNet::random(Config {
                buckets: 8,
                seed: 11,
                ..BASE
            })
        },
        BulletNet {
            crelu: true,
            ..BulletNet::random(Config {
                buckets: 8,
                seed: 11,
                ..BASE
            })
        },
    ] {
        assert_eq!(other.bytes(), net.bytes());
        assert_ne!(evaluate_fresh(&import(&other), &board), expected);
    }
}

/// `cutoff net import ARGS`: its status, stdout and stderr.
fn net_import(args: &[String]) -> (bool, String, String) {
    let output = Command::new(binary())
        .args(["net", "import", "--from", "bullet"])
        .args(args)
        .output()
        .expect("the binary runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn the_binary_imports_a_net_that_eval_file_loads_and_eval_reports() {
    let dir = temp_dir("net_import", "binary");
    let bullet_file = dir.join("quantised.bin");
    let out = dir.join("imported.nnue");
    let net = BulletNet::random(configs()[2]); // QA 181, 8 buckets, column-major l1w.
    std::fs::write(&bullet_file, net.bytes()).unwrap();
    let mut args = vec![bullet_file.display().to_string()];
    args.extend(net.flags());
    args.extend(["--out".to_string(), out.display().to_string()]);
    let (ok, stdout, stderr) = net_import(&args);
    assert!(ok, "{stdout}\n{stderr}");
    let start = net.evaluate(&Board::default());
    assert!(
        stdout.contains("(768 -> 16)x2 -> 8 SCReLU, QA 181 QB 64 SCALE 400")
            && stdout.contains(&format!("start position {start:+} cp")),
        "{stdout}"
    );

    let mut engine = EngineProcess::start();
    engine.send(&format!("setoption name EvalFile value {}", out.display()));
    let answer = engine.sync();
    assert!(
        answer.len() == 1 && answer[0].contains("SCReLU at QA 181 QB 64 SCALE 400"),
        "{answer:?}"
    );
    for (_, _, board) in games(9, 2).iter().flatten().step_by(7) {
        engine.send(&format!("position fen {board}"));
        engine.send("eval");
        let report = engine.sync();
        let line = format!("Network score: {:+} cp (side to move)", net.evaluate(board));
        if !report.contains(&line) {
            engine.fail(&format!("{board}: expected '{line}' in {report:?}"));
        }
    }
}

#[test]
fn a_file_that_does_not_fit_the_shape_is_refused_and_nothing_written() {
    let dir = temp_dir("net_import", "refused");
    let out = dir.join("never.nnue");
    let net = BulletNet::random(Config {
        hidden: 16,
        seed: 21,
        ..BASE
    });
    let path = dir.join("quantised.bin");
    let run = |bytes: &[u8], hidden: &str| {
        std::fs::write(&path, bytes).unwrap();
        net_import(&[
            path.display().to_string(),
            "--hidden".into(),
            hidden.into(),
            "--out".into(),
            out.display().to_string(),
        ])
    };
    let bytes = net.bytes();
    // Cut short, one unit too many, the wrong hidden size.
    for (bytes, hidden) in [
        (&bytes[..bytes.len() - 64], "16"),
        (&[&bytes[..], &[0; 64]].concat()[..], "16"),
        (&bytes[..], "32"),
    ] {
        let (ok, stdout, stderr) = run(bytes, hidden);
        assert!(!ok, "{stdout}");
        assert!(
            stderr.contains(&format!("the file is {} bytes", bytes.len())),
            "{stderr}"
        );
        assert!(!out.exists());
    }
    let (_, _, stderr) = run(&bytes, "32");
    assert!(
        stderr.contains("that size fits --hidden 16 --buckets 1"),
        "{stderr}"
    );
    // The right size with a damaged padding.
    let mut damaged = bytes.clone();
    let last = damaged.len() - 1;
    damaged[last] = b'?';
    let (ok, _, stderr) = run(&damaged, "16");
    assert!(!ok && stderr.contains("not bullet's padding"), "{stderr}");
    assert!(!out.exists());
    // A hidden size Cutoff does not run.
    let (ok, _, stderr) = run(&bytes, "20");
    assert!(!ok && stderr.contains("hidden size 20"), "{stderr}");

    // EvalFile refuses the bullet file itself, pointing to the import.
    let mut engine = EngineProcess::start();
    engine.send(&format!("setoption name EvalFile value {}", path.display()));
    let answer = engine.sync();
    assert!(
        answer.len() == 1
            && answer[0].starts_with("info string error: ")
            && answer[0].contains("cutoff net import"),
        "{answer:?}"
    );
}
