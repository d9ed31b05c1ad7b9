//! Move-ordering statistics gathered by the search: which moves caused beta cutoffs.
//!
//! All scores move by "gravity" updates, `entry += bonus - entry * |bonus| / HISTORY_MAX`,
//! which keep every entry within `±HISTORY_MAX` and let recent results outweigh old ones.
//! One [`Histories`] lives per search thread. A [`HistoryStore`] keeps them from one `go`
//! to the next within a game, as the hash table is kept: each search starts from what the
//! previous ones learnt, less the killers (ply-indexed, so they would sit at the wrong
//! plies once the root has moved on). `ucinewgame` and `Clear Hash` empty it.

use cozy_chess::{BitBoard, Board, Color, Move, Piece, Square};

use super::correction::CorrectionHistory;
use super::params;
use crate::rules::OpponentAttacks;
use crate::score::MAX_PLY;

/// The bound of every history entry.
pub const HISTORY_MAX: i32 = 16_384;

/// The moves that led to the current position, for continuation histories and the
/// countermove: the piece that moved and its destination, one to four plies ago. `None`
/// before the root and after a null move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ContextMoves {
    pub prev1: Option<(Piece, Square)>,
    pub prev2: Option<(Piece, Square)>,
    pub prev3: Option<(Piece, Square)>,
    pub prev4: Option<(Piece, Square)>,
    /// The squares the opponent of the side to move attacks (all of them index the
    /// butterfly history; the move picker's threat bonus reads the layers).
    pub threats: OpponentAttacks,
}

impl ContextMoves {
    /// The context one ply deeper, after `moved` (`None` for a null move) was played.
    pub fn child(&self, moved: Option<(Piece, Square)>) -> ContextMoves {
        ContextMoves {
            prev1: moved,
            prev2: self.prev1,
            prev3: self.prev2,
            prev4: self.prev3,
            threats: OpponentAttacks::default(),
        }
    }
}

/// A score per (origin, destination).
type Butterfly = [[i16; Square::NUM]; Square::NUM];

/// Butterfly tables per colour: one for each of whether the origin and the destination
/// are attacked (see [`threat_class`]).
const THREAT_CLASSES: usize = 4;

/// Which butterfly table `mv` reads: `2 × (origin attacked) + (destination attacked)`.
#[inline(always)]
fn threat_class(mv: Move, threats: BitBoard) -> usize {
    2 * usize::from(threats.has(mv.from)) + usize::from(threats.has(mv.to))
}

/// A score per (piece, destination square).
type PieceTo = [[i16; Square::NUM]; Piece::NUM];

/// Continuation history for one earlier ply: a [`PieceTo`] table for each (piece,
/// destination) of the earlier move, indexed `[prev_piece][prev_to][piece][to]`.
struct ContinuationHistory {
    /// `Piece::NUM * Square::NUM` tables, indexed by `prev_piece * 64 + prev_to`.
    tables: Box<[PieceTo]>,
}

impl ContinuationHistory {
    fn new() -> ContinuationHistory {
        ContinuationHistory {
            tables: vec![[[0; Square::NUM]; Piece::NUM]; Piece::NUM * Square::NUM]
                .into_boxed_slice(),
        }
    }

    #[inline(always)]
    fn table(&self, (piece, to): (Piece, Square)) -> &PieceTo {
        &self.tables[piece as usize * Square::NUM + to as usize]
    }

    #[inline(always)]
    fn table_mut(&mut self, (piece, to): (Piece, Square)) -> &mut PieceTo {
        &mut self.tables[piece as usize * Square::NUM + to as usize]
    }

    fn clear(&mut self) {
        self.tables.fill([[0; Square::NUM]; Piece::NUM]);
    }
}

