//! What one search thread carries through the tree: the stack of per-ply facts, the
//! principal variation, the move-ordering statistics, the positions on the path (for
//! repetitions) and the node counters.

use cozy_chess::{Board, Move, Piece, Square};

use super::evaluator::Evaluator;
use crate::position::{repetition_key, Game};
use crate::rules::OpponentAttacks;

use super::control::Control;
use super::history::Histories;
use super::tt::TranspositionTable;
use crate::score::{INFINITY, MAX_PLY};

/// Facts about one ply of the current line.
#[derive(Clone, Copy)]
pub struct Frame {
    pub static_eval: i32,
    /// The piece that moved to reach this ply and the square the move names (the rook's
    /// square for castling), for the histories (`None` after a null move or at the root).
    pub moved: Option<(Piece, Square)>,
    /// The move that reached this ply when it was quiet (`None` after a capture, a
    /// promotion or a null move, and at the root).
    pub quiet_move: Option<Move>,
    /// The hash move the singular-extension search at this ply leaves out.
    pub excluded: Option<Move>,
    /// How many double extensions the line from the root to this ply has had.
    pub double_extensions: u8,
    pub null_allowed: bool,
    /// How many nodes at this ply have failed high since the node two plies up began
    /// (its children's children: the replies to this ply's siblings' moves).
    pub cutoffs: u8,
    /// The squares the opponent attacks (set before the main search's move loop, and
    /// in the quiescence search only in check: quiet moves alone read them).
    pub threats: OpponentAttacks,
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            static_eval: -INFINITY,
            moved: None,
            quiet_move: None,
            excluded: None,
            double_extensions: 0,
            null_allowed: true,
            cutoffs: 0,
            threats: OpponentAttacks::default(),
        }
    }
}

/// The triangular principal-variation table.
pub struct PvTable {
    lines: Vec<[Option<Move>; MAX_PLY + 1]>,
    lengths: [usize; MAX_PLY + 1],
}

impl PvTable {
    fn new() -> PvTable {
        PvTable {
            lines: vec![[None; MAX_PLY + 1]; MAX_PLY + 1],
            lengths: [0; MAX_PLY + 1],
        }
    }

    pub fn clear(&mut self, ply: usize) {
        self.lengths[ply] = ply;
    }

    /// `mv` is best at `ply`: the line becomes `mv` followed by the child's line.
    pub fn update(&mut self, ply: usize, mv: Move) {
        self.lines[ply][ply] = Some(mv);
        let child_len = self.lengths[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.lines[ply][i] = self.lines[ply + 1][i];
        }
        self.lengths[ply] = child_len;
    }

    /// The principal variation from the root.
    pub fn root_line(&self) -> Vec<Move> {
        self.lines[0][..self.lengths[0]]
            .iter()
            .map_while(|m| *m)
            .collect()
    }
}

/// Late-move-reduction amounts by depth and move number: `base + ln(d) ln(m) / divisor`
/// (the bases and divisors are the `lmr_*` parameters of `params.rs`).
pub struct Reductions {
    quiet: Vec<[i32; 64]>,
    noisy: Vec<[i32; 64]>,
}

/// The reduction table, computed once for every search (a per-search table cost self-play,
/// with its thousands of short searches a minute, about 3% of its time in `ln`).
#[cfg(not(feature = "tune"))]
static REDUCTIONS: std::sync::LazyLock<Reductions> = std::sync::LazyLock::new(Reductions::new);

/// How a searcher holds the reduction table: a plain reference to the one table...
#[cfg(not(feature = "tune"))]
pub type ReductionTable = &'static Reductions;

/// ...or, in a `tune` build, a share of the table as it was when the search began (setting
/// a parameter of the table replaces it with a new one).
#[cfg(feature = "tune")]
pub type ReductionTable = std::sync::Arc<Reductions>;

#[cfg(feature = "tune")]
static REDUCTIONS: std::sync::LazyLock<parking_lot::RwLock<ReductionTable>> =
    std::sync::LazyLock::new(|| parking_lot::RwLock::new(std::sync::Arc::new(Reductions::new())));

/// The reduction table for a new search.
#[cfg(not(feature = "tune"))]
fn reductions() -> ReductionTable {
    &REDUCTIONS
}

/// The reduction table for a new search.
#[cfg(feature = "tune")]
fn reductions() -> ReductionTable {
    std::sync::Arc::clone(&REDUCTIONS.read())
}

