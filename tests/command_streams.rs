//! Random streams of valid UCI commands, sent in one write without waiting for any
//! answer, as a script or a hasty GUI might: searches start while others run, `stop`,
//! `ponderhit` and `isready` arrive at any moment. Whatever the order and timing, every
//! `go` must be answered by exactly one `bestmove`, in order, legal in the position set
//! before that `go`, with no error and no hang.

mod common;

use std::cell::Cell;

use common::{is_error, parse_bestmove, EngineProcess, TIMEOUT};
use cutoff::rng::SplitMix64;

const POSITIONS: [&str; 4] = [
    "position startpos",
    "position startpos moves e2e4 e7e5 g1f3",
    "position fen 7k/8/8/8/8/8/8/K7 w - - 0 1",
    "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
];

const GOS: [&str; 8] = [
    "go depth 1",
    "go depth 4",
    "go nodes 500",
    "go movetime 10",
    "go wtime 300 btime 300 winc 10 binc 10",
    "go mate 1",
    "go infinite",
    "go ponder",
];

const OTHERS: [&str; 9] = [
    "stop",
    "isready",
    "ponderhit",
    "ucinewgame",
    "setoption name Hash value 2",
    "setoption name MultiPV value 2",
    "setoption name MultiPV value 1",
    "d",
    "perft 2",
];

/// Commands per stream, besides the first position and the closing `stop`.
const STREAM_LENGTH: usize = 30;
const STREAMS: u64 = 24;

#[test]
fn random_command_streams_answer_every_go_once_for_its_position() {
    for seed in 0..STREAMS {
        let mut rng = SplitMix64::new(seed);
        let mut position = POSITIONS[0];
        let mut script = vec![position];
        // The position each `go` searches, in the order of the `go`s.
        let mut searched = Vec::new();
        for _ in 0..STREAM_LENGTH {
            let line = match rng.below(10) {
                0..=1 => {
                    position = POSITIONS[rng.below(POSITIONS.len())];
                    position
                }
                2..=4 => {
                    searched.push(position);
                    GOS[rng.below(GOS.len())]
                }
                _ => OTHERS[rng.below(OTHERS.len())],
            };
            script.push(line);
        }
        let (mut engine, lines) = run_stream(seed, script, &searched);
        if let Some(error) = lines.iter().find(|l| is_error(l)) {
            engine.fail(&format!(
                "stream {seed}: a valid command was refused: {error}"
            ));
        }
        engine.send("quit");
        engine.expect_exit_status_0();
    }
}

/// Malformed `go` lines: each gets its error lines and still exactly one `bestmove`.
const BAD_GOS: [&str; 6] = [
    "go wtime abc btime 1000",
    "go movetime -5",
    "go depth 2 searchmoves zz",
    "go depth 3 searchmoves e2e4 a1a1",
    "go depth x nodes 300",
    "go nodes 400 bogus 7",
];

/// Long jobs that only a `stop` (or the end of the stream) ends.
const LONG_JOBS: [&str; 2] = ["go perft 7", "bench 30"];

/// Positions that must be refused, leaving the previous position in place.
const IMPOSSIBLE: [&str; 3] = [
    "position fen Kk6/8/8/8/8/8/8/8 w - - 0 1",
    "position fen 8/8/8/3kK3/8/8/8/8 b - - 0 1",
    "position fen 4k3/8/8/8/8/8/8/4Q1K1 w - - 0 1",
];