/// The move-ordering statistics of one search thread (about 600 KB, on the heap), and the
/// evaluation's correction history.
pub struct Histories {
    /// Butterfly history of quiet moves, `[color][threat class][from][to]`:
    /// whether the opponent attacks the origin and the destination tells a move that
    /// escapes a threat, or walks into one, from the same move in a quiet position.
    /// Measured (threat-indexed vs `[color][from][to]`): +25.8 ± 19.1 Elo against
    /// `72a6f81`, +23.0 ± 17.8 on top of the cutoff-count LMR (1,000 games each at
    /// 10,000 nodes/move, pentanomial).
    quiet: Box<[[Butterfly; THREAT_CLASSES]; Color::NUM]>,
    /// Capture history, `[moved piece][to][captured piece]`; the king slot of the
    /// captured piece (never captured) holds non-capturing promotions.
    capture: [[[i16; Piece::NUM]; Square::NUM]; Piece::NUM],
    /// Continuation histories of quiet moves, for the moves one, two and four plies back
    /// (the opponent's last move and the side to move's last two).
    /// Measured (the four-ply table added): +14.6 ± 17.6 Elo (1,000 games at 10,000
    /// nodes/move, pentanomial). (A fourth table, six plies back, measured 340-375-285,
    /// -12.2 ± 17.1 Elo, in 1,000 games at 10,000 nodes/move: left out. A pawn history,
    /// `[pawn structure slot (512)][colour][piece][to]`, read and updated beside these,
    /// measured +2.8 ± 16.5 Elo in 1,000 games: not shown, left out.)
    continuation: [ContinuationHistory; 3],
    /// Two quiet moves per ply that caused cutoffs, the most recent first.
    killers: [[Option<Move>; 2]; MAX_PLY],
    /// The quiet move that last refuted a move, by that move's `[piece][to]`.
    counter: [[Option<Move>; Square::NUM]; Piece::NUM],
    /// How far the static evaluation has erred, by pawn structure.
    pub correction: CorrectionHistory,
}

/// The histories of each search thread, kept between the searches of a game. A search
/// takes them out for its duration ([`HistoryStore::take`]) and puts them back when it
/// ends ([`HistoryStore::put_back`]), so the lock is held only for a moment.
/// Measured: +42.5 ± 21.1 Elo (kept vs empty tables every `go`, SPRT [0, 10] at 5+0.05,
/// H1 after 370 games).
#[derive(Default)]
pub struct HistoryStore {
    threads: parking_lot::Mutex<Vec<Box<Histories>>>,
}

impl HistoryStore {
    /// An empty store: the first search starts from empty tables.
    pub fn new() -> HistoryStore {
        HistoryStore::default()
    }

    /// The histories of `threads` search threads (thread 0 first), created empty where
    /// the store has none, with their killers forgotten.
    pub fn take(&self, threads: usize) -> Vec<Box<Histories>> {
        let mut taken = std::mem::take(&mut *self.threads.lock());
        taken.truncate(threads);
        taken.resize_with(threads, || Box::new(Histories::new()));
        for histories in &mut taken {
            histories.clear_killers();
        }
        taken
    }

    /// Keeps `histories` for the next search.
    pub fn put_back(&self, histories: Vec<Box<Histories>>) {
        *self.threads.lock() = histories;
    }

    /// Forgets everything (a new game, or `Clear Hash`).
    pub fn clear(&self) {
        self.threads.lock().clear();
    }
}

/// The capture-history slot of a non-capturing promotion: no move captures a king.
const NO_VICTIM: usize = Piece::King as usize;

impl Default for Histories {
    fn default() -> Self {
        Self::new()
    }
}

/// A history bonus or malus at `depth` (clamped to 1..=16): `min(quad·d² + linear·d, max)`.
#[inline(always)]
fn history_change(depth: i32, quad: i32, linear: i32, max: i32) -> i32 {
    let depth = depth.clamp(1, 16);
    (quad * depth * depth + linear * depth).min(max)
}

