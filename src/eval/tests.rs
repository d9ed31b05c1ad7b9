//! Tests of the evaluation: colour symmetry, trace consistency, known positions, the report,
//! the parameter layout; plus an ignored speed benchmark.

use cozy_chess::{Board, BoardBuilder, Color};

use super::params::{idx, TEMPO};
use super::*;
use crate::playouts::random_playouts;

const PLAYOUT_FENS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "4rrk1/pp3ppp/2p5/3n4/3P4/2NB1Q2/PP3PPP/R4RK1 b - - 0 18",
];

/// Positions from random legal playouts of up to 120 plies from each of [`PLAYOUT_FENS`].
fn playout_positions(count: usize, seed: u64) -> Vec<Board> {
    let starts: Vec<Board> = PLAYOUT_FENS
        .iter()
        .filter_map(|fen| Board::from_fen(fen, false).ok())
        .collect();
    assert_eq!(starts.len(), PLAYOUT_FENS.len());
    random_playouts(&starts, count, seed, 120, 0)
}

/// `board` with ranks mirrored, colours swapped, side to move, castling and e.p. flipped.
fn flipped(board: &Board) -> Board {
    let original = BoardBuilder::from_board(board);
    let mut flip = original.clone();
    for (n, slot) in flip.board.iter_mut().enumerate() {
        *slot = original.board[n ^ 56].map(|(piece, color)| (piece, !color));
    }
    flip.side_to_move = !original.side_to_move;
    flip.castle_rights = [original.castle_rights[1], original.castle_rights[0]];
    flip.en_passant = original.en_passant.map(cozy_chess::Square::flip_rank);
    match flip.build() {
        Ok(board) => board,
        Err(e) => panic!("cannot flip {board}: {e:?}"),
    }
}

fn board(fen: &str) -> Board {
    match Board::from_fen(fen, false) {
        Ok(board) => board,
        Err(e) => panic!("bad test FEN {fen}: {e:?}"),
    }
}

fn white_view(board: &Board) -> i32 {
    match board.side_to_move() {
        Color::White => evaluate(board),
        Color::Black => -evaluate(board),
    }
}

#[test]
fn flipped_positions_score_the_same() {
    let positions = playout_positions(5000, 0x9E37_79B9_7F4A_7C15);
    let mut nonzero = 0;
    for pos in &positions {
        let flip = flipped(pos);
        assert_eq!(
            evaluate(pos),
            evaluate(&flip),
            "asymmetric: {pos} vs {flip}"
        );
        nonzero += usize::from(evaluate(pos) != 0);
    }
    assert!(nonzero > positions.len() / 2);
}

#[test]
fn coefficients_reproduce_the_evaluation() {
    for pos in playout_positions(3000, 0x1234_5678_9ABC_DEF1) {
        let coeffs = coefficients(&pos);
        assert_eq!(
            coeffs.white_eval(&WEIGHTS),
            white_view(&pos),
            "trace mismatch: {pos}"
        );
        assert!(coeffs.linear.windows(2).all(|w| w[0].0 < w[1].0));
    }
}

#[test]
fn start_position_is_tempo_only() {
    assert_eq!(evaluate(&Board::default()), TEMPO.mg());
    let black_to_move = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    assert_eq!(evaluate(&black_to_move), TEMPO.mg());
}

