//! The transposition table, shared by the search threads without a lock.
//!
//! # Layout
//!
//! The table is an array of 64-byte [`Cluster`]s (one cache line each), every cluster
//! holding four [`Slot`]s of two `AtomicU64`: the packed entry (`data`) and `key ^ data`.
//! A reader accepts a slot only if the two words xor back to the key it asks for, so a
//! slot torn by two threads writing at once reads as a miss rather than as a mix of two
//! entries (the "lockless hashing" trick of Hyatt and Mann). All atomics are `Relaxed`:
//! the table is a cache, and a lost or stale entry only costs search effort.
//!
//! `data` packs, from the low bits up: the move (16 bits, see [`pack_move`]), the score
//! and the static eval (`i16` each), the depth offset by [`DEPTH_OFFSET`] (8 bits), the
//! bound (2 bits, never 0 in a filled slot, so `data == 0` means empty) and the
//! generation (6 bits) of the search that wrote it.
//!
//! # Replacement
//!
//! A store goes to the slot already holding its key, else to an empty slot, else to the
//! slot of least value, valued as its depth minus [`AGE_WEIGHT`] per search since it was
//! written: old entries go first, then shallow ones. An entry for the same key is
//! overwritten by an exact bound, by a result not much shallower, or when it is from an
//! earlier search.
//!
//! A hit is a 64-bit key match, so a false hit is very rare but possible: the move of an
//! entry must be checked for legality before it is played.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

use cozy_chess::{Move, Piece, Square};

use crate::score::{is_mate, MATE, TB_WIN_BOUND, UNPROVEN};

/// How a stored score bounds the true score of its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact (a PV node).
    Exact,
    /// The true score is at least the stored score (a fail high).
    Lower,
    /// The true score is at most the stored score (a fail low).
    Upper,
}

/// What a probe finds: the stored search result, with mate scores relative to the root
/// of the probing search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    pub mv: Option<Move>,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

impl TtEntry {
    /// Whether the stored score settles a search with window (`alpha`, `beta`): exact,
    /// or a bound on the side of the window it proves.
    pub fn cuts_off(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }

    /// Whether the stored score is a better estimate than `static_eval`: exact, or a
    /// bound pointing away from it.
    pub fn improves_on(&self, static_eval: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score > static_eval,
            Bound::Upper => self.score < static_eval,
        }
    }
}

/// Smallest and largest table sizes accepted by [`TranspositionTable::new`], in MiB.
pub const MIN_MEGABYTES: usize = 1;
pub const MAX_MEGABYTES: usize = 65_536;

/// Depths are stored as `depth + DEPTH_OFFSET` in a byte; depths are clamped to
/// `-DEPTH_OFFSET..=MAX_DEPTH`.
pub const DEPTH_OFFSET: i32 = 8;
/// The deepest depth the table stores without clamping.
pub const MAX_DEPTH: i32 = 127;
/// How many plies of depth one search of age is worth when choosing a slot to replace.
pub const AGE_WEIGHT: i32 = 8;
/// A same-key entry is kept against a non-exact result more than this much shallower.
const KEEP_DEPTH_MARGIN: i32 = 4;

const SLOTS_PER_CLUSTER: usize = 4;
const CLUSTER_BYTES: usize = std::mem::size_of::<Cluster>();
/// Generations wrap modulo 64 (6 bits).
const GENERATION_MASK: u8 = 0x3f;
/// Tables at least this large are cleared by several threads.
const PARALLEL_CLEAR_BYTES: usize = 64 << 20;
/// At most this many threads clear a table.
const MAX_CLEAR_THREADS: usize = 16;

/// One entry: the packed data and the key xor-ed with it.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// One cache line of slots; a key's entry lives in one cluster.
#[derive(Default)]
#[repr(align(64))]
struct Cluster {
    slots: [Slot; SLOTS_PER_CLUSTER],
}

impl Cluster {
    fn clear(&self) {
        for slot in &self.slots {
            slot.data.store(0, Relaxed);
            slot.check.store(0, Relaxed);
        }
    }
}

