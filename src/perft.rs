//! perft: counts the leaf nodes of the legal move tree, to prove move generation.
//!
//! * [`perft`]: plain single-threaded count with bulk counting at the last ply; it
//!   allocates nothing, so it is the reference the test suites run.
//! * [`divide`]: the per-root-move counts of `go perft`, with the root moves shared out
//!   over the machine's threads and, from depth 5, a [`PerftTable`] shared by the
//!   threads (startpos perft 6 on one thread: 0.22 s with it, 0.55 s without).
//! * [`divide_report`]: the divide as text, in Stockfish's format.

use std::fmt::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use cozy_chess::{Board, File, Move, Piece, Square};
use protocol::UciMove;

use crate::position::{legal_moves, to_uci};

/// The deepest perft the `perft` command runs (depth 15 from the start position is
/// already about 2 * 10^21 nodes).
pub const MAX_DEPTH: u32 = 15;

/// The number of leaf nodes of the legal move tree of `board` at `depth` plies
/// (`depth` 0 counts the position itself). Single-threaded, allocates nothing.
pub fn perft(board: &Board, depth: u32) -> u64 {
    perft_until(board, depth, None, &NEVER)
}

/// [`perft`] that looks up and stores subtree counts in `table` (which may be shared by
/// several threads running perfts at once, even from different roots).
pub fn perft_with_table(board: &Board, depth: u32, table: &PerftTable) -> u64 {
    perft_until(board, depth, Some(table), &NEVER)
}

/// A stop flag that is never raised, for counts nobody interrupts.
static NEVER: AtomicBool = AtomicBool::new(false);

/// Perft of `board` (with `table` if given), abandoned once `stop` is raised: the count
/// is then partial, and the caller must not use it.
fn perft_until(board: &Board, depth: u32, table: Option<&PerftTable>, stop: &AtomicBool) -> u64 {
    match (depth, table) {
        (0, _) => 1,
        (1, _) => count_moves(board),
        (_, Some(table)) => hashed_inner(board, depth, table, stop),
        (_, None) => perft_inner(board, depth, stop),
    }
}

/// Bulk counting: the number of legal moves, without playing them.
#[inline(always)]
fn count_moves(board: &Board) -> u64 {
    let mut n = 0u64;
    board.generate_moves(|moves| {
        n += moves.len() as u64;
        false
    });
    n
}

/// `depth >= 2`.
fn perft_inner(board: &Board, depth: u32, stop: &AtomicBool) -> u64 {
    // Checked where a subtree is worth hundreds of leaves: a stop is seen within
    // microseconds, at no measurable cost.
    if depth >= 3 && stop.load(Ordering::Relaxed) {
        return 0;
    }
    let mut nodes = 0u64;
    board.generate_moves(|moves| {
        for mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            nodes += if depth == 2 {
                count_moves(&child)
            } else {
                perft_inner(&child, depth - 1, stop)
            };
        }
        false
    });
    nodes
}

/// `depth >= 2`. Every node of depth >= 2 is looked up: a hit saves at least a
/// depth-2 subtree (some 30 moves played and 30 move generations), a miss costs one
/// cache miss.
fn hashed_inner(board: &Board, depth: u32, table: &PerftTable, stop: &AtomicBool) -> u64 {
    if depth >= 3 && stop.load(Ordering::Relaxed) {
        return 0;
    }
    let hash = tree_hash(board);
    if let Some(nodes) = table.probe(hash, depth) {
        return nodes;
    }
    let mut nodes = 0u64;
    board.generate_moves(|moves| {
        for mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            nodes += if depth == 2 {
                count_moves(&child)
            } else {
                hashed_inner(&child, depth - 1, table, stop)
            };
        }
        false
    });
    // A count cut short by a stop is wrong: never keep it.
    if stop.load(Ordering::Relaxed) {
        return 0;
    }
    table.store(hash, depth, nodes);
    nodes
}

/// The position's Zobrist hash, with the en-passant file only when a pawn of the side
/// to move stands next to the pawn that just moved two squares. cozy-chess records
/// the en-passant file after every double push, so without this `1. e4 e6 2. d4` and
/// `1. d4 e6 2. e4` would not transpose; when no pawn can capture, the en-passant
/// square changes nothing in the tree below.
#[inline(always)]
fn tree_hash(board: &Board) -> u64 {
    match board.en_passant() {
        Some(file) => {
            let us = board.side_to_move();
            let rank = cozy_chess::Rank::Fifth.relative_to(us);
            let target = Square::new(file, rank).bitboard();
            let ours = board.colored_pieces(us, Piece::Pawn) & rank.bitboard();
            let neighbours =
                ((target & !File::A.bitboard()).0 >> 1) | ((target & !File::H.bitboard()).0 << 1);
            if ours.0 & neighbours != 0 {
                board.hash()
            } else {
                board.hash_without_ep()
            }
        }
        None => board.hash(),
    }
}

