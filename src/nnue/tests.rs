//! Tests of the in-memory network, the kernels and the incremental stack against fresh and
//! independent computations, on random networks (seeded) and random games; and the micro
//! benchmark (`cargo test --release --lib nnue::tests::benchmark -- --ignored --nocapture`).

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use cozy_chess::{Board, BoardBuilder, Color, Move, Square};

use super::file::{
    oriented_feature_index, output_bucket, Activation, Inputs, NetFileError, NetworkParams,
    Quantisation, INPUTS,
};
use super::simd::{self, Backend, Chunk};
use super::{evaluate_fresh, Network, NnueStack, STACK_PLIES};
use crate::moves::MoveDelta;
use crate::position::{legal_moves, parse_fen};
use crate::rng::SplitMix64;

/// Feature weights of a trained net stay within ±1.98 · QA; output weights within ±127.
const FEATURE_RANGE: i32 = 504;
const OUTPUT_RANGE: i32 = 127;
/// Output buckets of the random networks.
const BUCKETS: usize = 8;

fn uniform(rng: &mut SplitMix64, range: i32) -> i16 {
    (rng.below(2 * range as usize + 1) as i32 - range) as i16
}

/// Random parameters with 8 output buckets (the built-in net's tests cover one bucket):
/// feature weights and biases within ±`feature_range`, output weights within
/// ±`output_range`.
fn random_params(hidden: usize, seed: u64, feature_range: i32, output_range: i32) -> NetworkParams {
    let mut rng = SplitMix64::new(seed);
    let mut values =
        |n: usize, range: i32| -> Vec<i16> { (0..n).map(|_| uniform(&mut rng, range)).collect() };
    let feature_weights = values(INPUTS * hidden, feature_range);
    let feature_bias = values(hidden, feature_range);
    let output_weights = values(BUCKETS * 2 * hidden, output_range);
    NetworkParams {
        hidden,
        buckets: BUCKETS,
        inputs: Inputs::Plain,
        activation: Activation::SCReLU,
        quant: Quantisation::STANDARD,
        feature_weights,
        feature_bias,
        output_weights,
        output_bias: (0..BUCKETS as i32)
            .map(|b| (seed as i32 % 40_000) - 20_000 + 3_000 * b)
            .collect(),
    }
}

fn network(params: &NetworkParams, backend: Backend) -> Arc<Network> {
    let mut net = Network::from_params(params).expect("valid random network");
    assert!(
        net.set_backend(backend),
        "{backend:?} is not supported here"
    );
    Arc::new(net)
}

/// The backends this CPU runs, saying so when AVX2 is absent.
fn backends() -> Vec<Backend> {
    if Backend::Avx2.is_supported() {
        vec![Backend::Scalar, Backend::Avx2]
    } else {
        eprintln!("AVX2 is absent on this CPU: only the scalar kernels are tested");
        vec![Backend::Scalar]
    }
}

/// The file's integer formula written out independently, from the parameters as stored
/// (with their activation and quantisation).
fn formula(params: &NetworkParams, board: &Board) -> i32 {
    let Quantisation { qa, qb, scale } = params.quant;
    let h = params.hidden;
    let stm = board.side_to_move();
    let pieces = board.occupied().len() as usize;
    let bucket = output_bucket(pieces, params.buckets);
    let output_weights = &params.output_weights[bucket * 2 * h..(bucket + 1) * 2 * h];
    let mut sum = 0i64;
    for (half, perspective) in [stm, !stm].into_iter().enumerate() {
        let mut acc: Vec<i64> = params.feature_bias.iter().map(|&b| i64::from(b)).collect();
        for square in board.occupied() {
            let piece = board.piece_on(square).expect("occupied");
            let color = board.color_on(square).expect("occupied");
            let king = board.king(perspective);
            let mirrored = params.inputs.mirrors(king);
            let f = oriented_feature_index(perspective, mirrored, color, piece, square);
            for (a, &w) in acc
                .iter_mut()
                .zip(&params.feature_weights[f * h..(f + 1) * h])
            {
                *a += i64::from(w);
            }
        }
        for (a, &w) in acc.iter().zip(&output_weights[half * h..(half + 1) * h]) {
            let v = (*a).clamp(0, i64::from(qa));
            sum += match params.activation {
                Activation::SCReLU => v * v * i64::from(w),
                Activation::CReLU => v * i64::from(w),
            };
        }
    }
    let sum = i32::try_from(sum).expect("realistic weights keep the sum within i32");
    let summed = match params.activation {
        Activation::SCReLU => sum / qa,
        Activation::CReLU => sum,
    };
    let cp = (i64::from(summed) + i64::from(params.output_bias[bucket])) * i64::from(scale)
        / i64::from(qa * qb);
    i32::try_from(cp).expect("centipawns fit in i32")
}