/// The shared transposition table. `Send + Sync`; every method takes `&self`.
pub struct TranspositionTable {
    clusters: Vec<Cluster>,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A cleared table of `megabytes` MiB (clamped to
    /// `MIN_MEGABYTES..=MAX_MEGABYTES`). If the memory cannot be reserved, the size is
    /// halved until it can, with a warning in the log.
    ///
    /// On systems that overcommit memory (Linux by default) a reservation may succeed
    /// that the system later cannot back; that is beyond what a process can detect.
    pub fn new(megabytes: usize) -> TranspositionTable {
        let requested = megabytes.clamp(MIN_MEGABYTES, MAX_MEGABYTES);
        let mut size = requested;
        let clusters = loop {
            if let Some(clusters) = allocate((size << 20) / CLUSTER_BYTES) {
                break clusters;
            }
            log::warn!("could not allocate a {size} MiB hash table");
            if size == MIN_MEGABYTES {
                // A last resort that cannot fail in practice: one cluster.
                break vec![Cluster::default()];
            }
            size /= 2;
        };
        if size < requested {
            log::warn!("hash table reduced from {requested} MiB to {size} MiB");
        }
        TranspositionTable::from_clusters(clusters)
    }

    /// A table of exactly `count` clusters (at least one): for tests.
    #[cfg(test)]
    fn with_clusters(count: usize) -> TranspositionTable {
        let clusters = allocate(count.max(1)).expect("a small test table");
        TranspositionTable::from_clusters(clusters)
    }

    fn from_clusters(clusters: Vec<Cluster>) -> TranspositionTable {
        TranspositionTable {
            clusters,
            generation: AtomicU8::new(0),
        }
    }

    /// The size of the table in MiB (less than asked for if the allocation fell back).
    pub fn megabytes(&self) -> usize {
        (self.clusters.len() * CLUSTER_BYTES) >> 20
    }

    /// Empties every slot and resets the generation. Must not run during a search (it
    /// would be harmless but pointless); large tables are cleared by several threads.
    pub fn clear(&self) {
        let bytes = self.clusters.len() * CLUSTER_BYTES;
        let threads = std::thread::available_parallelism()
            .map_or(1, std::num::NonZero::get)
            .min(MAX_CLEAR_THREADS)
            .min(bytes / PARALLEL_CLEAR_BYTES)
            .max(1);
        let chunk = self.clusters.len().div_ceil(threads);
        std::thread::scope(|scope| {
            let mut parts = self.clusters.chunks(chunk);
            // The first part is this thread's; each other part gets a helper, or is
            // cleared here too if a thread cannot be spawned.
            let own = parts.next().unwrap_or_default();
            for part in parts {
                let spawned = std::thread::Builder::new()
                    .name("tt-clear".into())
                    .spawn_scoped(scope, move || part.iter().for_each(Cluster::clear));
                if spawned.is_err() {
                    part.iter().for_each(Cluster::clear);
                }
            }
            own.iter().for_each(Cluster::clear);
        });
        self.generation.store(0, Relaxed);
    }

    /// Starts a new generation: entries of earlier searches become the first to be
    /// replaced and no longer count in [`hashfull`](Self::hashfull).
    pub fn new_search(&self) {
        let next = self.generation().wrapping_add(1) & GENERATION_MASK;
        self.generation.store(next, Relaxed);
    }

    /// Per mille of the first 1000 slots filled by the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation();
        let clusters = &self.clusters[..self.clusters.len().min(1000 / SLOTS_PER_CLUSTER)];
        let filled = clusters
            .iter()
            .flat_map(|cluster| &cluster.slots)
            .filter(|slot| {
                let data = slot.data.load(Relaxed);
                data != 0 && Packed(data).generation() == generation
            })
            .count();
        (filled * 1000 / (clusters.len() * SLOTS_PER_CLUSTER)) as u32
    }

    /// The entry stored for `key`, if any, its mate scores made relative to the root of
    /// a search that reaches this position at `ply` with the fifty-move counter at
    /// `halfmove` (a stored mate that cannot land before the fifty-move draw is no mate
    /// there: see [`bound_within_fifty_moves`]).
    pub fn probe(&self, key: u64, ply: usize, halfmove: u8) -> Option<TtEntry> {
        let cluster = self.cluster(key);
        cluster.slots.iter().find_map(|slot| {
            let data = slot.data.load(Relaxed);
            let check = slot.check.load(Relaxed);
            (data != 0 && check ^ data == key).then(|| Packed(data).unpack(ply, halfmove))
        })
    }