impl Histories {
    /// Empty statistics.
    pub fn new() -> Histories {
        Histories {
            quiet: Box::new([[[[0; Square::NUM]; Square::NUM]; THREAT_CLASSES]; Color::NUM]),
            capture: [[[0; Piece::NUM]; Square::NUM]; Piece::NUM],
            continuation: [(); 3].map(|()| ContinuationHistory::new()),
            killers: [[None; 2]; MAX_PLY],
            counter: [[None; Square::NUM]; Piece::NUM],
            correction: CorrectionHistory::new(),
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.quiet
            .fill([[[0; Square::NUM]; Square::NUM]; THREAT_CLASSES]);
        self.capture = [[[0; Piece::NUM]; Square::NUM]; Piece::NUM];
        for table in &mut self.continuation {
            table.clear();
        }
        self.clear_killers();
        self.counter = [[None; Square::NUM]; Piece::NUM];
        self.correction.clear();
    }

    /// Forgets every killer (at the start of a search: they are indexed by ply from the
    /// root, and the root has moved since).
    pub fn clear_killers(&mut self) {
        self.killers = [[None; 2]; MAX_PLY];
    }

    /// Forgets the killers of `ply` (call before searching a node's children, so that
    /// killers from an unrelated subtree do not linger two plies down).
    pub fn clear_killers_at(&mut self, ply: usize) {
        if let Some(killers) = self.killers.get_mut(ply) {
            *killers = [None; 2];
        }
    }

    /// The history bonus of a cutoff at `depth` (`hist_bonus_*` of `params.rs`; also the
    /// bonus of step 17b's prior move).
    /// Measured (twice the bonus of `16·d² + 32·d`, at most 1200, it replaced): +18.8 ±
    /// 18.0 Elo (1,000 games at 10,000 nodes/move, pentanomial).
    pub fn bonus(depth: i32) -> i32 {
        history_change(
            depth,
            params::hist_bonus_quad(),
            params::hist_bonus_linear(),
            params::hist_bonus_max(),
        )
    }

    /// The history malus, at `depth`, of the moves that failed to cut off before the one
    /// that did (`hist_malus_*` of `params.rs`; by default the same as the bonus).
    pub fn malus(depth: i32) -> i32 {
        history_change(
            depth,
            params::hist_malus_quad(),
            params::hist_malus_linear(),
            params::hist_malus_max(),
        )
    }

    /// The two killers of `ply`, the most recent first.
    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers.get(ply).copied().unwrap_or([None; 2])
    }

    /// The quiet move that last refuted the previous move of `cont`.
    pub fn counter_move(&self, cont: &ContextMoves) -> Option<Move> {
        cont.prev1
            .and_then(|(piece, to)| self.counter[piece as usize][to as usize])
    }

    /// The ordering score of the quiet move `mv` of `board`: its butterfly history plus
    /// its continuation histories.
    pub fn quiet_score(&self, board: &Board, mv: Move, cont: &ContextMoves) -> i32 {
        match board.piece_on(mv.from) {
            Some(piece) => self.quiet_score_of(board.side_to_move(), piece, mv, cont),
            None => 0,
        }
    }

    /// [`Histories::quiet_score`] when the mover's colour and piece are known.
    #[inline(always)]
    pub fn quiet_score_of(&self, us: Color, piece: Piece, mv: Move, cont: &ContextMoves) -> i32 {
        let mut score = i32::from(self.butterfly(us, mv, cont.threats.all));
        for (table, prev) in self
            .continuation
            .iter()
            .zip([cont.prev1, cont.prev2, cont.prev4])
        {
            if let Some(prev) = prev {
                score += i32::from(table.table(prev)[piece as usize][mv.to as usize]);
            }
        }
        score
    }

    /// The capture history of `mv`, a capture or promotion of `board` (0 for a quiet
    /// move).
    pub fn capture_score(&self, board: &Board, mv: Move) -> i32 {
        match capture_key(board, mv) {
            Some((piece, to, victim)) => self.capture_score_of(piece, to, victim),
            None => 0,
        }
    }

    /// The capture history of `piece` taking `victim` (`None`: a promotion that captures
    /// nothing) on `to`.
    #[inline(always)]
    pub fn capture_score_of(&self, piece: Piece, to: Square, victim: Option<Piece>) -> i32 {
        let victim = victim.map_or(NO_VICTIM, |p| p as usize);
        i32::from(self.capture[piece as usize][to as usize][victim])
    }

    /// Records that the quiet move `best` caused a cutoff at `depth`, `ply` plies from the
    /// root, after the quiet moves `tried_quiets` failed to (`best` may be among them; it
    /// is skipped). Also makes `best` a killer of `ply` and the countermove of the
    /// previous move.
    pub fn update_quiet_cutoff(
        &mut self,
        board: &Board,
        best: Move,
        tried_quiets: &[Move],
        depth: i32,
        ply: usize,
        cont: &ContextMoves,
    ) {
        let us = board.side_to_move();
        let bonus = Self::bonus(depth);
        let malus = Self::malus(depth);
        if let Some(piece) = board.piece_on(best.from) {
            self.update_quiet(us, piece, best, bonus, cont);
        }
        for &mv in tried_quiets {
            if mv != best {
                if let Some(piece) = board.piece_on(mv.from) {
                    self.update_quiet(us, piece, mv, -malus, cont);
                }
            }
        }
        if let Some(killers) = self.killers.get_mut(ply) {
            if killers[0] != Some(best) {
                killers[1] = killers[0];
                killers[0] = Some(best);
            }
        }
        if let Some((piece, to)) = cont.prev1 {
            self.counter[piece as usize][to as usize] = Some(best);
        }
    }