/// `board` with ranks mirrored and colours swapped (side to move too; no castling rights
/// or en passant square, which the network does not see).
fn flip(board: &Board) -> Board {
    let mut builder = BoardBuilder::empty();
    for square in board.occupied() {
        let piece = board.piece_on(square).expect("occupied");
        let color = board.color_on(square).expect("occupied");
        *builder.square_mut(Square::index(square as usize ^ 56)) = Some((piece, !color));
    }
    builder.side_to_move = !board.side_to_move();
    builder.build().expect("a mirrored legal position is legal")
}

/// The evaluation from White's view.
fn white_view(board: &Board, eval: i32) -> i32 {
    match board.side_to_move() {
        Color::White => eval,
        Color::Black => -eval,
    }
}

/// Start positions: standard, Chess960 (castling with king or rook staying put), en
/// passant available, promotions imminent.
fn starts() -> Vec<Board> {
    let fens = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            false,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        ),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            false,
        ),
        (
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            false,
        ),
        ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", false),
        (
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            true,
        ),
        ("rk5r/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 b kq - 0 1", true),
        ("1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w BHbh - 0 1", true),
    ];
    let mut boards: Vec<Board> = fens
        .iter()
        .map(|&(fen, chess960)| parse_fen(fen, chess960).expect("test FEN"))
        .collect();
    boards.extend([0, 518, 959].map(Board::chess960_startpos));
    boards
}

/// What a random walk did.
#[derive(Debug, Default)]
struct Counts {
    moves: usize,
    captures: usize,
    en_passant: usize,
    promotions: usize,
    castles: usize,
    /// King moves between files a-d and e-h (a king-mirrored view changes).
    king_crossings: usize,
    nulls: usize,
    pops: usize,
    checks: usize,
}

impl Counts {
    fn record(&mut self, d: &MoveDelta) {
        self.moves += 1;
        if let Some((_, square)) = d.captured {
            self.captures += 1;
            self.en_passant += usize::from(square != d.to);
        }
        self.promotions += usize::from(d.placed != d.piece);
        self.castles += usize::from(d.rook.is_some());
        self.king_crossings += usize::from(
            d.piece == cozy_chess::Piece::King
                && Inputs::KingMirrored.mirrors(d.from) != Inputs::KingMirrored.mirrors(d.to),
        );
    }
}

/// A random legal move, but castling, en passant or a promotion half of the time when one
/// is available, so that the walks meet them often.
fn pick(rng: &mut SplitMix64, board: &Board, moves: &[Move]) -> Move {
    let special: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&mv| {
            let d = MoveDelta::new(board, mv);
            d.rook.is_some() || d.placed != d.piece || d.captured.is_some_and(|(_, at)| at != d.to)
        })
        .collect();
    if !special.is_empty() && rng.below(2) == 0 {
        special[rng.below(special.len())]
    } else {
        moves[rng.below(moves.len())]
    }
}

/// Checks the stack's current accumulators and evaluation against fresh computations.
fn check(stack: &mut NnueStack, net: &Network, board: &Board, context: &str) {
    let n = net.hidden() / 16;
    let fresh = [Color::White, Color::Black].map(|c| {
        let mut acc = vec![Chunk::default(); n];
        net.refresh(Backend::Scalar, board, c, &mut acc);
        acc
    });
    let [white, black] = stack.accumulators(board);
    assert!(
        white == &fresh[0][..] && black == &fresh[1][..],
        "accumulators differ: {context}"
    );
    assert_eq!(
        stack.evaluate(board),
        evaluate_fresh(net, board),
        "{context}"
    );
}