    /// Stores a search result for `key`, found at `ply` from the root. Mate scores are
    /// stored relative to this position; scores and evals are clamped to `i16`, depths to
    /// `-DEPTH_OFFSET..=MAX_DEPTH`. With no move, the move already stored for the same
    /// key is kept.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        let generation = self.generation();
        let cluster = self.cluster(key);
        let mut target = &cluster.slots[0];
        let mut target_value = i32::MAX;
        let mut old = None;
        for slot in &cluster.slots {
            let data = slot.data.load(Relaxed);
            if data == 0 {
                if target_value > i32::MIN {
                    (target, target_value) = (slot, i32::MIN);
                }
                continue;
            }
            if slot.check.load(Relaxed) ^ data == key {
                (target, old) = (slot, Some(Packed(data)));
                break;
            }
            let value = Packed(data).value(generation);
            if value < target_value {
                (target, target_value) = (slot, value);
            }
        }

        let mut mv = pack_move(mv);
        if let Some(old) = old {
            let fresh = old.generation() == generation;
            if bound != Bound::Exact && fresh && depth + KEEP_DEPTH_MARGIN <= old.depth() {
                return;
            }
            if mv == 0 {
                mv = old.mv();
            }
        }
        let data = Packed::pack(mv, score_to_tt(score, ply), eval, depth, bound, generation);
        target.data.store(data.0, Relaxed);
        target.check.store(key ^ data.0, Relaxed);
    }

    fn generation(&self) -> u8 {
        self.generation.load(Relaxed)
    }

    /// Asks the CPU to start loading `key`'s cluster into the cache, so that the probe
    /// a little later does not wait for memory (a hint: it changes no result).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let address: *const Cluster = self.cluster(key);
            // SAFETY: a prefetch is only a hint to the cache; it never faults and reads
            // nothing the program can see, and SSE is part of every x86-64 CPU.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(address.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The cluster of `key`: multiply-shift maps the key onto `0..len` without needing a
    /// power-of-two length.
    fn cluster(&self, key: u64) -> &Cluster {
        let index = (u128::from(key) * self.clusters.len() as u128) >> 64;
        &self.clusters[index as usize]
    }
}

/// Reserves and zeroes `count` clusters; `None` if the memory cannot be reserved.
fn allocate(count: usize) -> Option<Vec<Cluster>> {
    let mut clusters = Vec::new();
    clusters.try_reserve_exact(count).ok()?;
    clusters.resize_with(count, Cluster::default);
    Some(clusters)
}

/// A mate or tablebase score relative to the root, made relative to the position `ply`
/// plies deep.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= TB_WIN_BOUND {
        score + ply
    } else if score <= -TB_WIN_BOUND {
        score - ply
    } else {
        score
    }
}

/// What a stored score and bound say of a position reached with the fifty-move counter at
/// `halfmove`. The same position stored with a lower counter may hold a mate (`stored`,
/// relative to the position) that lands after the hundredth reversible ply, where the
/// game is already drawn. (A mate on the hundredth ply stands.)
///
/// Where the entry rules out a faster mate (a win exact or an upper bound, a loss exact
/// or a lower bound), the side cannot mate, or cannot be mated, in time: a bound just
/// short of a proven result on that side ([`UNPROVEN`]). Where it does not (a win as a
/// lower bound, a loss as an upper one), a faster mate may still land in time and the
/// entry says nothing: the same bound on the other side, which is empty. Neither settles
/// an ordinary window.
fn bound_within_fifty_moves(stored: i32, bound: Bound, halfmove: u8) -> (i32, Bound) {
    // Almost every entry holds no mate: that test first, on the probe's hot path.
    if !is_mate(stored) || MATE - stored.abs() <= 100 - i32::from(halfmove.min(100)) {
        return (stored, bound);
    }
    // An upper bound for an exact win (cannot mate in time) and for any upper bound (as
    // true of a win; empty for a loss); a lower bound for the rest, the same way round.
    let upper = match bound {
        Bound::Exact => stored > 0,
        Bound::Upper => true,
        Bound::Lower => false,
    };
    if upper {
        (UNPROVEN, Bound::Upper)
    } else {
        (-UNPROVEN, Bound::Lower)
    }
}

/// The inverse of [`score_to_tt`].
fn score_from_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= TB_WIN_BOUND {
        score - ply
    } else if score <= -TB_WIN_BOUND {
        score + ply
    } else {
        score
    }
}

