//! `genfens` as OpenBench's client runs it (`cutoff "genfens N seed S book B [extra]"
//! "quit"`), through the real binary: exactly N legal, playable, distinct positions, the
//! same ones for the same arguments, books in standard and Chess960 notation, errors that
//! print no position, `stop` over UCI, and the command line of several commands.

use std::collections::HashSet;
use std::process::Command;

use cozy_chess::{Board, Color};
use cutoff::position::parse_fen;

mod common;
use common::{EngineProcess, SHORT, TIMEOUT};

const PREFIX: &str = "info string genfens ";

/// Runs `cutoff <args>` to its end; returns its stdout lines. The exit status is 0
/// unless a command was refused (a bad line of a book is skipped, not refused).
fn cutoff(args: &[&str]) -> Vec<String> {
    let output = Command::new(common::binary()).args(args).output().unwrap();
    let refused = String::from_utf8_lossy(&output.stdout)
        .lines()
        .any(|line| common::is_error(line) && !line.contains("(line skipped)"));
    assert_eq!(
        output.status.success(),
        !refused,
        "cutoff {args:?}: {output:?}"
    );
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// The FENs printed by `cutoff "<command>" quit`, and the other lines.
fn genfens(command: &str) -> (Vec<String>, Vec<String>) {
    let (fens, others): (Vec<String>, Vec<String>) = cutoff(&[command, "quit"])
        .into_iter()
        .partition(|line| line.starts_with(PREFIX));
    let fens = fens
        .iter()
        .map(|line| line[PREFIX.len()..].to_string())
        .collect();
    (fens, others)
}

/// A path in tests/data.
fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Checks that each FEN is a legal position with six fields, a legal move for the side to
/// move and no check, that no two are the same position, and returns the boards.
fn check_playable(fens: &[String], chess960: bool) -> Vec<Board> {
    let mut seen = HashSet::new();
    fens.iter()
        .map(|fen| {
            assert_eq!(fen.split(' ').count(), 6, "not six fields: {fen}");
            let board = parse_fen(fen, chess960).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert!(board.generate_moves(|_| true), "no legal move: {fen}");
            assert!(board.checkers().is_empty(), "in check: {fen}");
            let position: Vec<&str> = fen.split(' ').take(4).collect();
            assert!(seen.insert(position.join(" ")), "repeated: {fen}");
            board
        })
        .collect()
}

/// The plies played since the start of the game, from the move counters.
fn plies(board: &Board) -> u16 {
    (board.fullmove_number() - 1) * 2 + u16::from(board.side_to_move() == Color::Black)
}

#[test]
fn start_position_openings_are_playable_distinct_and_reproducible() {
    let (fens, others) = genfens("genfens 60 seed 7 book None");
    assert_eq!(fens.len(), 60, "other lines: {others:?}");
    assert!(
        others.iter().all(|line| !common::is_error(line)),
        "{others:?}"
    );
    for board in check_playable(&fens, false) {
        assert!((8..=9).contains(&plies(&board)), "{board}");
    }
    assert_eq!(genfens("genfens 60 seed 7 book None").0, fens, "same seed");
    let other_seed: HashSet<String> = genfens("genfens 60 seed 8 book None")
        .0
        .into_iter()
        .collect();
    let shared = fens.iter().filter(|fen| other_seed.contains(*fen)).count();
    assert!(shared < 10, "seeds 7 and 8 share {shared} of 60 positions");
}

#[test]
fn extra_arguments_set_the_plies_and_the_balance_search() {
    let (fens, _) = genfens("genfens 20 seed 3 book None plies 4 nodes 300 maxscore 150");
    assert_eq!(fens.len(), 20);
    for board in check_playable(&fens, false) {
        assert!((4..=5).contains(&plies(&board)), "{board}");
    }
    // The extra arguments change the positions.
    assert_ne!(genfens("genfens 20 seed 3 book None").0, fens);
}

#[test]
fn a_standard_epd_book_gives_two_or_three_plies_from_its_positions() {
    let book = data("genfens-8moves.epd");
    let (fens, others) = genfens(&format!("genfens 30 seed 11 book {book}"));
    assert_eq!(fens.len(), 30, "other lines: {others:?}");
    // The book's positions have no move counters (move 1, White): after 2 or 3 plies
    // they are at move 2.
    let boards = check_playable(&fens, false);
    assert!(boards.iter().all(|board| board.fullmove_number() == 2));
    assert_eq!(genfens(&format!("genfens 30 seed 11 book {book}")).0, fens);
}

#[test]
fn a_chess960_book_in_x_fen_and_shredder_fen_works() {
    let book = data("genfens-frc.epd");
    let (fens, others) = genfens(&format!("genfens 40 seed 5 book {book}"));
    assert_eq!(fens.len(), 40, "other lines: {others:?}");
    assert!(
        others.iter().all(|line| !common::is_error(line)),
        "{others:?}"
    );
    let boards = check_playable(&fens, true);
    // Every start of the book has its king between its rooks off the e-file or its rooks
    // off the corners: some castling rights survive the few random plies and are written
    // so that a Chess960 reader takes them back.
    let with_castling = fens.iter().filter(|fen| fen.split(' ').nth(2) != Some("-"));
    assert!(with_castling.count() > 20);
    let standard_back_rank = "RNBQKBNR";
    for board in &boards {
        let rank: String = (0..8)
            .filter_map(|file| {
                let square = cozy_chess::Square::index(file);
                board
                    .piece_on(square)
                    .map(|piece| char::from(piece).to_ascii_uppercase())
            })
            .collect();
        assert_ne!(rank, standard_back_rank, "{board}");
    }
}

#[test]
fn bad_requests_print_an_error_and_no_position() {
    let dir = common::temp_dir("genfens", "bad");
    let empty = dir.join("empty.epd");
    std::fs::write(&empty, "# nothing\n\nnot a position\n").unwrap();
    let empty = empty.to_str().unwrap().to_string();
    for command in [
        "genfens",
        "genfens -1 seed 1 book None",
        "genfens x seed 1 book None",
        "genfens 5 seed -3 book None",
        "genfens 5 book None",
        "genfens 5 seed 1",
        "genfens 5 seed 1 book",
        "genfens 5 seed 1 book /nonexistent/book.epd",
        "genfens 5 seed 1 book /dev/zero",
        &format!("genfens 5 seed 1 book {empty}"),
        "genfens 5 seed 1 book None plies",
        "genfens 5 seed 1 book None plies -2",
        "genfens 5 seed 1 book None nodes 0",
        "genfens 5 seed 1 book None maxscore 99999",
        "genfens 5 seed 1 book None colour white",
        "genfens 99999999999 seed 1 book None",
    ] {
        let (fens, others) = genfens(command);
        assert!(fens.is_empty(), "{command}: {fens:?}");
        let errors: Vec<&String> = others.iter().filter(|l| common::is_error(l)).collect();
        assert_eq!(errors.len(), 1, "{command}: {others:?}");
    }
}

#[test]
fn a_bad_book_line_is_reported_and_skipped() {
    let dir = common::temp_dir("genfens", "bad-line");
    let book = dir.join("book.epd");
    let good = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -";
    std::fs::write(&book, format!("{good}\n8/8/8 w - -\n{good} 0 1\n")).unwrap();
    let (fens, others) = genfens(&format!("genfens 10 seed 2 book {}", book.display()));
    assert_eq!(fens.len(), 10, "{others:?}");
    let errors: Vec<&String> = others.iter().filter(|l| common::is_error(l)).collect();
    assert_eq!(errors.len(), 1, "{others:?}");
    assert!(
        errors[0].contains(":2:") && errors[0].contains("skipped"),
        "{errors:?}"
    );
    check_playable(&fens, false);
}

#[test]
fn stop_ends_a_long_genfens_and_the_engine_answers_meanwhile() {
    let mut engine = EngineProcess::start();
    engine.send("genfens 1000000 seed 1 book None");
    engine.expect_line(|line| line.starts_with(PREFIX), TIMEOUT);
    engine.send("isready");
    engine.expect_line(|line| line == "readyok", SHORT);
    engine.send("stop");
    let stopped = engine.expect_line(|line| line.contains("stopped: genfens printed"), TIMEOUT);
    assert!(stopped.ends_with("of 1000000 positions"), "{stopped}");
    engine.send("quit");
    engine.expect_exit_status_0();
}

#[test]
fn each_argument_with_a_space_is_a_command_and_one_word_arguments_are_one_command() {
    // Today's form: the arguments are one command.
    let perft = cutoff(&["go", "perft", "2"]);
    assert!(
        perft.iter().any(|l| l.contains("Nodes searched: 400")),
        "{perft:?}"
    );
    // Each argument a command, run in order, each to its end.
    let lines = cutoff(&["position startpos moves e2e4", "go perft 1", "perft 2"]);
    let totals: Vec<&String> = lines
        .iter()
        .filter(|l| l.contains("Nodes searched"))
        .collect();
    assert_eq!(totals.len(), 2, "{lines:?}");
    assert!(
        totals[0].ends_with(" 20") && totals[1].ends_with(" 600"),
        "{totals:?}"
    );
    // `quit` ends the list.
    let (fens, _) = genfens("genfens 3 seed 1 book None");
    assert_eq!(fens.len(), 3);
    let after_quit = cutoff(&[
        "genfens 2 seed 1 book None",
        "quit",
        "genfens 2 seed 2 book None",
    ]);
    assert_eq!(
        after_quit.iter().filter(|l| l.starts_with(PREFIX)).count(),
        2
    );
}
