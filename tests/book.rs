//! The `OwnBook` and `BookFile` options against the real `cutoff` binary: a small Polyglot
//! book is written to a temporary file, loaded, and played from.

mod common;

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::thread;
use std::time::Duration;

use cozy_chess::Board;
use cutoff::book::{encode_move, polyglot_key, Entry};

use common::{is_error, is_search_info, parse_bestmove, EngineProcess, TIMEOUT};

/// The book's moves for the start position: `(move, weight)`; weight 0 is never played.
const START_MOVES: [(&str, u16); 3] = [("e2e4", 3), ("d2d4", 1), ("g1f3", 0)];
/// The start moves that may be played.
const PLAYABLE: [&str; 2] = ["e2e4", "d2d4"];
/// The book's reply to 1. e4.
const REPLY_TO_E4: &str = "c7c5";

/// A file in the temporary directory, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, bytes: &[u8]) -> TempFile {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let unique = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!(
            "cutoff-book-test-{}-{unique}-{name}",
            std::process::id()
        ));
        std::fs::write(&path, bytes).unwrap();
        TempFile(path)
    }

    fn path(&self) -> String {
        self.0.display().to_string()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The test book: [`START_MOVES`] and [`REPLY_TO_E4`], sorted by key.
fn write_book() -> TempFile {
    let start = Board::default();
    let mut after_e4 = Board::default();
    after_e4.play("e2e4".parse().unwrap());
    let entry = |board: &Board, uci: &str, weight: u16| Entry {
        key: polyglot_key(board),
        raw_move: encode_move(uci.parse().unwrap()),
        weight,
        learn: 0,
    };
    let mut entries: Vec<Entry> = START_MOVES
        .iter()
        .map(|&(uci, weight)| entry(&start, uci, weight))
        .collect();
    entries.push(entry(&after_e4, REPLY_TO_E4, 5));
    entries.sort_by_key(|entry| entry.key);
    let bytes: Vec<u8> = entries.iter().flat_map(Entry::to_bytes).collect();
    TempFile::new("book.bin", &bytes)
}

/// An engine with `book` loaded (checked: no error, one confirmation line).
fn start_with_book(book: &TempFile) -> EngineProcess {
    let mut engine = EngineProcess::start();
    engine.send(&format!("setoption name BookFile value {}", book.path()));
    let answer = engine.sync();
    if answer.len() != 1 || !answer[0].starts_with("info string book ") {
        engine.fail(&format!("loading the book: unexpected answer {answer:?}"));
    }
    engine
}

/// Sends `go` and returns the lines up to the bestmove and the move; checks that no
/// second bestmove follows.
#[track_caller]
fn go(engine: &mut EngineProcess, command: &str) -> (Vec<String>, String) {
    engine.send(command);
    let lines = engine.read_until_bestmove(TIMEOUT);
    let (best, _) = parse_bestmove(lines.last().unwrap())
        .unwrap_or_else(|| engine.fail("malformed bestmove line"));
    let after = engine.sync();
    if after.iter().any(|l| l.starts_with("bestmove")) {
        engine.fail("a second bestmove followed");
    }
    (lines, best)
}

/// Checks that `go` was answered from the book: `info string book move <m>` and
/// `bestmove <m>` only, `m` among `allowed`.
#[track_caller]
fn assert_book_move(engine: &EngineProcess, lines: &[String], best: &str, allowed: &[&str]) {
    if !allowed.contains(&best) {
        engine.fail(&format!(
            "bestmove {best} is not among the book moves {allowed:?}"
        ));
    }
    let expected = [
        format!("info string book move {best}"),
        format!("bestmove {best}"),
    ];
    if lines != expected {
        engine.fail(&format!("expected {expected:?}, got {lines:?}"));
    }
}

/// Checks that `go` was answered by a search, not from the book.
#[track_caller]
fn assert_searched(engine: &EngineProcess, lines: &[String]) {
    if lines.iter().any(|l| l.starts_with("info string book move")) {
        engine.fail("the book was used");
    }
    if !lines
        .iter()
        .any(|l| is_search_info(l) && l.contains(" depth "))
    {
        engine.fail("no `info depth` line: the engine did not search");
    }
}

#[test]
fn uci_declares_the_book_options() {
    let mut engine = EngineProcess::start();
    engine.send("uci");
    let lines = engine.read_until(|l| l == "uciok", TIMEOUT);
    for option in [
        "option name OwnBook type check default false",
        "option name BookFile type string default <empty>",
    ] {
        if !lines.iter().any(|l| l == option) {
            engine.fail(&format!("`{option}` missing"));
        }
    }
}

#[test]
fn game_moves_come_from_the_book_when_own_book_is_on() {
    let book = write_book();
    let mut engine = start_with_book(&book);
    engine.send("setoption name OwnBook value true");
    engine.send("position startpos");
    for _ in 0..10 {
        let (lines, best) = go(&mut engine, "go wtime 1000 btime 1000");
        assert_book_move(&engine, &lines, &best, &PLAYABLE);
    }
    let (lines, best) = go(&mut engine, "go movetime 100");
    assert_book_move(&engine, &lines, &best, &PLAYABLE);
    engine.send("position startpos moves e2e4");
    let (lines, best) = go(&mut engine, "go btime 1000 winc 10 binc 10 movestogo 20");
    assert_book_move(&engine, &lines, &best, &[REPLY_TO_E4]);
    // Out of book: a normal search.
    engine.send("position startpos moves e2e4 c7c5");
    let (lines, _) = go(&mut engine, "go wtime 1000 btime 1000");
    assert_searched(&engine, &lines);
}

#[test]
fn the_engine_searches_when_own_book_is_off() {
    let book = write_book();
    let mut engine = start_with_book(&book);
    engine.send("position startpos");
    let (lines, _) = go(&mut engine, "go wtime 1000 btime 1000");
    assert_searched(&engine, &lines);
    // Turned on and off again.
    engine.send("setoption name OwnBook value true");
    engine.send("setoption name OwnBook value false");
    let (lines, _) = go(&mut engine, "go wtime 1000 btime 1000");
    assert_searched(&engine, &lines);
}

#[test]
fn a_bad_book_file_is_refused_and_the_old_book_kept() {
    let book = write_book();
    let seventeen_bytes = TempFile::new("bad.bin", &[0; 17]);
    let mut engine = start_with_book(&book);
    engine.send("setoption name OwnBook value true");
    // /dev/zero is no regular file: refused before reading (a device never ends).
    for bad in [
        "/nonexistent".to_string(),
        seventeen_bytes.path(),
        "/dev/zero".into(),
    ] {
        engine.send(&format!("setoption name BookFile value {bad}"));
        let answer = engine.sync();
        if answer.len() != 1 || !is_error(&answer[0]) || !answer[0].contains(&bad) {
            engine.fail(&format!(
                "`{bad}`: expected one error naming it, got {answer:?}"
            ));
        }
    }
    engine.send("position startpos");
    let (lines, best) = go(&mut engine, "go wtime 1000 btime 1000");
    assert_book_move(&engine, &lines, &best, &PLAYABLE);
    // An empty value unloads the book.
    engine.send("setoption name BookFile value <empty>");
    if !engine.sync().is_empty() {
        engine.fail("unloading the book was answered");
    }
    let (lines, _) = go(&mut engine, "go wtime 1000 btime 1000");
    assert_searched(&engine, &lines);
}

#[test]
fn analysis_requests_search_even_in_book() {
    let book = write_book();
    let mut engine = start_with_book(&book);
    engine.send("setoption name OwnBook value true");
    engine.send("position startpos");
    let (lines, _) = go(&mut engine, "go depth 3");
    assert_searched(&engine, &lines);
    let (lines, _) = go(
        &mut engine,
        "go wtime 1000 btime 1000 searchmoves g1f3 b1c3",
    );
    assert_searched(&engine, &lines);

    engine.send("go infinite");
    let early = engine.read_until(|l| is_search_info(l) || l.starts_with("bestmove"), TIMEOUT);
    thread::sleep(Duration::from_millis(200));
    let later = engine.sync();
    if let Some(line) = early
        .iter()
        .chain(&later)
        .find(|l| l.starts_with("bestmove") || l.starts_with("info string book"))
    {
        engine.fail(&format!("`go infinite` answered before stop: {line}"));
    }
    engine.send("stop");
    let lines = engine.read_until_bestmove(TIMEOUT);
    if lines.iter().any(|l| l.starts_with("info string book")) {
        engine.fail("the book was used for `go infinite`");
    }
    if engine.sync().iter().any(|l| l.starts_with("bestmove")) {
        engine.fail("a second bestmove followed");
    }
}