/// A move in 16 bits: from square (bits 0-5), to square (6-11), promotion piece index
/// plus one (12-14, 0 for none). No move is 0 (no legal move goes from a square to
/// itself).
pub fn pack_move(mv: Option<Move>) -> u16 {
    mv.map_or(0, |mv| {
        let promotion = mv.promotion.map_or(0, |piece| piece as u16 + 1);
        mv.from as u16 | (mv.to as u16) << 6 | promotion << 12
    })
}

/// The inverse of [`pack_move`].
pub fn unpack_move(packed: u16) -> Option<Move> {
    if packed == 0 {
        return None;
    }
    let square = |bits: u16| Square::index(usize::from(bits & 63));
    let promotion = (packed >> 12) & 7;
    Some(Move {
        from: square(packed),
        to: square(packed >> 6),
        promotion: promotion
            .checked_sub(1)
            .and_then(|index| Piece::try_index(usize::from(index))),
    })
}

/// The packed `data` word of a slot.
#[derive(Clone, Copy)]
struct Packed(u64);

impl Packed {
    const SCORE_SHIFT: u32 = 16;
    const EVAL_SHIFT: u32 = 32;
    const DEPTH_SHIFT: u32 = 48;
    const BOUND_SHIFT: u32 = 56;
    const GENERATION_SHIFT: u32 = 58;

    fn pack(mv: u16, score: i32, eval: i32, depth: i32, bound: Bound, generation: u8) -> Packed {
        let depth = (depth.clamp(-DEPTH_OFFSET, MAX_DEPTH) + DEPTH_OFFSET) as u64;
        let bound = match bound {
            Bound::Upper => 1,
            Bound::Lower => 2,
            Bound::Exact => 3,
        };
        Packed(
            u64::from(mv)
                | u64::from(clamp_i16(score)) << Self::SCORE_SHIFT
                | u64::from(clamp_i16(eval)) << Self::EVAL_SHIFT
                | depth << Self::DEPTH_SHIFT
                | bound << Self::BOUND_SHIFT
                | u64::from(generation & GENERATION_MASK) << Self::GENERATION_SHIFT,
        )
    }

    fn unpack(self, ply: usize, halfmove: u8) -> TtEntry {
        let stored = i32::from((self.0 >> Self::SCORE_SHIFT) as u16 as i16);
        let bound = match (self.0 >> Self::BOUND_SHIFT) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        };
        let (score, bound) = bound_within_fifty_moves(stored, bound, halfmove);
        TtEntry {
            mv: unpack_move(self.mv()),
            score: score_from_tt(score, ply),
            eval: i32::from((self.0 >> Self::EVAL_SHIFT) as u16 as i16),
            depth: self.depth(),
            bound,
        }
    }

    fn mv(self) -> u16 {
        self.0 as u16
    }

    fn depth(self) -> i32 {
        i32::from((self.0 >> Self::DEPTH_SHIFT) as u8) - DEPTH_OFFSET
    }

    fn generation(self) -> u8 {
        (self.0 >> Self::GENERATION_SHIFT) as u8
    }

    /// How much the entry is worth keeping in the `current` generation.
    fn value(self, current: u8) -> i32 {
        let age = current.wrapping_sub(self.generation()) & GENERATION_MASK;
        self.depth() - AGE_WEIGHT * i32::from(age)
    }
}