/// A random walk through the tree: moves, null moves and pops (backtracking) from each
/// start, depth capped; after every step (`eager`) or about every third (lazy, so that
/// several plies materialise at once), the stack is checked against a fresh computation.
fn random_walk(net: &Arc<Network>, seed: u64, steps: usize, eager: bool) -> Counts {
    let mut rng = SplitMix64::new(seed);
    let mut counts = Counts::default();
    let mut stack = NnueStack::new(net.clone());
    for (s, start) in starts().into_iter().enumerate() {
        stack.reset(&start);
        let mut line = vec![start];
        for step in 0..steps {
            let board = line.last().expect("the root stays").clone();
            let roll = rng.below(100);
            let moves = legal_moves(&board);
            if line.len() > 1 && (roll < 44 || line.len() > 40 || moves.is_empty()) {
                stack.pop();
                line.pop();
                counts.pops += 1;
            } else if roll < 50 {
                if let Some(next) = board.null_move() {
                    stack.push_null();
                    line.push(next);
                    counts.nulls += 1;
                }
            } else if !moves.is_empty() {
                let mv = pick(&mut rng, &board, &moves);
                let delta = MoveDelta::new(&board, mv);
                counts.record(&delta);
                stack.push(&delta);
                let mut next = board;
                next.play_unchecked(mv);
                line.push(next);
            }
            assert_eq!(stack.ply() + 1, line.len());
            if eager || rng.below(3) == 0 {
                let context = format!("start {s}, step {step}");
                check(&mut stack, net, line.last().expect("root"), &context);
                counts.checks += 1;
            }
        }
    }
    counts
}

#[test]
fn incremental_equals_fresh_through_random_walks() {
    for backend in backends() {
        for (hidden, seed, features) in [(32, 11, FEATURE_RANGE), (64, 12, 64)] {
            let net = network(
                &random_params(hidden, seed, features, OUTPUT_RANGE),
                backend,
            );
            for eager in [true, false] {
                let counts = random_walk(&net, seed + u64::from(eager), 1500, eager);
                assert!(counts.moves > 3000 && counts.pops > 1000 && counts.nulls > 200);
                assert!(counts.captures > 500 && counts.castles > 20, "{counts:?}");
                assert!(
                    counts.en_passant > 10 && counts.promotions > 20,
                    "{counts:?}"
                );
                assert!(counts.checks > 1000, "{counts:?}");
                eprintln!("H={hidden} {backend:?} eager={eager}: {counts:?}");
            }
        }
    }
}

#[test]
fn king_mirrored_views_are_recomputed_when_the_king_crosses() {
    for backend in backends() {
        let params = NetworkParams {
            inputs: Inputs::KingMirrored,
            ..random_params(32, 13, FEATURE_RANGE, OUTPUT_RANGE)
        };
        let net = network(&params, backend);
        for eager in [true, false] {
            let counts = random_walk(&net, 31 + u64::from(eager), 1500, eager);
            assert!(
                counts.king_crossings > 100 && counts.castles > 20,
                "{counts:?}"
            );
            assert!(counts.checks > 1000, "{counts:?}");
        }
        // The formula written out mirrors as the network does.
        for board in starts() {
            assert_eq!(formula(&params, &board), evaluate_fresh(&net, &board));
        }
    }
}