/// Recomputes the reduction table from the current parameters (a `tune` build's
/// `setoption` of one of them); searches already running keep the old one.
#[cfg(feature = "tune")]
pub fn rebuild_reductions() {
    *REDUCTIONS.write() = std::sync::Arc::new(Reductions::new());
}

impl Reductions {
    fn new() -> Reductions {
        use super::params::{
            hundredths, lmr_noisy_base, lmr_noisy_divisor, lmr_quiet_base, lmr_quiet_divisor,
        };
        let table = |base: f64, divisor: f64| {
            let mut rows = vec![[0; 64]; 64];
            for (depth, row) in rows.iter_mut().enumerate().skip(1) {
                for (count, cell) in row.iter_mut().enumerate().skip(1) {
                    *cell = (base + (depth as f64).ln() * (count as f64).ln() / divisor) as i32;
                }
            }
            rows
        };
        Reductions {
            quiet: table(
                hundredths(lmr_quiet_base()),
                hundredths(lmr_quiet_divisor()),
            ),
            noisy: table(
                hundredths(lmr_noisy_base()),
                hundredths(lmr_noisy_divisor()),
            ),
        }
    }

    pub fn reduction(&self, depth: i32, move_count: usize, quiet: bool) -> i32 {
        let d = depth.clamp(0, 63) as usize;
        let m = move_count.min(63);
        if quiet {
            self.quiet[d][m]
        } else {
            self.noisy[d][m]
        }
    }
}

/// One search thread's state.
pub struct Searcher<'a> {
    pub tt: &'a TranspositionTable,
    pub control: Control<'a>,
    pub histories: Box<Histories>,
    pub lmr: ReductionTable,
    pub stack: Vec<Frame>,
    pub pv: PvTable,
    /// Hashes of the game's earlier positions, then of the positions on the current path.
    pub path: Vec<u64>,
    /// Length of `path` at the root: entries before it come from the game.
    pub root_index: usize,
    /// The root position with the game's earlier positions, to end reported lines where
    /// the game would end.
    pub root_game: Game,
    pub nodes: u64,
    pub seldepth: u32,
    pub root_depth: i32,
    /// The root moves to search this iteration (searchmoves, less MultiPV exclusions).
    pub root_moves: Vec<Move>,
    /// The root move to search first: the last depth's move for the line being searched,
    /// in the place of the hash move (which, after a MultiPV depth, is the last line's).
    pub root_first: Option<Move>,
    /// Nodes spent under each root move in the current iteration.
    pub root_nodes: Vec<(Move, u64)>,
    /// The best root move of the iteration so far, with its score.
    pub root_best: Option<(Move, i32)>,
    /// Where `currmove` lines go (main thread only).
    pub reporter: Option<Reporter<'a>>,
    /// The evaluation, updated along the line by the make-move path.
    pub evaluator: Evaluator,
    /// The Syzygy tables to probe inside the tree, if any.
    pub tablebases: Option<crate::tablebase::Probing>,
    /// The root's tablebase score, when the tables ranked the root moves: reported in
    /// place of the search's scores (short of a mate the search found).
    pub root_tb_score: Option<i32>,
}

/// The main thread's link to the GUI during the search.
pub struct Reporter<'a> {
    pub out: &'a crate::output::Output,
    pub chess960: bool,
    /// Whether `info` lines carry `wdl` (`UCI_ShowWDL`).
    pub show_wdl: bool,
    /// The root position, to write the PV in UCI notation.
    pub root: Board,
    /// When the search started, for `time` and `nps`.
    pub started: std::time::Instant,
}