/// `value` clamped to `i16`, as the bits of a `u16`.
fn clamp_i16(value: i32) -> u16 {
    value.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16 as u16
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{mate_in, mated_in};

    fn mv(from: Square, to: Square) -> Option<Move> {
        Some(Move {
            from,
            to,
            promotion: None,
        })
    }

    /// Keys that share one cluster in `tt`: equal high bits, different low bits.
    fn same_cluster_keys(tt: &TranspositionTable, count: u64) -> Vec<u64> {
        let base = 0x9e37_79b9_7f4a_0000;
        let keys: Vec<u64> = (1..=count).map(|i| base | i).collect();
        let first = std::ptr::from_ref(tt.cluster(keys[0]));
        assert!(keys.iter().all(|&k| std::ptr::eq(tt.cluster(k), first)));
        keys
    }

    /// SplitMix64: a tiny deterministic generator for test keys.
    fn splitmix(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    #[test]
    fn layout() {
        assert_eq!(CLUSTER_BYTES, 64);
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.clusters.len(), (1 << 20) / 64);
        assert_eq!(tt.megabytes(), 1);
        fn shared<T: Send + Sync>() {}
        shared::<TranspositionTable>();
    }

    #[test]
    fn moves_pack_and_unpack() {
        assert_eq!(unpack_move(pack_move(None)), None);
        for from in Square::ALL {
            for to in [Square::A1, Square::H8, Square::E4] {
                for promotion in [None, Some(Piece::Knight), Some(Piece::Queen)] {
                    let m = Some(Move {
                        from,
                        to,
                        promotion,
                    });
                    if from != to {
                        assert_eq!(unpack_move(pack_move(m)), m);
                    }
                }
            }
        }
    }

    #[test]
    fn store_probe_roundtrip() {
        let tt = TranspositionTable::new(1);
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(tt.probe(key, 0, 0), None);
        let m = Some(Move {
            from: Square::E7,
            to: Square::E8,
            promotion: Some(Piece::Queen),
        });
        tt.store(key, m, -123, 45, 7, Bound::Lower, 3);
        let expected = TtEntry {
            mv: m,
            score: -123,
            eval: 45,
            depth: 7,
            bound: Bound::Lower,
        };
        assert_eq!(tt.probe(key, 3, 0), Some(expected));
        assert_eq!(
            tt.probe(key, 9, 0),
            Some(expected),
            "plain scores ignore ply"
        );

        for (i, (depth, bound)) in [(-8, Bound::Upper), (127, Bound::Exact), (0, Bound::Lower)]
            .into_iter()
            .enumerate()
        {
            let key = key + 1 + i as u64;
            tt.store(key, None, 0, 0, depth, bound, 0);
            let entry = tt.probe(key, 0, 0).expect("stored");
            assert_eq!((entry.depth, entry.bound, entry.mv), (depth, bound, None));
        }
    }

    #[test]
    fn values_are_clamped() {
        let tt = TranspositionTable::new(1);
        tt.store(1, None, 40_000, -40_000, 500, Bound::Exact, 0);
        let entry = tt.probe(1, 0, 0).expect("stored");
        assert_eq!(
            (entry.score, entry.eval, entry.depth),
            (32_767, -32_768, 127)
        );
        tt.store(2, None, 0, 0, -50, Bound::Exact, 0);
        assert_eq!(tt.probe(2, 0, 0).map(|e| e.depth), Some(-DEPTH_OFFSET));
    }

    #[test]
    fn mate_scores_are_node_relative() {
        let tt = TranspositionTable::new(1);
        tt.store(42, None, mate_in(10), 0, 5, Bound::Exact, 4);
        assert_eq!(tt.probe(42, 6, 0).map(|e| e.score), Some(mate_in(12)));
        assert_eq!(tt.probe(42, 4, 0).map(|e| e.score), Some(mate_in(10)));
        tt.store(43, None, mated_in(9), 0, 5, Bound::Upper, 3);
        assert_eq!(tt.probe(43, 1, 0).map(|e| e.score), Some(mated_in(7)));
    }

    /// A mate six plies from the stored position lands on the hundredth reversible ply
    /// from a counter of 94 (it stands), after it from 95 (drawn first): there the entry
    /// only bounds the score short of a proven result, on the side still true.
    #[test]
    fn mates_past_the_fifty_move_draw_are_no_mates() {
        use crate::score::UNPROVEN;
        let tt = TranspositionTable::new(1);
        // Keys of six different clusters (a cluster holds four entries).
        let key = |k: u64| k << 56;
        let read = |k, halfmove| tt.probe(key(k), 2, halfmove).map(|e| (e.score, e.bound));
        // Exact: the side cannot mate (or be mated) in time.
        tt.store(key(46), None, mate_in(8), 0, 5, Bound::Exact, 2);
        assert_eq!(read(46, 94), Some((mate_in(8), Bound::Exact)));
        assert_eq!(read(46, 95), Some((UNPROVEN, Bound::Upper)));
        tt.store(key(47), None, mated_in(8), 0, 5, Bound::Exact, 2);
        assert_eq!(read(47, 95), Some((-UNPROVEN, Bound::Lower)));
        assert_eq!(read(47, 200), Some((-UNPROVEN, Bound::Lower)));
        // Bounds that rule out a faster mate keep their side.
        tt.store(key(48), None, mate_in(8), 0, 5, Bound::Upper, 2);
        assert_eq!(read(48, 95), Some((UNPROVEN, Bound::Upper)));
        tt.store(key(49), None, mated_in(8), 0, 5, Bound::Lower, 2);
        assert_eq!(read(49, 95), Some((-UNPROVEN, Bound::Lower)));
        // Bounds that do not (a faster mate may land in time) say nothing.
        tt.store(key(50), None, mate_in(8), 0, 5, Bound::Lower, 2);
        assert_eq!(read(50, 94), Some((mate_in(8), Bound::Lower)));
        assert_eq!(read(50, 95), Some((-UNPROVEN, Bound::Lower)));
        tt.store(key(51), None, mated_in(8), 0, 5, Bound::Upper, 2);
        assert_eq!(read(51, 95), Some((UNPROVEN, Bound::Upper)));
        for k in 46..=51 {
            let entry = tt.probe(key(k), 2, 99).expect("stored");
            assert!(!entry.cuts_off(-100, 100), "no ordinary window is settled");
        }
    }

    #[test]
    fn tablebase_scores_are_node_relative_like_mates() {
        use crate::score::{tb_loss_in, tb_win_in};
        let tt = TranspositionTable::new(1);
        tt.store(44, None, tb_win_in(10), 0, 5, Bound::Lower, 4);
        assert_eq!(tt.probe(44, 6, 0).map(|e| e.score), Some(tb_win_in(12)));
        tt.store(45, None, tb_loss_in(9), 0, 5, Bound::Upper, 3);
        assert_eq!(tt.probe(45, 1, 0).map(|e| e.score), Some(tb_loss_in(7)));
    }

    #[test]
    fn other_keys_miss() {
        let tt = TranspositionTable::new(1);
        let keys = same_cluster_keys(&tt, 2);
        tt.store(
            keys[0],
            mv(Square::E2, Square::E4),
            10,
            0,
            3,
            Bound::Exact,
            0,
        );
        assert_eq!(tt.probe(keys[1], 0, 0), None);
        assert_eq!(tt.probe(keys[0] ^ 1 << 40, 0, 0), None);
        assert!(tt.probe(keys[0], 0, 0).is_some());
        assert_eq!(
            tt.probe(0, 0, 0),
            None,
            "an empty slot never hits, even key 0"
        );
    }

    #[test]
    fn same_key_keeps_move_and_deep_results() {
        let tt = TranspositionTable::new(1);
        let m = mv(Square::G1, Square::F3);
        tt.store(7, m, 10, 0, 10, Bound::Lower, 0);
        tt.store(7, None, 20, 0, 11, Bound::Upper, 0);
        assert_eq!(tt.probe(7, 0, 0).map(|e| (e.mv, e.score)), Some((m, 20)));
        // Much shallower and not exact: the deep entry stays.
        tt.store(7, None, 30, 0, 2, Bound::Lower, 0);
        assert_eq!(tt.probe(7, 0, 0).map(|e| e.score), Some(20));
        // An exact bound always overwrites.
        tt.store(7, None, 40, 0, 2, Bound::Exact, 0);
        assert_eq!(tt.probe(7, 0, 0).map(|e| (e.score, e.depth)), Some((40, 2)));
        // So does anything in a later search.
        tt.store(7, None, 5, 0, 12, Bound::Exact, 0);
        tt.new_search();
        tt.store(7, None, 50, 0, 1, Bound::Upper, 0);
        assert_eq!(tt.probe(7, 0, 0).map(|e| (e.score, e.mv)), Some((50, m)));
    }

    #[test]
    fn shallowest_entry_is_replaced() {
        let tt = TranspositionTable::new(1);
        let keys = same_cluster_keys(&tt, 5);
        for (i, &key) in keys[..4].iter().enumerate() {
            tt.store(key, None, 0, 0, [9, 3, 12, 6][i], Bound::Exact, 0);
        }
        tt.store(keys[4], None, 0, 0, 1, Bound::Exact, 0);
        let present: Vec<bool> = keys.iter().map(|&k| tt.probe(k, 0, 0).is_some()).collect();
        assert_eq!(present, [true, false, true, true, true]);
    }

    #[test]
    fn older_generation_is_replaced_first() {
        let tt = TranspositionTable::new(1);
        let keys = same_cluster_keys(&tt, 5);
        tt.store(keys[0], None, 0, 0, 30, Bound::Exact, 0);
        tt.new_search();
        tt.new_search();
        tt.new_search();
        tt.new_search();
        for &key in &keys[1..4] {
            tt.store(key, None, 0, 0, 2, Bound::Exact, 0);
        }
        // Four searches old is worth 32 plies: the depth-30 entry goes first.
        tt.store(keys[4], None, 0, 0, 1, Bound::Exact, 0);
        let present: Vec<bool> = keys.iter().map(|&k| tt.probe(k, 0, 0).is_some()).collect();
        assert_eq!(present, [false, true, true, true, true]);
        // Among equals in age, the shallowest goes.
        tt.store(keys[0], None, 0, 0, 5, Bound::Exact, 0);
        assert!(tt.probe(keys[0], 0, 0).is_some());
        assert!(tt.probe(keys[4], 0, 0).is_none());
    }

    #[test]
    fn generation_wraps() {
        let tt = TranspositionTable::new(1);
        for _ in 0..200 {
            tt.new_search();
        }
        tt.store(3, None, 1, 0, 1, Bound::Exact, 0);
        assert!(tt.hashfull() <= 1000);
        assert_eq!(tt.probe(3, 0, 0).map(|e| e.score), Some(1));
    }

    #[test]
    fn hashfull_counts_current_search() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        let mut state = 1;
        for _ in 0..50_000 {
            tt.store(splitmix(&mut state), None, 0, 0, 1, Bound::Exact, 0);
        }
        let full = tt.hashfull();
        assert!(full > 500, "hashfull {full}");
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        tt.store(splitmix(&mut state), None, 0, 0, 1, Bound::Exact, 0);
        for _ in 0..50_000 {
            tt.store(splitmix(&mut state), None, 0, 0, 1, Bound::Exact, 0);
        }
        assert!(tt.hashfull() > 500);
        tt.clear();
        assert_eq!(tt.hashfull(), 0);
        assert!(tt
            .clusters
            .iter()
            .flat_map(|c| &c.slots)
            .all(|s| { s.data.load(Relaxed) == 0 && s.check.load(Relaxed) == 0 }));
    }

    #[test]
    fn large_table_clears_in_parallel() {
        let tt = TranspositionTable::new(256);
        assert_eq!(tt.megabytes(), 256);
        let mut state = 7;
        let keys: Vec<u64> = (0..1000).map(|_| splitmix(&mut state)).collect();
        for &key in &keys {
            tt.store(key, None, 1, 0, 1, Bound::Exact, 0);
        }
        assert!(keys.iter().all(|&k| tt.probe(k, 0, 0).is_some()));
        tt.clear();
        assert!(keys.iter().all(|&k| tt.probe(k, 0, 0).is_none()));
    }

    /// What the concurrency test stores for `key`: the move and score are functions of
    /// the key; depth and bound vary from store to store.
    fn expected(key: u64) -> (Option<Move>, i32) {
        let from = Square::index((key % 64) as usize);
        let to = Square::index(((key >> 6) % 64) as usize);
        let m = (from != to).then_some(Move {
            from,
            to,
            promotion: None,
        });
        (m, (key >> 20) as i32 % 20_000)
    }

    #[test]
    fn concurrent_access_never_mixes_entries() {
        // A single cluster, so the threads fight over the same four slots.
        let tt = TranspositionTable::with_clusters(1);
        let mut state = 99;
        let keys: Vec<u64> = (0..16).map(|_| splitmix(&mut state)).collect();
        let hits = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..4u64)
                .map(|seed| {
                    let (tt, keys) = (&tt, &keys);
                    scope.spawn(move || {
                        let mut state = seed;
                        let mut hits = 0u32;
                        for _ in 0..200_000 {
                            let r = splitmix(&mut state);
                            let key = keys[(r % 16) as usize];
                            let (m, score) = expected(key);
                            if r & 1 << 10 == 0 {
                                let depth = (r >> 32) as i32 % 64;
                                tt.store(key, m, score, 0, depth, Bound::Exact, 0);
                            } else if let Some(entry) = tt.probe(key, 0, 0) {
                                hits += 1;
                                assert_eq!((entry.mv, entry.score), (m, score));
                            }
                        }
                        hits
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|w| w.join().expect("worker"))
                .sum::<u32>()
        });
        assert!(hits > 0);
    }
}