#[test]
fn avx2_and_scalar_kernels_agree() {
    if !Backend::Avx2.is_supported() {
        eprintln!("AVX2 is absent on this CPU: the AVX2 kernels cannot be compared, skipped");
        return;
    }
    let mut rng = SplitMix64::new(21);
    for n in [1, 2, 8, 16] {
        let mut rows = |range: i32| -> Vec<Chunk> {
            (0..n)
                .map(|_| Chunk(std::array::from_fn(|_| uniform(&mut rng, range))))
                .collect()
        };
        // Accumulators well beyond [0, QA] on both sides, and sums that wrap in i16.
        let (src, a, b, c, d) = (
            rows(30_000),
            rows(20_000),
            rows(504),
            rows(504),
            rows(20_000),
        );
        let weights = rows(128);
        let mut scalar = vec![Chunk::default(); n];
        let mut avx2 = vec![Chunk::default(); n];
        macro_rules! same {
            ($adds:expr, $subs:expr) => {
                simd::update(Backend::Scalar, &mut scalar, &src, $adds, $subs);
                simd::update(Backend::Avx2, &mut avx2, &src, $adds, $subs);
                assert_eq!(scalar, avx2);
            };
        }
        same!([], []);
        same!([&a[..]], [&b[..]]);
        same!([&a[..]], [&b[..], &c[..]]);
        same!([&a[..], &d[..]], [&b[..], &c[..]]);
        let all: Vec<&[Chunk]> = vec![&a, &b, &c, &d, &src];
        simd::refresh(Backend::Scalar, &mut scalar, &src, &all);
        simd::refresh(Backend::Avx2, &mut avx2, &src, &all);
        assert_eq!(scalar, avx2);
        for acc in [&src, &a, &b] {
            let wide = simd::screlu_dot_wide(255, acc, &weights);
            assert_eq!(
                simd::screlu_dot(Backend::Scalar, true, 255, acc, &weights),
                wide
            );
            assert_eq!(
                simd::screlu_dot(Backend::Avx2, true, 255, acc, &weights),
                wide
            );
            // Another QA, with weights whose products still fit in i16 (|181 · w| <= 32767).
            // Scaled up to ±181, with both extremes present.
            let mut small: Vec<Chunk> = weights
                .iter()
                .map(|c| Chunk(c.0.map(|w| w.signum() * (w.abs() * 181 / 128))))
                .collect();
            small[0].0[..2].copy_from_slice(&[181, -181]);
            let wide = simd::screlu_dot_wide(181, acc, &small);
            assert_eq!(
                simd::screlu_dot(Backend::Avx2, true, 181, acc, &small),
                wide
            );
            assert_eq!(
                simd::screlu_dot(Backend::Scalar, true, 181, acc, &small),
                wide
            );
            // CReLU, exact for any weight and any QA.
            for qa in [255, 181, 32_767] {
                let scalar = simd::crelu_dot_scalar(qa, acc, &d);
                assert_eq!(simd::crelu_dot(Backend::Avx2, qa, acc, &d), scalar);
                assert_eq!(simd::crelu_dot(Backend::Scalar, qa, acc, &d), scalar);
            }
        }
    }
}

#[test]
fn the_i16_product_trick_is_exact_within_its_weight_range() {
    let mut rng = SplitMix64::new(22);
    for _ in 0..200 {
        let mut chunks = |range: i32| -> Vec<Chunk> {
            (0..4)
                .map(|_| Chunk(std::array::from_fn(|_| uniform(&mut rng, range))))
                .collect()
        };
        let (acc, weights) = (chunks(1_000), chunks(128));
        assert_eq!(
            simd::screlu_dot_scalar(255, &acc, &weights),
            simd::screlu_dot_wide(255, &acc, &weights)
        );
        let flat: Vec<i16> = weights.iter().flat_map(|c| c.0).collect();
        assert!(simd::products_fit_i16(255, &flat));
        assert!(!simd::products_fit_i16(256, &[128]));
        assert!(simd::products_fit_i16(181, &[-181, 181]));
        assert!(!simd::products_fit_i16(181, &[182]));
    }
}

#[test]
fn avx2_and_scalar_networks_agree_on_every_position() {
    // (Each backend against the independent formula is `matches_the_integer_formula`; the
    // wide output weights here overflow the formula's i32 sum, so only backends compare.)
    if !Backend::Avx2.is_supported() {
        eprintln!("AVX2 is absent on this CPU: the AVX2 network cannot be compared, skipped");
        return;
    }
    let boards = random_positions(300, 31);
    // Realistic weights, and output weights beyond ±128 (where every backend runs the wide
    // scalar kernel).
    let imported = |activation, qa, qb, scale| {
        move |params: NetworkParams| NetworkParams {
            activation,
            quant: Quantisation { qa, qb, scale },
            ..params
        }
    };
    let kinds = [
        (OUTPUT_RANGE, 32, imported(Activation::SCReLU, 255, 64, 400)),
        (30_000, 33, imported(Activation::SCReLU, 255, 64, 400)),
        (181, 34, imported(Activation::SCReLU, 181, 64, 400)),
        (30_000, 35, imported(Activation::SCReLU, 181, 128, 300)),
        (30_000, 36, imported(Activation::CReLU, 255, 64, 400)),
        (
            OUTPUT_RANGE,
            37,
            imported(Activation::CReLU, 1_000, 32, 500),
        ),
    ];
    for (output_range, seed, kind) in kinds {
        let params = kind(random_params(48, seed, FEATURE_RANGE, output_range));
        let evals: Vec<Vec<i32>> = backends()
            .into_iter()
            .map(|backend| {
                let mut stack = NnueStack::new(network(&params, backend));
                boards
                    .iter()
                    .map(|board| {
                        stack.reset(board);
                        stack.evaluate(board)
                    })
                    .collect()
            })
            .collect();
        assert!(evals.iter().all(|e| e == &evals[0]));
    }
}