/// A lock-free table of perft subtree counts keyed by (position hash, depth), which
/// threads share without locks. Buckets of two entries: one keeps the deepest count
/// stored there, the other the latest. Each entry is two words, `key ^ data` and
/// `data` (`data` = count << 8 | depth), so an entry torn by a concurrent write never
/// matches a hash. A wrong count needs two positions of one tree with the same 64-bit
/// Zobrist hash (which covers pieces, side to move, castling rook files and, when a
/// pawn could capture there, the en-passant file: see `tree_hash`).
pub struct PerftTable {
    entries: Box<[[AtomicU64; 2]]>,
    /// `entries.len() - 2`: bucket index mask, always even.
    mask: usize,
}

impl PerftTable {
    /// Smallest and largest sizes, in log2 of the number of entries (16 bytes each).
    const MIN_LOG2: u32 = 10;
    const MAX_LOG2: u32 = 22;

    /// A table of `2^log2_entries` entries of 16 bytes (clamped to 16 KiB..64 MiB).
    pub fn new(log2_entries: u32) -> PerftTable {
        let n = 1usize << log2_entries.clamp(Self::MIN_LOG2, Self::MAX_LOG2);
        PerftTable {
            entries: (0..n)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
            mask: n - 2,
        }
    }

    /// The table [`divide`] uses for a perft of `depth`: none below depth 5 (the table
    /// would cost more than it saves), then 1 MiB at depth 5, 4 MiB at depth 6, 16 MiB
    /// at depth 7 and 64 MiB from depth 8 (sizes measured on startpos perft 6 and 7).
    pub fn for_depth(depth: u32) -> Option<PerftTable> {
        (depth >= 5).then(|| PerftTable::new(2 * depth + 6))
    }

    /// The size in bytes.
    pub fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<[AtomicU64; 2]>()
    }

    #[inline(always)]
    fn probe(&self, hash: u64, depth: u32) -> Option<u64> {
        let bucket = hash as usize & self.mask;
        self.entries[bucket..bucket + 2].iter().find_map(|entry| {
            let key = entry[0].load(Ordering::Relaxed);
            let data = entry[1].load(Ordering::Relaxed);
            (key ^ data == hash && data & 0xff == u64::from(depth)).then_some(data >> 8)
        })
    }

    #[inline(always)]
    fn store(&self, hash: u64, depth: u32, nodes: u64) {
        // The entry holds 56 bits of count and 8 of depth (perft 12 of the start
        // position still fits); anything larger is simply not stored.
        if depth > 0xff || nodes >> 56 != 0 {
            return;
        }
        let bucket = hash as usize & self.mask;
        let deepest = self.entries[bucket][1].load(Ordering::Relaxed) & 0xff;
        // Keep the deepest count in the first entry; anything shallower goes second.
        let entry = &self.entries[bucket + usize::from(deepest > u64::from(depth))];
        let data = nodes << 8 | u64::from(depth);
        entry[0].store(hash ^ data, Ordering::Relaxed);
        entry[1].store(data, Ordering::Relaxed);
    }
}

/// perft of each legal move of `board` (`depth` >= 1; `depth` 0 gives an empty list),
/// in move-generation order, with moves written in UCI (castling king-takes-rook when
/// `chess960`, else `e1g1`). The root moves are shared out over
/// `std::thread::available_parallelism()` threads, which share a [`PerftTable`] from
/// depth 5 on.
pub fn divide(board: &Board, depth: u32, chess960: bool) -> Vec<(UciMove, u64)> {
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    divide_with(board, depth, chess960, threads, true)
}

/// [`divide`] on at most `threads` threads (0 or 1: on the calling thread only), with
/// a [`PerftTable`] sized by [`PerftTable::for_depth`] when `hash`.
pub fn divide_with(
    board: &Board,
    depth: u32,
    chess960: bool,
    threads: usize,
    hash: bool,
) -> Vec<(UciMove, u64)> {
    let (counted, _) = divide_until(board, depth, chess960, threads, hash, &NEVER);
    counted
}

/// [`divide_with`] that gives up once `stop` is raised: the root moves whose count was
/// completed, in move order, and whether every root move was counted.
pub fn divide_until(
    board: &Board,
    depth: u32,
    chess960: bool,
    threads: usize,
    hash: bool,
    stop: &AtomicBool,
) -> (Vec<(UciMove, u64)>, bool) {
    if depth == 0 {
        return (Vec::new(), true);
    }
    let moves = legal_moves(board);
    let table = if hash {
        PerftTable::for_depth(depth)
    } else {
        None
    };
    let counts = root_counts(board, &moves, depth - 1, threads, table.as_ref(), stop);
    let complete = counts.iter().all(Option::is_some);
    let counted = moves
        .iter()
        .zip(counts)
        .filter_map(|(&mv, n)| Some((to_uci(board, mv, chess960), n?)))
        .collect();
    (counted, complete)
}