#[test]
fn extra_queen_scores_big() {
    let up = board("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(evaluate(&up) > 700, "{}", evaluate(&up));
    let down = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1");
    assert!(evaluate(&down) < -700, "{}", evaluate(&down));
}

#[test]
fn insufficient_material_is_near_zero() {
    for fen in [
        "8/8/4k3/8/8/3NK3/8/8 w - - 0 1",
        "8/8/4k3/8/8/3BK3/8/8 b - - 0 1",
        "8/8/4k3/8/8/2NNK3/8/8 w - - 0 1",
        "8/8/4k3/8/8/4K3/8/8 w - - 0 1",
    ] {
        assert!(
            evaluate(&board(fen)).abs() <= 10,
            "{fen}: {}",
            evaluate(&board(fen))
        );
    }
    // Not a draw: bishop and knight, and rook against a bare king.
    assert!(evaluate(&board("8/8/4k3/8/8/2NBK3/8/8 w - - 0 1")) > 300);
    assert!(evaluate(&board("8/8/4k3/8/8/3RK3/8/8 w - - 0 1")) > 300);
}

#[test]
fn small_pawnless_edges_and_opposite_bishops_are_scaled() {
    let rook_vs_bishop = board("8/8/4k3/3b4/8/3RK3/8/8 w - - 0 1");
    assert!((0..60).contains(&evaluate(&rook_vs_bishop)));
    let ocb = coefficients(&board("8/5k2/3b4/4p3/2P1P3/3B4/5K2/8 w - - 0 1"));
    assert_eq!(ocb.scale, params::SCALE_OCB_PURE);
}

/// The White-minus-Black count of weight `index` in `fen`.
fn coeff(fen: &str, index: usize) -> i32 {
    coefficients(&board(fen))
        .linear
        .iter()
        .find(|&&(i, _)| i == index)
        .map_or(0, |&(_, n)| n)
}

#[test]
fn pawn_terms_are_detected() {
    // White a2, c2, c3, d4 against Black h7: a2 and h7 isolated, c2 doubled behind c3;
    // passed: a2 and h7 (relative rank 1 each), c3, d4 (c2 is behind its own pawn).
    let fen = "4k3/7p/8/8/3P4/2P5/P1P5/4K3 w - - 0 1";
    assert_eq!(coeff(fen, idx::PAWN_ISOLATED), 0);
    assert_eq!(coeff(fen, idx::PAWN_DOUBLED), 1);
    assert_eq!(coeff(fen, idx::PASSED_RANK + 1), 0);
    assert_eq!(coeff(fen, idx::PASSED_RANK + 2), 1);
    assert_eq!(coeff(fen, idx::PASSED_RANK + 3), 1);
    // d3 cannot be supported by c4/e4 and c5 attacks d4: backward. d3 defends c4 and e4.
    let fen = "4k3/8/8/2p5/2P1P3/3P4/8/4K3 w - - 0 1";
    assert_eq!(coeff(fen, idx::PAWN_BACKWARD), 1);
    assert_eq!(coeff(fen, idx::PAWN_SUPPORTED + 3), 2);
    assert_eq!(
        coeff("4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1", idx::PAWN_PHALANX + 3),
        2
    );
}

#[test]
fn piece_terms_are_detected() {
    // White rooks: d1 on an open file, b1 on a file with only a black pawn.
    let fen = "1k6/1p4p1/8/8/8/8/6P1/1R1R2K1 w - - 0 1";
    assert_eq!(coeff(fen, idx::PIECE_ROOK_OPEN_FILE), 1);
    assert_eq!(coeff(fen, idx::PIECE_ROOK_SEMI_OPEN_FILE), 1);
    // Knight on e5 defended by d4, no black pawn on d- or f-files to chase it.
    let fen = "4k3/pp4pp/8/4N3/3P4/8/PP4PP/4K3 w - - 0 1";
    assert_eq!(coeff(fen, idx::PIECE_KNIGHT_OUTPOST), 1);
    // A black knight attacked by a pawn, hanging.
    let fen = "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1";
    assert_eq!(coeff(fen, idx::THREAT_BY_PAWN), 1);
    assert_eq!(coeff(fen, idx::THREAT_HANGING), 1);
}

#[test]
fn report_ends_with_the_final_evaluation() {
    for pos in playout_positions(200, 77)
        .iter()
        .chain([Board::default()].iter())
    {
        let text = report(pos);
        let last = text.lines().last().unwrap_or_default();
        let expected = format!("Final evaluation: {:+} cp (white side)", white_view(pos));
        assert_eq!(last, expected, "{text}");
        assert!(text.contains("Mobility") && text.contains("King danger"));
    }
    // In the start position every term cancels but the tempo, at full middlegame phase.
    let start = format!("Final evaluation: {:+} cp (white side)", TEMPO.0);
    assert!(report(&Board::default()).ends_with(&start));
}

#[test]
fn params_file_is_in_generated_format() {
    assert_eq!(to_source(&WEIGHTS), include_str!("params.rs"));
    let total: usize = ENTRIES.iter().map(|e| e.len).sum();
    assert_eq!(total, NUM_PARAMS);
    assert_eq!(name(idx::TEMPO), "TEMPO");
    assert_eq!(name(idx::MOBILITY_KNIGHT + 3), "MOBILITY_KNIGHT[3]");
    assert_eq!(WEIGHTS[idx::TEMPO], TEMPO);
    assert!(as_table(&WEIGHTS[..]).is_some() && as_table(&WEIGHTS[1..]).is_none());
}

/// Best-of-seven time per call of `f` over `positions`, in nanoseconds.
fn time_per_call(positions: &[Board], f: &dyn Fn(&Board) -> i32) -> f64 {
    use std::hint::black_box;
    use std::time::Instant;

    let rounds = (200_000 / positions.len().max(1)).max(1);
    let mut best = f64::MAX;
    for _ in 0..7 {
        let start = Instant::now();
        let mut sum = 0i64;
        for _ in 0..rounds {
            for pos in positions {
                sum += i64::from(f(black_box(pos)));
            }
        }
        black_box(sum);
        let per_call = start.elapsed().as_nanos() as f64 / (rounds * positions.len()) as f64;
        best = best.min(per_call);
    }
    best
}

#[test]
#[ignore = "benchmark: cargo test --release --lib eval:: -- --ignored --nocapture"]
fn bench_evaluate() {
    let count = std::env::var("EVAL_BENCH_N")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(20_000);
    let positions = playout_positions(count, 0xDEAD_BEEF);
    let full = time_per_call(&positions, &|b| evaluate(b));
    // The part a pawn hash table could skip on a hit: the pawn-structure terms.
    let pawns_only = time_per_call(&positions, &|b| {
        let pos = snapshot::Snapshot::new(b);
        let mut tracer = NoTrace;
        let mut acc = acc::Acc::new(&WEIGHTS, &mut tracer);
        pawns::evaluate(&mut acc, &pos, Color::White);
        pawns::evaluate(&mut acc, &pos, Color::Black);
        acc.linear().0
    });
    let snapshot_only = time_per_call(&positions, &|b| {
        snapshot::Snapshot::new(b).occupied.count_ones() as i32
    });
    println!(
        "evaluate: {full:.1} ns/eval over {} playout positions (best of 7); pawn structure \
         alone {pawns_only:.1} ns including a {snapshot_only:.1} ns board snapshot",
        positions.len()
    );
}