/// Positions from random games, standard and Chess960.
fn random_positions(count: usize, seed: u64) -> Vec<Board> {
    let mut rng = SplitMix64::new(seed);
    let starts = starts();
    let mut boards = Vec::with_capacity(count);
    while boards.len() < count {
        let mut board = starts[rng.below(starts.len())].clone();
        for _ in 0..rng.below(80) {
            let moves = legal_moves(&board);
            if moves.is_empty() {
                break;
            }
            board.play_unchecked(moves[rng.below(moves.len())]);
        }
        boards.push(board);
    }
    boards
}

#[test]
fn colour_flip_negates_the_white_view_exactly() {
    for (hidden, seed) in [(32, 41), (128, 42)] {
        let params = random_params(hidden, seed, FEATURE_RANGE, OUTPUT_RANGE);
        for backend in backends() {
            let net = network(&params, backend);
            let mut stack = NnueStack::new(net.clone());
            for board in random_positions(200, seed) {
                let flipped = flip(&board);
                let fresh = white_view(&board, evaluate_fresh(&net, &board));
                let fresh_flipped = white_view(&flipped, evaluate_fresh(&net, &flipped));
                assert_eq!(fresh, -fresh_flipped, "{board}");
                stack.reset(&flipped);
                assert_eq!(white_view(&flipped, stack.evaluate(&flipped)), -fresh);
            }
        }
    }
}

#[test]
fn matches_the_integer_formula() {
    let kinds = [
        (Activation::SCReLU, Quantisation::STANDARD),
        (
            Activation::SCReLU,
            Quantisation {
                qa: 181,
                qb: 64,
                scale: 400,
            },
        ),
        (
            Activation::CReLU,
            Quantisation {
                qa: 255,
                qb: 128,
                scale: 300,
            },
        ),
    ];
    let shapes = [(16, 51, FEATURE_RANGE), (32, 52, 100), (128, 53, 504)];
    for ((hidden, seed, features), (activation, quant)) in
        shapes.into_iter().flat_map(|s| kinds.map(|k| (s, k)))
    {
        let params = NetworkParams {
            activation,
            quant,
            ..random_params(hidden, seed, features, OUTPUT_RANGE)
        };
        let nets: Vec<Arc<Network>> = backends()
            .into_iter()
            .map(|b| network(&params, b))
            .collect();
        for board in random_positions(200, seed) {
            let expected = formula(&params, &board);
            for net in &nets {
                assert_eq!(evaluate_fresh(net, &board), expected, "{board}");
                let mut stack = NnueStack::new(net.clone());
                stack.reset(&board);
                assert_eq!(stack.evaluate(&board), expected, "{board}");
            }
        }
    }
}

#[test]
fn loads_from_bytes_and_refuses_bad_parameters() {
    let params = random_params(32, 61, FEATURE_RANGE, OUTPUT_RANGE);
    let from_file = Network::from_bytes(&params.to_bytes()).expect("a valid file");
    assert_eq!(from_file.hidden(), 32);
    let board = Board::default();
    let direct = network(&params, Backend::Scalar);
    assert_eq!(
        evaluate_fresh(&from_file, &board),
        evaluate_fresh(&direct, &board)
    );
    assert_eq!(
        Network::from_bytes(b"not a net").unwrap_err(),
        NetFileError::NotANetwork
    );
    let mut odd = params.clone();
    odd.hidden = 24;
    assert_eq!(
        Network::from_params(&odd).unwrap_err(),
        NetFileError::Hidden(24)
    );
    let mut buckets = params.clone();
    buckets.buckets = 3;
    assert_eq!(
        Network::from_params(&buckets).unwrap_err(),
        NetFileError::Buckets(3)
    );
    let mut biases = params.clone();
    biases.output_bias.pop();
    assert!(matches!(
        Network::from_params(&biases),
        Err(NetFileError::Size { .. })
    ));
    let mut short = params;
    short.feature_bias.pop();
    assert!(matches!(
        Network::from_params(&short),
        Err(NetFileError::Size { .. })
    ));
}

#[test]
fn a_line_longer_than_the_stack_grows_it() {
    let net = network(
        &random_params(16, 71, FEATURE_RANGE, OUTPUT_RANGE),
        Backend::detected(),
    );
    let mut stack = NnueStack::new(net.clone());
    let board = Board::default();
    stack.reset(&board);
    for _ in 0..3 * STACK_PLIES {
        stack.push_null();
    }
    let end = if (3 * STACK_PLIES).is_multiple_of(2) {
        board.clone()
    } else {
        board.null_move().expect("not in check")
    };
    assert_eq!(stack.evaluate(&end), evaluate_fresh(&net, &end));
    for _ in 0..3 * STACK_PLIES {
        stack.pop();
    }
    assert_eq!(stack.evaluate(&board), evaluate_fresh(&net, &board));
}

