//! Polyglot opening books (`.bin` files): the whole file is read into memory, probed by
//! binary search on the position's Polyglot key, and a move is drawn at random in
//! proportion to the entries' weights. The format is described at
//! <http://hgm.nubati.net/book_format.html>.

mod entry;
mod key;
mod moves;
mod random;

#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

use cozy_chess::{Board, Move};
use protocol::quote_up_to;

use crate::rng::SplitMix64;

pub use entry::{Entry, ENTRY_BYTES};
pub use key::polyglot_key;
pub use moves::{decode_legal_move, decode_move, encode_move};

/// A Polyglot book held in memory, its entries sorted by key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Book {
    entries: Vec<Entry>,
}

/// Why a book file was refused.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The file could not be read.
    #[error("cannot read the book {}: {source}", quote_path(.path))]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The file's size is not a whole number of 16-byte entries.
    #[error("{} is not a Polyglot book: its size ({bytes} bytes) is not a multiple of {ENTRY_BYTES}", quote_path(.path))]
    Size { path: PathBuf, bytes: usize },
    /// The entries are not sorted by key, so they cannot be searched.
    #[error("{} is not a Polyglot book: entry {entry} is out of key order", quote_path(.path))]
    Unsorted { path: PathBuf, entry: usize },
}

/// The most characters of a book's path that an error quotes: enough for any real path,
/// short enough for one line.
const PATH_QUOTE_LIMIT: usize = 300;

/// A book's path as an error quotes it.
fn quote_path(path: &std::path::Path) -> String {
    quote_up_to(&path.display().to_string(), PATH_QUOTE_LIMIT).to_string()
}

impl Book {
    /// Reads and checks the whole book file at `path`.
    pub fn open(path: impl AsRef<Path>) -> Result<Book, BookError> {
        let path = path.as_ref();
        let bytes =
            crate::file_error::read_regular_file(path).map_err(|source| BookError::Read {
                path: path.to_path_buf(),
                source,
            })?;
        Book::from_bytes(&bytes).map_err(|error| match error {
            ParseError::Size => BookError::Size {
                path: path.to_path_buf(),
                bytes: bytes.len(),
            },
            ParseError::Unsorted(entry) => BookError::Unsorted {
                path: path.to_path_buf(),
                entry,
            },
        })
    }

    fn from_bytes(bytes: &[u8]) -> Result<Book, ParseError> {
        let (records, rest) = bytes.as_chunks::<ENTRY_BYTES>();
        if !rest.is_empty() {
            return Err(ParseError::Size);
        }
        let entries: Vec<Entry> = records.iter().map(Entry::from_bytes).collect();
        if let Some(out_of_order) = entries.windows(2).position(|w| w[0].key > w[1].key) {
            return Err(ParseError::Unsorted(out_of_order + 1));
        }
        Ok(Book { entries })
    }

    /// A book of `entries`, which must be sorted by key (for tests and tools that write
    /// books); `None` if they are not.
    pub fn from_entries(entries: Vec<Entry>) -> Option<Book> {
        let sorted = entries.windows(2).all(|w| w[0].key <= w[1].key);
        sorted.then_some(Book { entries })
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no entries at all.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The legal moves the book gives for `board` with their weights, in book order.
    /// Illegal or corrupt entries are left out.
    pub fn probe(&self, board: &Board) -> Vec<(Move, u16)> {
        let key = polyglot_key(board);
        let first = self.entries.partition_point(|entry| entry.key < key);
        self.entries[first..]
            .iter()
            .take_while(|entry| entry.key == key)
            .filter_map(|entry| {
                decode_legal_move(board, entry.raw_move).map(|mv| (mv, entry.weight))
            })
            .collect()
    }

    /// A book move for `board`, drawn at random with probability proportional to its
    /// weight; moves of weight 0 are never played. `None` if the book has no such move.
    pub fn choose(&self, board: &Board, rng: &mut SplitMix64) -> Option<Move> {
        let candidates = self.probe(board);
        let total: u64 = candidates.iter().map(|&(_, w)| u64::from(w)).sum();
        let mut ticket = rng.below(usize::try_from(total).ok().filter(|&t| t > 0)?) as u64;
        for (mv, weight) in candidates {
            if ticket < u64::from(weight) {
                return Some(mv);
            }
            ticket -= u64::from(weight);
        }
        None
    }
}

/// A book's bytes that do not form a book (the caller adds the file name).
enum ParseError {
    Size,
    Unsorted(usize),
}