/// Each root move's count at `depth`, on up to `threads` threads; `None` for a move whose
/// count a raised `stop` cut short (or never began).
fn root_counts(
    board: &Board,
    moves: &[Move],
    depth: u32,
    threads: usize,
    table: Option<&PerftTable>,
    stop: &AtomicBool,
) -> Vec<Option<u64>> {
    let child_count = |mv: Move| {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let mut child = board.clone();
        child.play_unchecked(mv);
        let nodes = perft_until(&child, depth, table, stop);
        (!stop.load(Ordering::Relaxed)).then_some(nodes)
    };
    let threads = threads.min(moves.len());
    if threads <= 1 || depth <= 2 {
        return moves.iter().map(|&mv| child_count(mv)).collect();
    }
    let next = AtomicUsize::new(0);
    // u64::MAX marks a count that was not completed.
    let counts: Vec<AtomicU64> = moves.iter().map(|_| AtomicU64::new(u64::MAX)).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&mv) = moves.get(i) else { break };
                if let Some(n) = child_count(mv) {
                    counts[i].store(n, Ordering::Relaxed);
                }
            });
        }
    });
    counts
        .into_iter()
        .map(|n| Some(n.into_inner()).filter(|&n| n != u64::MAX))
        .collect()
}

/// The total node count of a divide.
pub fn divide_total(divide: &[(UciMove, u64)]) -> u64 {
    divide.iter().map(|&(_, n)| n).sum()
}

/// The divide as Stockfish prints it for `go perft`: one `e2e4: 20` line per root move
/// in move-generation order, an empty line, then `Nodes searched: N`, with no newline
/// after that last line (print it with `println!`). At depth 0 there are no move lines
/// and N is 1 (the report is `"\nNodes searched: 1"`); Stockfish itself reads
/// `go perft 0` as an infinite search.
pub fn divide_report(board: &Board, depth: u32, chess960: bool) -> String {
    render_report(&divide(board, depth, chess960), depth)
}

/// The `go perft` report of a count that `stop` may interrupt (`threads` as
/// [`divide_with`]): the full report when it ran to the end; otherwise the root moves
/// counted so far, their total, and a line saying that it was stopped.
pub fn divide_report_until(
    board: &Board,
    depth: u32,
    chess960: bool,
    threads: usize,
    stop: &AtomicBool,
) -> String {
    let (counted, complete) = divide_until(board, depth, chess960, threads, true, stop);
    let mut report = render_report(&counted, depth);
    if !complete {
        let root_moves = legal_moves(board).len();
        let _ = write!(
            report,
            "\nperft stopped: {} of {root_moves} root moves counted",
            counted.len()
        );
    }
    report
}

/// The text of [`divide_report`] for a divide computed at `depth`.
pub fn render_report(divide: &[(UciMove, u64)], depth: u32) -> String {
    let total = if depth == 0 { 1 } else { divide_total(divide) };
    let mut out = String::with_capacity(divide.len() * 16 + 32);
    for (mv, n) in divide {
        let _ = writeln!(out, "{mv}: {n}");
    }
    let _ = write!(out, "\nNodes searched: {total}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::parse_fen;

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

    #[test]
    fn startpos() {
        let board = Board::default();
        let counts: Vec<u64> = (0..=4).map(|d| perft(&board, d)).collect();
        assert_eq!(counts, [1, 20, 400, 8902, 197_281]);
    }

    #[test]
    fn kiwipete() {
        for chess960 in [false, true] {
            let board = parse_fen(KIWIPETE, chess960).unwrap();
            let counts: Vec<u64> = (1..=4).map(|d| perft(&board, d)).collect();
            assert_eq!(counts, [48, 2039, 97_862, 4_085_603], "chess960={chess960}");
        }
    }

    #[test]
    fn table_gives_the_same_counts() {
        let table = PerftTable::new(12);
        assert_eq!(table.bytes(), 64 << 10);
        let board = parse_fen(KIWIPETE, false).unwrap();
        // Twice: the second run is answered mostly from the table.
        for _ in 0..2 {
            assert_eq!(perft_with_table(&board, 4, &table), 4_085_603);
            assert_eq!(perft_with_table(&board, 3, &table), 97_862);
        }
        assert_eq!(perft_with_table(&Board::default(), 5, &table), 4_865_609);
    }

    #[test]
    fn divide_startpos() {
        let board = Board::default();
        assert!(divide(&board, 0, false).is_empty());
        for (depth, total) in [(1, 20), (2, 400), (3, 8902), (5, 4_865_609)] {
            for (threads, hash) in [(1, false), (2, false), (2, true), (3, true)] {
                let div = divide_with(&board, depth, false, threads, hash);
                assert_eq!(div.len(), 20);
                assert_eq!(
                    divide_total(&div),
                    total,
                    "depth {depth}, {threads} threads"
                );
            }
        }
        let div = divide(&board, 2, false);
        let e2e4 = div.iter().find(|(mv, _)| mv.to_string() == "e2e4").unwrap();
        assert_eq!(e2e4.1, 20);
    }

    #[test]
    fn report_format() {
        let board = parse_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1", false).unwrap();
        let report = divide_report(&board, 1, false);
        assert!(report.contains("e1g1: 1\n"), "{report}");
        assert!(report.ends_with(": 1\n\nNodes searched: 15"), "{report}");
        let report = divide_report(&board, 1, true);
        assert!(report.contains("e1h1: 1\n"), "{report}");
        assert_eq!(divide_report(&board, 0, false), "\nNodes searched: 1");
    }
}