#[test]
fn set_network_keeps_the_line() {
    let first = network(
        &random_params(32, 81, FEATURE_RANGE, OUTPUT_RANGE),
        Backend::detected(),
    );
    let second = network(
        &random_params(64, 82, FEATURE_RANGE, OUTPUT_RANGE),
        Backend::detected(),
    );
    let mut stack = NnueStack::new(first.clone());
    let mut board = Board::default();
    stack.reset(&board);
    for mv in ["e2e4", "d7d5", "e4d5"] {
        let mv = legal_moves(&board)
            .into_iter()
            .find(|m| m.to_string() == mv)
            .expect("legal");
        stack.push(&MoveDelta::new(&board, mv));
        board.play_unchecked(mv);
        assert_eq!(stack.evaluate(&board), evaluate_fresh(&first, &board));
    }
    stack.set_network(second.clone());
    assert_eq!(stack.evaluate(&board), evaluate_fresh(&second, &board));
    stack.pop();
    stack.set_network(first.clone());
    stack.pop();
    stack.pop();
    assert_eq!(
        stack.evaluate(&Board::default()),
        evaluate_fresh(&first, &Board::default())
    );
}

// ---------------------------------------------------------------------------------------
// Micro benchmark.

/// A position and, for each legal move, its delta and the child position.
type Children = (Board, Vec<(MoveDelta, Board)>);

fn children(boards: &[Board]) -> Vec<Children> {
    boards
        .iter()
        .map(|board| {
            let kids = legal_moves(board)
                .into_iter()
                .map(|mv| {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    (MoveDelta::new(board, mv), child)
                })
                .collect();
            (board.clone(), kids)
        })
        .collect()
}

/// Runs `work` (which returns how many evaluations it made) for at least `seconds` and
/// returns evaluations per second.
fn rate(seconds: f64, mut work: impl FnMut() -> usize) -> f64 {
    let start = Instant::now();
    let mut evals = 0;
    while start.elapsed().as_secs_f64() < seconds {
        evals += work();
    }
    evals as f64 / start.elapsed().as_secs_f64()
}

/// Push, evaluate and pop every child of each position, the parent computed beforehand
/// (its reset is not timed): incremental evaluations per second.
fn incremental_rate(stack: &mut NnueStack, tree: &[Children], seconds: f64) -> f64 {
    let (mut timed, mut evals) = (0.0, 0);
    while timed < seconds {
        for (board, kids) in tree {
            stack.reset(board);
            black_box(stack.evaluate(board));
            let start = Instant::now();
            for (delta, child) in kids {
                stack.push(black_box(delta));
                black_box(stack.evaluate(child));
                stack.pop();
            }
            timed += start.elapsed().as_secs_f64();
            evals += kids.len();
        }
    }
    evals as f64 / timed
}

/// Fresh and incremental evaluations per second at H = 128 and 256, scalar and AVX2.
#[test]
#[ignore = "a benchmark: cargo test --release --lib nnue::tests::benchmark -- --ignored --nocapture"]
fn benchmark() {
    let boards = random_positions(500, 91);
    let tree = children(&boards);
    println!("hidden backend  fresh_ref/s  reset+eval/s  push+eval+pop/s");
    for hidden in [128, 256] {
        let params = random_params(hidden, 92, FEATURE_RANGE, OUTPUT_RANGE);
        for backend in backends() {
            let net = network(&params, backend);
            let fresh = rate(1.0, || {
                for board in &boards {
                    black_box(evaluate_fresh(&net, black_box(board)));
                }
                boards.len()
            });
            let mut stack = NnueStack::new(net.clone());
            let reset = rate(1.0, || {
                for board in &boards {
                    stack.reset(black_box(board));
                    black_box(stack.evaluate(board));
                }
                boards.len()
            });
            let incremental = incremental_rate(&mut stack, &tree, 2.0);
            println!(
                "{hidden:6} {:7} {fresh:12.0} {reset:13.0} {incremental:16.0}",
                format!("{backend:?}")
            );
        }
    }
}
