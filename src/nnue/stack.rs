//! The incremental, lazy accumulator stack of one search thread.
//!
//! Every ply of the current line has a slot: the [`MoveDelta`] that led to it (or `None`
//! for a null move), whether its accumulators are computed, and room for them (White's
//! view, then Black's; pre-allocated for [`STACK_PLIES`] plies and grown if a line is ever
//! longer). [`NnueStack::push`] only records the delta; [`NnueStack::evaluate`] walks back
//! to the nearest computed ply and applies the deltas forward from there, so that nodes
//! that are never evaluated cost nothing but the record. Each perspective is brought up
//! to date on its own: with king-mirrored inputs, a king move across the middle of the
//! board changes every feature of its side's view, so that view is recomputed from the
//! board instead (`Inputs::mirrors`; rare, and never with plain inputs).

use std::sync::Arc;

use cozy_chess::{Board, Color, Piece};

use super::file::Inputs;
use super::network::Network;
use super::simd::{self, Backend, Chunk};
use crate::moves::MoveDelta;
use crate::score::MAX_PLY;

/// Plies pre-allocated: the search's deepest line plus a margin.
pub const STACK_PLIES: usize = MAX_PLY + 16;

/// One ply's record.
#[derive(Debug, Clone, Copy)]
struct Slot {
    /// The move that led here from the previous ply; `None` for a null move (and the root).
    delta: Option<MoveDelta>,
    /// Whether this ply's accumulators are up to date: White's view, then Black's.
    computed: [bool; 2],
}

const ROOT: Slot = Slot {
    delta: None,
    computed: [true; 2],
};

/// Both perspectives in the order of the accumulators and of [`Slot::computed`].
const PERSPECTIVES: [Color; 2] = [Color::White, Color::Black];

/// The accumulators of the current line of one search thread.
#[derive(Debug, Clone)]
pub struct NnueStack {
    net: Arc<Network>,
    /// The position at ply 0, kept to recompute it when the network changes.
    root: Board,
    slots: Vec<Slot>,
    /// `slots.len() × 2` accumulators of `net.hidden() / 16` chunks: ply `p`, colour `c`
    /// at `(2p + c) · chunks`.
    acc: Vec<Chunk>,
    ply: usize,
}

impl NnueStack {
    /// A stack for `net`, set to the standard start position.
    pub fn new(net: Arc<Network>) -> NnueStack {
        let mut stack = NnueStack {
            acc: vec![Chunk::default(); STACK_PLIES * 2 * net.chunks()],
            net,
            root: Board::default(),
            slots: vec![ROOT; STACK_PLIES],
            ply: 0,
        };
        stack.compute_root();
        stack
    }

    /// Starts a new line at `board` (ply 0), computing its accumulators from scratch.
    pub fn reset(&mut self, board: &Board) {
        self.root = board.clone();
        self.ply = 0;
        self.compute_root();
    }

    /// Records `delta` (built from the position before the move) as the next ply.
    #[inline]
    pub fn push(&mut self, delta: &MoveDelta) {
        self.push_slot(Some(*delta));
    }

    /// Records a null move as the next ply.
    #[inline]
    pub fn push_null(&mut self) {
        self.push_slot(None);
    }