/// The same promise with hostile streams mixed in: malformed `go` lines, `stop` during
/// `perft` and `bench`, impossible FENs. After every stream the engine answers `isready`,
/// has answered every `go` once with a move legal where it was sent, and still plays.
#[test]
fn hostile_streams_still_answer_every_go_once() {
    for seed in 100..100 + STREAMS / 2 {
        let mut rng = SplitMix64::new(seed);
        let mut position = POSITIONS[0];
        let mut script = vec![position];
        let mut searched = Vec::new();
        for _ in 0..STREAM_LENGTH {
            let line = match rng.below(12) {
                0 => {
                    position = POSITIONS[rng.below(POSITIONS.len())];
                    position
                }
                // Refused: `position` stays what it was.
                1 => IMPOSSIBLE[rng.below(IMPOSSIBLE.len())],
                2..=3 => {
                    searched.push(position);
                    GOS[rng.below(GOS.len())]
                }
                4..=6 => {
                    searched.push(position);
                    BAD_GOS[rng.below(BAD_GOS.len())]
                }
                7 => LONG_JOBS[rng.below(LONG_JOBS.len())],
                8..=9 => "stop",
                _ => OTHERS[rng.below(OTHERS.len())],
            };
            script.push(line);
        }
        let (mut engine, _) = run_stream(seed, script, &searched);
        // Still playing.
        engine.send("position startpos moves e2e4");
        engine.send("go depth 3");
        let lines = engine.read_until_bestmove(TIMEOUT);
        let best = lines.last().and_then(|l| parse_bestmove(l)).map(|(b, _)| b);
        let legal = engine.legal_moves();
        if !best.as_ref().is_some_and(|b| legal.contains(b)) {
            engine.fail(&format!(
                "stream {seed}: no legal move afterwards: {best:?}"
            ));
        }
        engine.send("quit");
        engine.expect_exit_status_0();
    }
}

/// Sends `script` in one write, closed by `stop` (which ends whatever still runs or
/// waits) and `isready` (whose `readyok` is the last line the engine prints), and checks
/// that every `go` got one `bestmove`, legal in the position it was sent for
/// (`searched`, in order). Returns the engine and everything it printed.
fn run_stream(seed: u64, mut script: Vec<&str>, searched: &[&str]) -> (EngineProcess, Vec<String>) {
    script.extend(["stop", "isready"]);
    let readies = script.iter().filter(|&&line| line == "isready").count();
    let mut engine = EngineProcess::start();
    engine.send(&script.join("\n"));
    let seen = Cell::new(0);
    let lines = engine.read_until(
        |line| {
            if line == "readyok" {
                seen.set(seen.get() + 1);
            }
            seen.get() == readies
        },
        TIMEOUT,
    );
    let answers: Vec<String> = lines
        .iter()
        .filter_map(|l| parse_bestmove(l))
        .map(|(best, _)| best)
        .collect();
    if answers.len() != searched.len() {
        engine.fail(&format!(
            "stream {seed}: {} go commands, {} bestmoves",
            searched.len(),
            answers.len()
        ));
    }
    for (index, (best, position)) in answers.iter().zip(searched).enumerate() {
        engine.send(position);
        let legal = engine.legal_moves();
        if !legal.contains(best) {
            engine.fail(&format!(
                "stream {seed}: bestmove {best} of go number {index} is not legal \
                 after `{position}`"
            ));
        }
    }
    (engine, lines)
}

/// Streams that end with `quit` or with the end of input instead of `stop`, `go mate 2`
/// (in a rook ending without such a mate) among their searches: every `go` read before the end
/// still has its one `bestmove`, and the engine exits with status 0 without hanging.
#[test]
fn streams_ending_in_quit_or_end_of_input_answer_every_go() {
    for seed in 200..200 + STREAMS / 2 {
        let mut rng = SplitMix64::new(seed);
        let mut script = vec![POSITIONS[0]];
        let mut gos = 0;
        for _ in 0..STREAM_LENGTH {
            let line = match rng.below(10) {
                0..=1 => POSITIONS[rng.below(POSITIONS.len())],
                2..=3 => {
                    gos += 1;
                    GOS[rng.below(GOS.len())]
                }
                4 => {
                    // A position quick to search to the 19 plies of a mate in 2 not found.
                    script.push("position fen 8/8/2k5/r7/8/5K2/6R1/8 w - - 0 1");
                    gos += 1;
                    "go mate 2"
                }
                _ => OTHERS[rng.below(OTHERS.len())],
            };
            script.push(line);
        }
        let by_quit = seed % 2 == 0;
        if by_quit {
            script.push("quit");
        }
        let mut engine = EngineProcess::start();
        engine.send(&script.join("\n"));
        if !by_quit {
            engine.close_stdin();
        }
        let lines = engine.read_to_end(TIMEOUT);
        let answers = lines.iter().filter(|l| parse_bestmove(l).is_some()).count();
        if answers != gos {
            engine.fail(&format!(
                "stream {seed}: {gos} go commands, {answers} bestmoves"
            ));
        }
        engine.expect_exit_status_0();
    }
}