    /// Records a cutoff by `best` at `depth` after the captures and promotions
    /// `tried_captures` failed to cut (`best` may be among them; it is skipped). A capture
    /// or promotion `best` gets a bonus; whatever `best` is, the others get a malus. Call
    /// it for quiet cutoffs too, so that captures that failed to cut are penalised.
    pub fn update_capture_cutoff(
        &mut self,
        board: &Board,
        best: Move,
        tried_captures: &[Move],
        depth: i32,
    ) {
        if let Some(key) = capture_key(board, best) {
            self.update_capture(key, Self::bonus(depth));
        }
        let malus = Self::malus(depth);
        for &mv in tried_captures {
            if mv != best {
                if let Some(key) = capture_key(board, mv) {
                    self.update_capture(key, -malus);
                }
            }
        }
    }

    /// Moves the butterfly and continuation histories of `us` playing the quiet move `mv`
    /// with `piece` after the moves of `cont` by `bonus` (a malus when negative).
    pub fn update_quiet(
        &mut self,
        us: Color,
        piece: Piece,
        mv: Move,
        bonus: i32,
        cont: &ContextMoves,
    ) {
        gravity(self.butterfly_mut(us, mv, cont.threats.all), bonus);
        for (table, prev) in self
            .continuation
            .iter_mut()
            .zip([cont.prev1, cont.prev2, cont.prev4])
        {
            if let Some(prev) = prev {
                gravity(
                    &mut table.table_mut(prev)[piece as usize][mv.to as usize],
                    bonus,
                );
            }
        }
    }

    #[inline(always)]
    fn butterfly(&self, us: Color, mv: Move, threats: BitBoard) -> i16 {
        self.quiet[us as usize][threat_class(mv, threats)][mv.from as usize][mv.to as usize]
    }

    #[inline(always)]
    fn butterfly_mut(&mut self, us: Color, mv: Move, threats: BitBoard) -> &mut i16 {
        &mut self.quiet[us as usize][threat_class(mv, threats)][mv.from as usize][mv.to as usize]
    }

    fn update_capture(&mut self, (piece, to, victim): (Piece, Square, Option<Piece>), bonus: i32) {
        let victim = victim.map_or(NO_VICTIM, |p| p as usize);
        gravity(
            &mut self.capture[piece as usize][to as usize][victim],
            bonus,
        );
    }
}

/// The capture-history key of `mv` (moved piece, destination, captured piece), or `None`
/// when `mv` is quiet (neither a capture nor a promotion) or no move of `board`.
fn capture_key(board: &Board, mv: Move) -> Option<(Piece, Square, Option<Piece>)> {
    let piece = board.piece_on(mv.from)?;
    let victim = crate::moves::captured(board, mv).map(|(victim, _)| victim);
    // Castling (king takes own rook) is neither a capture nor a promotion.
    (victim.is_some() || mv.promotion.is_some()).then_some((piece, mv.to, victim))
}