    /// Returns to the previous ply (a pop at the root does nothing).
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.ply > 0, "NnueStack::pop at the root");
        self.ply = self.ply.saturating_sub(1);
    }

    /// The current ply (0 at the root).
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// The evaluation of the current ply's position `board`, in centipawns for its side
    /// to move. The pieces' places come from the deltas; `board` gives the side to move,
    /// the piece count (the output bucket) and the kings (and the whole position when a
    /// king-mirrored view must be recomputed).
    pub fn evaluate(&mut self, board: &Board) -> i32 {
        let stm = board.side_to_move();
        debug_assert_eq!(
            stm,
            if self.ply.is_multiple_of(2) {
                self.root.side_to_move()
            } else {
                !self.root.side_to_move()
            },
            "the board is not the stack's current position"
        );
        self.materialise(board);
        let [white, black] = self.current();
        let (us, them) = match stm {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        self.net.output(
            self.net.backend(),
            board.occupied().len() as usize,
            us,
            them,
        )
    }

    /// Switches to `net` (the UCI option EvalFile), keeping the current line: the root is
    /// recomputed and every later ply is recomputed from its delta when next evaluated.
    pub fn set_network(&mut self, net: Arc<Network>) {
        if net.hidden() != self.net.hidden() {
            self.acc = vec![Chunk::default(); self.slots.len() * 2 * net.chunks()];
        }
        self.net = net;
        for slot in &mut self.slots[1..] {
            slot.computed = [false; 2];
        }
        self.compute_root();
    }

    /// The network in use.
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// The current ply's accumulators from White's and Black's view, computed
    /// (`board` is the current ply's position).
    #[cfg(test)]
    pub(crate) fn accumulators(&mut self, board: &Board) -> [&[Chunk]; 2] {
        self.materialise(board);
        self.current()
    }

    fn current(&self) -> [&[Chunk]; 2] {
        let n = self.net.chunks();
        let (white, black) = self.acc[2 * self.ply * n..(2 * self.ply + 2) * n].split_at(n);
        [white, black]
    }

    fn push_slot(&mut self, delta: Option<MoveDelta>) {
        self.ply += 1;
        if self.ply == self.slots.len() {
            self.grow();
        }
        self.slots[self.ply] = Slot {
            delta,
            computed: [false; 2],
        };
    }

    /// Doubles the room for plies (a line longer than [`STACK_PLIES`]: never in a search
    /// that keeps to `MAX_PLY`).
    #[cold]
    fn grow(&mut self) {
        let plies = 2 * self.slots.len();
        self.slots.resize(plies, ROOT);
        self.acc
            .resize(plies * 2 * self.net.chunks(), Chunk::default());
    }

    fn compute_root(&mut self) {
        let n = self.net.chunks();
        let backend = self.net.backend();
        let (white, rest) = self.acc.split_at_mut(n);
        self.net.refresh(backend, &self.root, Color::White, white);
        self.net
            .refresh(backend, &self.root, Color::Black, &mut rest[..n]);
        self.slots[0] = ROOT;
    }

    /// Brings each perspective's accumulator of the current ply (position `board`) up
    /// to date: forward from its nearest computed ply, or from the board if a king move
    /// on the way changed how that perspective sees the board.
    #[inline]
    fn materialise(&mut self, board: &Board) {
        for (c, perspective) in PERSPECTIVES.into_iter().enumerate() {
            if self.slots[self.ply].computed[c] {
                continue;
            }
            let mut from = self.ply;
            while !self.slots[from].computed[c] {
                from -= 1;
            }
            if self.view_changes(perspective, from + 1..=self.ply) {
                self.refresh_current(board, c, perspective);
            } else {
                // No king move on the way crossed the middle: the view is mirrored, or
                // not, at every ply as it is now.
                let mirrored = self.net.inputs().mirrors(board.king(perspective));
                for ply in from + 1..=self.ply {
                    self.apply(ply, c, perspective, mirrored);
                    self.slots[ply].computed[c] = true;
                }
            }
        }
    }

    /// Whether one of the moves of `plies` is a king move of `perspective`'s side from one
    /// half of the board to the other, in a network whose inputs mirror the board by it.
    #[inline]
    fn view_changes(&self, perspective: Color, plies: std::ops::RangeInclusive<usize>) -> bool {
        let inputs = self.net.inputs();
        inputs != Inputs::Plain
            && self.slots[plies].iter().any(|slot| {
                slot.delta.is_some_and(|d| {
                    d.mover == perspective
                        && d.piece == Piece::King
                        && inputs.mirrors(d.from) != inputs.mirrors(d.to)
                })
            })
    }

    /// Computes the current ply's accumulator of `perspective` (index `c`) from `board`.
    #[cold]
    fn refresh_current(&mut self, board: &Board, c: usize, perspective: Color) {
        let n = self.net.chunks();
        let at = (2 * self.ply + c) * n;
        let backend = self.net.backend();
        self.net
            .refresh(backend, board, perspective, &mut self.acc[at..at + n]);
        self.slots[self.ply].computed[c] = true;
    }

    /// Computes ply `ply`'s accumulator of `perspective` (index `c`, its view `mirrored`
    /// or not) from ply `ply - 1`'s and the delta between them.
    #[inline]
    fn apply(&mut self, ply: usize, c: usize, perspective: Color, mirrored: bool) {
        let n = self.net.chunks();
        let backend = self.net.backend();
        let (before, after) = self.acc.split_at_mut(2 * ply * n);
        let src = &before[(2 * (ply - 1) + c) * n..][..n];
        let dst = &mut after[c * n..(c + 1) * n];
        match &self.slots[ply].delta {
            Some(delta) => update(&self.net, backend, perspective, mirrored, dst, src, delta),
            None => simd::update::<0, 0>(backend, dst, src, [], []),
        }
    }
}

/// `dst = src` changed by `delta`, seen from `perspective` (its view `mirrored` or not):
/// one fused pass per move kind.
#[inline(always)]
fn update(
    net: &Network,
    backend: Backend,
    perspective: Color,
    mirrored: bool,
    dst: &mut [Chunk],
    src: &[Chunk],
    d: &MoveDelta,
) {
    let row = |color, piece, square| net.piece_row(perspective, mirrored, color, piece, square);
    let add = row(d.mover, d.placed, d.to);
    let sub = row(d.mover, d.piece, d.from);
    let taken = d
        .captured
        .map(|(piece, square)| row(!d.mover, piece, square));
    let rook = d.rook.map(|(from, to)| {
        (
            row(d.mover, Piece::Rook, to),
            row(d.mover, Piece::Rook, from),
        )
    });
    match (taken, rook) {
        (None, None) => simd::update(backend, dst, src, [add], [sub]),
        (Some(taken), None) => simd::update(backend, dst, src, [add], [sub, taken]),
        (None, Some((rook_add, rook_sub))) => {
            simd::update(backend, dst, src, [add, rook_add], [sub, rook_sub]);
        }
        // No legal move both captures and castles; handled for completeness.
        (Some(taken), Some((rook_add, rook_sub))) => {
            simd::update(backend, dst, src, [add, rook_add], [sub, rook_sub, taken]);
        }
    }
}