impl<'a> Searcher<'a> {
    pub fn new(
        tt: &'a TranspositionTable,
        histories: Box<Histories>,
        control: Control<'a>,
        game: &Game,
        evaluator: Evaluator,
    ) -> Searcher<'a> {
        let mut path = Vec::with_capacity(game.history.len() + MAX_PLY + 8);
        path.extend_from_slice(&game.history);
        Searcher {
            tt,
            control,
            histories,
            lmr: reductions(),
            stack: vec![Frame::default(); MAX_PLY + 8],
            pv: PvTable::new(),
            root_index: path.len(),
            root_game: game.clone(),
            path,
            nodes: 0,
            seldepth: 0,
            root_depth: 0,
            root_moves: Vec::new(),
            root_first: None,
            root_nodes: Vec::new(),
            root_best: None,
            reporter: None,
            evaluator,
            tablebases: None,
            root_tb_score: None,
        }
    }

    /// The root's principal variation as far as the game would go: cut after the first
    /// move that ends the game by the rules (see [`crate::rules::line_until_game_end`]).
    pub fn root_line(&self) -> Vec<Move> {
        let mut line = self.pv.root_line();
        line.truncate(crate::rules::line_until_game_end(&self.root_game, &line));
        line
    }

    /// The search's one make-move call: the position after `mv` from `board`, with its
    /// hash-table entry prefetched. Recording the move on the ply stack is `push_move`'s
    /// job (the main search makes the child before deciding whether to search it).
    #[inline]
    pub fn make_move(&self, board: &Board, mv: Move) -> Board {
        let mut child = board.clone();
        child.play_unchecked(mv);
        self.tt.prefetch(child.hash());
        child
    }

    /// Makes `mv` from `board` (the position at `ply`) and records it (`push_move`).
    /// Returns the child position.
    #[inline]
    pub fn play(&mut self, board: &Board, mv: Move, ply: usize) -> Board {
        let child = self.make_move(board, mv);
        self.push_move(board, mv, crate::rules::is_quiet(board, mv), ply);
        child
    }

    /// Records `mv`, about to be searched from `board` at `ply`, on the ply stack: the
    /// moved piece at `ply + 1` for the histories (and the move itself when `quiet`, as
    /// the caller has already decided), `board`'s repetition key on the repetition path
    /// (its hash without an en-passant file no pawn can use, as the game's history keeps
    /// it), and the move's delta on the evaluator's stack (which computes it only when it
    /// needs it). For callers that made the child board earlier (the main search makes
    /// it before its pruning decisions, which need to know whether it gives check).
    #[inline]
    pub fn push_move(&mut self, board: &Board, mv: Move, quiet: bool, ply: usize) {
        self.stack[ply + 1].moved = board.piece_on(mv.from).map(|piece| (piece, mv.to));
        self.stack[ply + 1].quiet_move = quiet.then_some(mv);
        self.path.push(repetition_key(board));
        self.evaluator.push(board, mv);
    }

    /// Makes the null move from `board` at `ply`, if the position allows one (not in
    /// check), and records it.
    #[inline]
    pub fn play_null(&mut self, board: &Board, ply: usize) -> Option<Board> {
        let child = board.null_move()?;
        self.stack[ply + 1].moved = None;
        self.stack[ply + 1].quiet_move = None;
        self.path.push(repetition_key(board));
        self.evaluator.push_null();
        Some(child)
    }

    /// Takes back the last move (or null move) recorded.
    #[inline]
    pub fn unplay(&mut self) {
        self.path.pop();
        self.evaluator.pop();
    }

    /// The static evaluation of `board`, the position at `ply`, from the side to move's
    /// view. The search's one evaluation call: a stateful evaluation updated from the
    /// deltas on the stack slots in here.
    #[inline]
    pub fn evaluate(&mut self, board: &Board, _ply: usize) -> i32 {
        self.evaluator.evaluate(board)
    }

    /// Fifty-move rule, repetition (twice inside the tree, three times counting the
    /// game before the root) and insufficient material (`rules.rs`).
    #[inline]
    pub fn is_draw(&self, board: &Board) -> bool {
        crate::rules::search_draw(board, &self.path, self.root_index)
    }

    /// The score of a draw; a tiny node-dependent wobble keeps the search from
    /// settling on the first drawing line it sees.
    #[inline]
    pub fn draw_score(&self) -> i32 {
        1 - (self.nodes & 2) as i32
    }

    /// The score to report for a root line the search scored `score`: the tablebase
    /// verdict when the tables ranked the root, unless the search found a mate.
    pub fn root_score(&self, score: i32) -> i32 {
        match self.root_tb_score {
            Some(tb) if !crate::score::is_mate(score) => tb,
            _ => score,
        }
    }

    pub fn is_root_move(&self, mv: Move) -> bool {
        self.root_moves.contains(&mv)
    }

    pub fn record_root_nodes(&mut self, mv: Move, nodes: u64) {
        if let Some(entry) = self.root_nodes.iter_mut().find(|(m, _)| *m == mv) {
            entry.1 += nodes;
        } else {
            self.root_nodes.push((mv, nodes));
        }
    }
}