/// Moves `entry` toward `±HISTORY_MAX` by `bonus`, less as it nears the bound.
#[inline(always)]
fn gravity(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let current = i32::from(*entry);
    let updated = current + bonus - current * bonus.abs() / HISTORY_MAX;
    // The update never leaves ±HISTORY_MAX (which fits an i16); the clamp makes it plain.
    *entry = updated.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        text.parse().unwrap_or_else(|_| panic!("bad move {text}"))
    }

    #[test]
    fn gravity_stays_bounded() {
        let mut entry = 0i16;
        for _ in 0..1000 {
            gravity(&mut entry, HISTORY_MAX);
            assert!(i32::from(entry) <= HISTORY_MAX);
        }
        assert_eq!(i32::from(entry), HISTORY_MAX);
        for _ in 0..1000 {
            gravity(&mut entry, -1200);
            assert!(i32::from(entry) >= -HISTORY_MAX);
        }
        assert!(i32::from(entry) < -HISTORY_MAX + 1200);
    }

    #[test]
    fn bonus_grows_then_saturates() {
        assert!(Histories::bonus(1) > 0);
        assert!(Histories::bonus(2) > Histories::bonus(1));
        assert_eq!(Histories::bonus(100), params::hist_bonus_max());
        assert_eq!(Histories::bonus(-5), Histories::bonus(1));
    }

    #[test]
    fn quiet_cutoff_updates_history_killers_and_countermove() {
        let board = Board::default();
        let mut histories = Histories::new();
        let cont = ContextMoves {
            prev1: Some((Piece::Pawn, Square::E5)),
            prev2: Some((Piece::Knight, Square::F3)),
            ..ContextMoves::default()
        };
        let best = mv("g1f3");
        let tried = [mv("a2a3"), mv("h2h3"), best];
        histories.update_quiet_cutoff(&board, best, &tried, 6, 3, &cont);
        let best_score = histories.quiet_score(&board, best, &cont);
        assert_eq!(best_score, 3 * Histories::bonus(6));
        assert!(histories.quiet_score(&board, mv("a2a3"), &cont) < 0);
        // Without context only the butterfly part remains.
        let no_context = ContextMoves::default();
        assert_eq!(
            histories.quiet_score(&board, best, &no_context),
            Histories::bonus(6)
        );
        assert_eq!(histories.killers(3), [Some(best), None]);
        assert_eq!(histories.counter_move(&cont), Some(best));

        // A second killer shifts the first; repeating a killer does not duplicate it.
        histories.update_quiet_cutoff(&board, mv("b1c3"), &[], 6, 3, &cont);
        histories.update_quiet_cutoff(&board, mv("b1c3"), &[], 6, 3, &cont);
        assert_eq!(histories.killers(3), [Some(mv("b1c3")), Some(best)]);
        histories.clear_killers_at(3);
        assert_eq!(histories.killers(3), [None, None]);
        assert_eq!(histories.killers(MAX_PLY + 5), [None, None]);

        histories.clear();
        assert_eq!(histories.quiet_score(&board, best, &cont), 0);
        assert_eq!(histories.counter_move(&cont), None);
    }

    #[test]
    fn capture_cutoff_updates_capture_history() {
        let board = Board::from_fen(
            "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
            false,
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        let mut histories = Histories::new();
        let capture = mv("e4d5");
        histories.update_capture_cutoff(&board, capture, &[capture], 4);
        assert_eq!(
            histories.capture_score(&board, capture),
            Histories::bonus(4)
        );
        assert_eq!(
            histories.capture_score_of(Piece::Pawn, Square::D5, Some(Piece::Pawn)),
            Histories::bonus(4)
        );
        // A quiet cutoff penalises the capture that failed.
        histories.update_capture_cutoff(&board, mv("g1f3"), &[capture], 4);
        assert!(histories.capture_score(&board, capture) < Histories::bonus(4));
        assert_eq!(histories.capture_score(&board, mv("g1f3")), 0);
    }

    #[test]
    fn store_keeps_statistics_between_searches_but_not_killers() {
        let board = Board::default();
        let cont = ContextMoves::default();
        let best = mv("g1f3");
        let store = HistoryStore::new();

        let mut taken = store.take(2);
        assert_eq!(taken.len(), 2);
        taken[0].update_quiet_cutoff(&board, best, &[], 6, 3, &cont);
        taken[1].update_quiet_cutoff(&board, mv("b1c3"), &[], 4, 1, &cont);
        store.put_back(taken);

        // The next search sees the statistics, thread by thread; killers are gone.
        let mut taken = store.take(3);
        assert_eq!(taken.len(), 3);
        assert_eq!(
            taken[0].quiet_score(&board, best, &cont),
            Histories::bonus(6)
        );
        assert_eq!(
            taken[1].quiet_score(&board, mv("b1c3"), &cont),
            Histories::bonus(4)
        );
        assert_eq!(taken[2].quiet_score(&board, best, &cont), 0);
        assert_eq!(taken[0].killers(3), [None, None]);
        taken.truncate(1);
        store.put_back(taken);

        // Fewer threads keep the first tables. Tables taken and never put back (a search
        // that panicked) are gone; clearing forgets them all.
        assert_eq!(
            store.take(1)[0].quiet_score(&board, best, &cont),
            Histories::bonus(6)
        );
        assert_eq!(store.take(1)[0].quiet_score(&board, best, &cont), 0);
        let mut taken = store.take(1);
        taken[0].update_quiet_cutoff(&board, best, &[], 6, 3, &cont);
        store.put_back(taken);
        store.clear();
        assert_eq!(store.take(1)[0].quiet_score(&board, best, &cont), 0);
    }
}
