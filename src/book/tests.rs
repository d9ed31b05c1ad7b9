//! Books written to temporary files, read back and probed.

use std::path::PathBuf;

use cozy_chess::{Board, Move};

use super::*;

/// A path in the temporary directory that no other test (or test run) uses.
fn temp_path(name: &str) -> PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let unique = COUNTER.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!(
        "cutoff-book-{}-{unique}-{name}",
        std::process::id()
    ))
}

/// Removes the file when dropped, so that failing tests clean up too.
struct TempFile(PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn write_file(name: &str, bytes: &[u8]) -> TempFile {
    let path = temp_path(name);
    std::fs::write(&path, bytes).unwrap();
    TempFile(path)
}

fn after(moves: &str) -> Board {
    let mut board = Board::default();
    for mv in moves.split_whitespace() {
        board.play(mv.parse().unwrap());
    }
    board
}

fn entry(board: &Board, uci: &str, weight: u16) -> Entry {
    Entry {
        key: polyglot_key(board),
        raw_move: encode_move(uci.parse().unwrap()),
        weight,
        learn: 0,
    }
}

/// Book file bytes for `entries`, sorted by key as the format requires.
fn book_bytes(mut entries: Vec<Entry>) -> Vec<u8> {
    entries.sort_by_key(|entry| entry.key);
    entries.iter().flat_map(Entry::to_bytes).collect()
}

fn moves(list: &[(&str, u16)]) -> Vec<(Move, u16)> {
    list.iter()
        .map(|&(uci, weight)| (uci.parse().unwrap(), weight))
        .collect()
}

/// Three start moves (one of weight 0, one illegal), two replies to 1. e4, and entries for
/// an unrelated key on either side of them.
fn sample_entries() -> Vec<Entry> {
    let start = Board::default();
    let e4 = after("e2e4");
    vec![
        entry(&start, "e2e4", 30),
        entry(&start, "d2d4", 10),
        entry(&start, "g1f3", 0),
        entry(&start, "e2e5", 50),
        entry(&e4, "c7c5", 2),
        entry(&e4, "e7e5", 1),
        Entry {
            key: 0,
            raw_move: 0,
            weight: 1,
            learn: 0,
        },
        Entry {
            key: u64::MAX,
            raw_move: 0,
            weight: 1,
            learn: 0,
        },
    ]
}

#[test]
fn probe_finds_exactly_the_legal_entries_of_the_position() {
    let file = write_file("sample.bin", &book_bytes(sample_entries()));
    let book = Book::open(&file.0).unwrap();
    assert_eq!(book.len(), 8);
    assert_eq!(
        book.probe(&Board::default()),
        moves(&[("e2e4", 30), ("d2d4", 10), ("g1f3", 0)])
    );
    assert_eq!(
        book.probe(&after("e2e4")),
        moves(&[("c7c5", 2), ("e7e5", 1)])
    );
    assert_eq!(book.probe(&after("d2d4")), vec![]);
}

#[test]
fn choose_draws_every_positive_weight_move_and_nothing_else() {
    let mut entries = sample_entries();
    entries.sort_by_key(|entry| entry.key);
    let book = Book::from_entries(entries).unwrap();
    let mut rng = SplitMix64::new(12345);
    let e4: Move = "e2e4".parse().unwrap();
    let d4: Move = "d2d4".parse().unwrap();
    let (mut e4_count, mut d4_count) = (0, 0);
    for _ in 0..4000 {
        match book.choose(&Board::default(), &mut rng) {
            Some(mv) if mv == e4 => e4_count += 1,
            Some(mv) if mv == d4 => d4_count += 1,
            other => panic!("unexpected choice {other:?}"),
        }
    }
    // Weights 30:10, so about 3000:1000.
    assert!((2700..3300).contains(&e4_count), "{e4_count}");
    assert!((700..1300).contains(&d4_count), "{d4_count}");
    assert_eq!(book.choose(&after("d2d4"), &mut rng), None);
}

#[test]
fn only_zero_weights_give_no_move() {
    let start = Board::default();
    let book = Book::from_entries(vec![entry(&start, "e2e4", 0)]).unwrap();
    assert_eq!(book.probe(&start).len(), 1);
    assert_eq!(book.choose(&start, &mut SplitMix64::new(1)), None);
}

#[test]
fn an_empty_book_is_valid_and_has_no_moves() {
    let file = write_file("empty.bin", &[]);
    let book = Book::open(&file.0).unwrap();
    assert!(book.is_empty());
    assert_eq!(book.probe(&Board::default()), vec![]);
}

#[test]
fn a_file_of_17_bytes_is_refused_with_its_name() {
    let mut bytes = book_bytes(vec![entry(&Board::default(), "e2e4", 1)]);
    bytes.push(0);
    let file = write_file("seventeen.bin", &bytes);
    let error = Book::open(&file.0).unwrap_err();
    assert!(
        matches!(error, BookError::Size { bytes: 17, .. }),
        "{error:?}"
    );
    let message = error.to_string();
    assert!(message.contains(&file.0.display().to_string()), "{message}");
}

#[test]
fn unsorted_entries_are_refused() {
    let mut entries = sample_entries();
    entries.sort_by_key(|e| std::cmp::Reverse(e.key));
    let file = write_file(
        "unsorted.bin",
        &entries
            .iter()
            .flat_map(Entry::to_bytes)
            .collect::<Vec<u8>>(),
    );
    assert!(matches!(
        Book::open(&file.0),
        Err(BookError::Unsorted { entry: 1, .. })
    ));
    assert!(Book::from_entries(entries).is_none());
}

#[test]
fn a_missing_file_is_a_read_error_naming_it() {
    let path = temp_path("does-not-exist.bin");
    let error = Book::open(&path).unwrap_err();
    assert!(matches!(error, BookError::Read { .. }), "{error:?}");
    assert!(error.to_string().contains(&path.display().to_string()));
}
