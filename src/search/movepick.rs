//! The staged move picker: hands out the moves of a node one at a time, best guesses
//! first, generating and scoring as late as possible so that a cutoff saves the work.
//!
//! Main search order: the transposition-table move; captures and queen promotions that do
//! not lose material (by MVV-LVA plus capture history, checked by SEE); the two killers;
//! the countermove; the other quiet moves (by butterfly plus continuation history, plus
//! bonuses for escaping or entering a cheaper attacker's reach, for a direct check and for
//! attacking a more valuable piece: see `quiet_order_score`); and last the losing
//! captures and the underpromotions. Every legal move comes exactly once.
//!
//! Quiescence search ([`MovePicker::new_qsearch`]) hands out the transposition-table move
//! and the captures and queen promotions (underpromotions excluded), by MVV-LVA plus
//! capture history; in check, every evasion in main-search order instead.
//!
//! Nothing is allocated: the moves live in a fixed array inside the picker.

use cozy_chess::{BitBoard, Board, Color, Move, Piece, PieceMoves, Rank, Square};

use super::history::{ContextMoves, Histories};
use super::params;
use super::see::{see_ge, see_value};
use crate::moves::captured;
use crate::rules::{is_noisy, is_quiet, OpponentAttacks};

/// What kind of move the picker handed out last (see [`MovePicker::stage`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// No move handed out yet.
    Start,
    /// The transposition-table move (of any kind).
    TtMove,
    /// A capture or queen promotion that does not lose material by SEE.
    GoodCaptures,
    /// The first killer (a quiet move).
    Killer1,
    /// The second killer (a quiet move).
    Killer2,
    /// The countermove of the previous move (a quiet move).
    CounterMove,
    /// Another quiet move, by `quiet_order_score` (histories and bonuses).
    Quiets,
    /// A capture or queen promotion that loses material by SEE, or an underpromotion.
    BadCaptures,
    /// Quiescence search: a capture or queen promotion.
    QsCaptures,
    /// Every move has been handed out.
    Done,
}

/// Where the picker is in its sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    TtMove,
    GenerateNoisy,
    GoodNoisy,
    Killer1,
    Killer2,
    CounterMove,
    GenerateQuiets,
    Quiets,
    BadNoisy,
    QsTtMove,
    QsGenerate,
    QsNoisy,
    Done,
}

/// More than the legal moves of any position a FEN may set up: at most 218 with the
/// material promotions can give, which `position::parse_fen` enforces (with up to 15
/// queens a side, 241 were found).
pub const MAX_MOVES: usize = 256;
/// Move generation calls back at most 18 times: once per piece, and twice more for en
/// passant captures.
const MAX_PIECE_MOVES: usize = 18;
/// Ordering score of an underpromotion (plus the promoted piece's value): below every
/// capture, so that underpromotions are deferred last.
const UNDERPROMOTION_SCORE: i32 = -30_000;

/// A move and its ordering score in one `i32`: the score, clamped to 16 bits, above the
/// move's 15 bits, so that comparing entries compares scores. Four bytes rather than
/// eight for a `(Move, i32)` pair: the picker's array is cleared (and often copied) at
/// every node, so its size shows in the node rate (measured: 129 ns down to 41 ns for a
/// picker that hands out its TT move). Capture scores always fit; quiet history sums
/// (three tables of ±16384) saturate, which only merges the extremes.
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Entry(i32);

impl Entry {
    /// Packs `mv` with `score` (clamped to `i16`).
    #[inline(always)]
    fn new(mv: Move, score: i32) -> Entry {
        // A promotion is never to a pawn, so 0 can stand for none.
        let promotion = mv.promotion.map_or(0, |piece| piece as i32);
        let bits = mv.from as i32 | (mv.to as i32) << 6 | promotion << 12;
        let score = score.clamp(i16::MIN.into(), i16::MAX.into());
        Entry(score << 16 | bits)
    }

    #[inline(always)]
    fn mv(self) -> Move {
        Move {
            from: Square::index((self.0 & 63) as usize),
            to: Square::index((self.0 >> 6 & 63) as usize),
            promotion: Piece::try_index((self.0 >> 12 & 7) as usize)
                .filter(|&piece| piece != Piece::Pawn),
        }
    }
}

/// A staged move picker for one node. Create it, then call [`MovePicker::next`] until it
/// returns `None`, always with the same board.
#[derive(Clone)]
pub struct MovePicker {
    phase: Phase,
    last: Stage,
    skip_quiets: bool,
    /// The TT move; `None` once found unusable (so that nothing skips it).
    tt_move: Option<Move>,
    /// The killers; each is `None` once found unusable.
    killers: [Option<Move>; 2],
    counter: Option<Move>,
    /// The legal moves of the board by piece, saved by the capture generation so that
    /// the quiet moves need no second move generation.
    piece_moves: [PieceMoves; MAX_PIECE_MOVES],
    piece_moves_len: usize,
    /// `[0, bad_end)`: deferred (losing) captures and underpromotions;
    /// `[bad_end, cursor)`: handed out; `[cursor, noisy_end)`: captures still to pick;
    /// `[noisy_end, len)`: quiet moves (once generated).
    moves: [Entry; MAX_MOVES],
    len: usize,
    cursor: usize,
    bad_end: usize,
    noisy_end: usize,
    /// Next deferred capture to hand out.
    bad_cursor: usize,
}

impl MovePicker {
    /// A picker for the main search, with the TT move, the killers of this ply and the
    /// countermove of the previous move (any of them may be garbage: each is checked).
    pub fn new(tt_move: Option<Move>, killers: [Option<Move>; 2], counter: Option<Move>) -> Self {
        MovePicker {
            phase: Phase::TtMove,
            last: Stage::Start,
            skip_quiets: false,
            tt_move,
            killers,
            counter,
            piece_moves: [PieceMoves {
                piece: Piece::Pawn,
                from: Square::A1,
                to: BitBoard::EMPTY,
            }; MAX_PIECE_MOVES],
            piece_moves_len: 0,
            moves: [Entry::default(); MAX_MOVES],
            len: 0,
            cursor: 0,
            bad_end: 0,
            noisy_end: 0,
            bad_cursor: 0,
        }
    }

    /// A picker for the quiescence search: the TT move if it is a capture or queen
    /// promotion, then the other captures and queen promotions; when `in_check`, every
    /// evasion as in the main search (without killers).
    pub fn new_qsearch(tt_move: Option<Move>, in_check: bool) -> Self {
        let mut picker = Self::new(tt_move, [None; 2], None);
        if !in_check {
            picker.phase = Phase::QsTtMove;
        }
        picker
    }

    /// Stops handing out quiet moves, killers and countermove included (late move
    /// pruning). Losing captures still come.
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// The kind of the move last handed out ([`Stage::Done`] once exhausted).
    pub fn stage(&self) -> Stage {
        self.last
    }

    /// The next move, or `None` when every move has been handed out.
    pub fn next(
        &mut self,
        board: &Board,
        histories: &Histories,
        cont: &ContextMoves,
    ) -> Option<Move> {
        let mv = self.advance(board, histories, cont);
        if mv.is_none() {
            self.last = Stage::Done;
        }
        mv
    }

    fn advance(
        &mut self,
        board: &Board,
        histories: &Histories,
        cont: &ContextMoves,
    ) -> Option<Move> {
        loop {
            match self.phase {
                Phase::TtMove => {
                    self.phase = Phase::GenerateNoisy;
                    match self.tt_move {
                        Some(mv) if board.is_legal(mv) => return self.hand_out(mv, Stage::TtMove),
                        _ => self.tt_move = None,
                    }
                }
                Phase::GenerateNoisy => {
                    self.generate_noisy(board, histories, true);
                    self.phase = Phase::GoodNoisy;
                }
                Phase::GoodNoisy => {
                    while self.cursor < self.noisy_end {
                        let mv = self.pick_best(self.noisy_end);
                        let good =
                            !is_underpromotion(mv) && see_ge(board, mv, params::good_capture_see());
                        if good {
                            return self.hand_out(mv, Stage::GoodCaptures);
                        }
                        // Defer it: swap it to the end of the deferred block.
                        self.moves.swap(self.bad_end, self.cursor - 1);
                        self.bad_end += 1;
                    }
                    self.phase = Phase::Killer1;
                }
                Phase::Killer1 | Phase::Killer2 | Phase::CounterMove => {
                    if let Some(mv) = self.special_quiet(board) {
                        return Some(mv);
                    }
                }
                Phase::GenerateQuiets => {
                    if self.skip_quiets {
                        self.phase = Phase::BadNoisy;
                        continue;
                    }
                    self.generate_quiets(board, histories, cont);
                    self.phase = Phase::Quiets;
                }
                Phase::Quiets => {
                    if !self.skip_quiets && self.cursor < self.len {
                        let mv = self.pick_best(self.len);
                        return self.hand_out(mv, Stage::Quiets);
                    }
                    self.phase = Phase::BadNoisy;
                }
                Phase::BadNoisy => {
                    if self.bad_cursor < self.bad_end {
                        let mv = self.moves[self.bad_cursor].mv();
                        self.bad_cursor += 1;
                        return self.hand_out(mv, Stage::BadCaptures);
                    }
                    self.phase = Phase::Done;
                }
                Phase::QsTtMove => {
                    self.phase = Phase::QsGenerate;
                    match self.tt_move {
                        Some(mv)
                            if is_noisy(board, mv)
                                && !is_underpromotion(mv)
                                && board.is_legal(mv) =>
                        {
                            return self.hand_out(mv, Stage::TtMove)
                        }
                        _ => self.tt_move = None,
                    }
                }
                Phase::QsGenerate => {
                    self.generate_noisy(board, histories, false);
                    self.phase = Phase::QsNoisy;
                }
                Phase::QsNoisy => {
                    if self.cursor < self.noisy_end {
                        let mv = self.pick_best(self.noisy_end);
                        return self.hand_out(mv, Stage::QsCaptures);
                    }
                    self.phase = Phase::Done;
                }
                Phase::Done => return None,
            }
        }
    }

    /// The phases `Killer1`, `Killer2` and `CounterMove`: moves on to the next phase and
    /// hands out this phase's move if it is usable (a legal quiet move not handed out by
    /// an earlier phase); an unusable one is forgotten, so that the quiet moves do not
    /// skip it as already searched.
    #[inline(always)]
    fn special_quiet(&mut self, board: &Board) -> Option<Move> {
        let (slot, stage, next) = match self.phase {
            Phase::Killer1 => (0, Stage::Killer1, Phase::Killer2),
            Phase::Killer2 => (1, Stage::Killer2, Phase::CounterMove),
            _ => (2, Stage::CounterMove, Phase::GenerateQuiets),
        };
        self.phase = next;
        if self.skip_quiets {
            return None;
        }
        let candidates = [self.killers[0], self.killers[1], self.counter];
        let earlier = [self.tt_move, self.killers[0], self.killers[1]];
        match candidates[slot] {
            Some(mv) if Self::is_usable_quiet(board, mv, &earlier[..=slot]) => {
                self.hand_out(mv, stage)
            }
            _ => {
                match slot {
                    0 => self.killers[0] = None,
                    1 => self.killers[1] = None,
                    _ => self.counter = None,
                }
                None
            }
        }
    }

    #[inline(always)]
    fn hand_out(&mut self, mv: Move, stage: Stage) -> Option<Move> {
        self.last = stage;
        Some(mv)
    }

    /// Whether the killer or countermove `mv` may be handed out: a legal quiet move,
    /// none of the moves `handed_out`.
    #[inline(always)]
    fn is_usable_quiet(board: &Board, mv: Move, handed_out: &[Option<Move>]) -> bool {
        !handed_out.contains(&Some(mv)) && is_quiet(board, mv) && board.is_legal(mv)
    }

    /// Generates the legal captures and promotions (underpromotions only if
    /// `underpromotions`), except the TT move, into `[0, noisy_end)`; saves all the
    /// legal moves by piece for [`MovePicker::generate_quiets`].
    fn generate_noisy(&mut self, board: &Board, histories: &Histories, underpromotions: bool) {
        let us = board.side_to_move();
        let their = board.colors(!us);
        let pawn_targets = their | promotion_rank(board) | en_passant_target(board);
        let tt_move = self.tt_move;
        let moves = &mut self.moves;
        let piece_moves = &mut self.piece_moves;
        let mut piece_moves_len = 0;
        let mut len = 0;
        board.generate_moves(|all| {
            // Field by field: a single 16-byte copy of `all`, which the generator has
            // just written field by field, stalls on store forwarding (measured).
            let slot = &mut piece_moves[piece_moves_len];
            slot.to = all.to;
            slot.from = all.from;
            slot.piece = all.piece;
            piece_moves_len += 1;
            let targets = if all.piece == Piece::Pawn {
                pawn_targets
            } else {
                their
            };
            let noisy = PieceMoves {
                to: all.to & targets,
                ..all
            };
            for mv in noisy {
                if Some(mv) == tt_move {
                    continue;
                }
                let victim = captured(board, mv).map(|(piece, _)| piece);
                let score = match mv.promotion {
                    Some(Piece::Queen) | None => {
                        let gain = victim.map_or(0, see_value)
                            + mv.promotion
                                .map_or(0, |p| see_value(p) - see_value(Piece::Pawn));
                        // MVV-LVA: mostly the victim (16 x 200 or more between
                        // victims), then the attacker; capture history (within ±4096)
                        // may swap victims of neighbouring values. The result lies in
                        // [-2608, 31296]: it fits an `Entry`.
                        16 * gain - see_value(all.piece) / 8
                            + histories.capture_score_of(all.piece, mv.to, victim) / 4
                    }
                    Some(piece) if underpromotions => UNDERPROMOTION_SCORE + see_value(piece),
                    Some(_) => continue,
                };
                moves[len] = Entry::new(mv, score);
                len += 1;
            }
            false
        });
        self.piece_moves_len = piece_moves_len;
        self.len = len;
        self.noisy_end = len;
    }

    /// Appends the quiet moves, except those already handed out, scored by
    /// `quiet_order_score`.
    fn generate_quiets(&mut self, board: &Board, histories: &Histories, cont: &ContextMoves) {
        let us = board.side_to_move();
        let their = board.colors(!us);
        let not_pawn_quiet = their | promotion_rank(board) | en_passant_target(board);
        let handed_out = [self.tt_move, self.killers[0], self.killers[1], self.counter];
        let targets = QuietTargets::of(board, &cont.threats);
        for &all in &self.piece_moves[..self.piece_moves_len] {
            let excluded = if all.piece == Piece::Pawn {
                not_pawn_quiet
            } else {
                their
            };
            let quiets = PieceMoves {
                to: all.to & !excluded,
                ..all
            };
            for mv in quiets {
                if handed_out.contains(&Some(mv)) {
                    continue;
                }
                let score = quiet_order_score(histories, us, all.piece, mv, cont, &targets);
                self.moves[self.len] = Entry::new(mv, score);
                self.len += 1;
            }
        }
    }

    /// Selection step: swaps the best-scored move of `[cursor, end)` to `cursor`, takes it.
    #[inline(always)]
    fn pick_best(&mut self, end: usize) -> Move {
        let candidates = &self.moves[self.cursor..end];
        let mut best = 0;
        let mut best_entry = candidates[0];
        for (i, &entry) in candidates.iter().enumerate().skip(1) {
            if entry > best_entry {
                best = i;
                best_entry = entry;
            }
        }
        self.moves.swap(self.cursor, self.cursor + best);
        self.cursor += 1;
        best_entry.mv()
    }
}

#[inline(always)]
fn is_underpromotion(mv: Move) -> bool {
    matches!(mv.promotion, Some(p) if p != Piece::Queen)
}

/// The rank where the side to move promotes.
#[inline(always)]
fn promotion_rank(board: &Board) -> BitBoard {
    Rank::Eighth.relative_to(board.side_to_move()).bitboard()
}

/// The square an en passant capture would land on, if any.
#[inline(always)]
fn en_passant_target(board: &Board) -> BitBoard {
    board.en_passant().map_or(BitBoard::EMPTY, |file| {
        Square::new(file, Rank::Sixth.relative_to(board.side_to_move())).bitboard()
    })
}

/// The score that orders a quiet move of `piece`: its histories, the threat bonus, and the
/// check and attack bonuses (`targets` of the node).
///
/// The check bonus (`params::check_bonus`) is for a quiet move that checks directly (not
/// by discovery).
/// Measured: +18.1 ± 16.9 Elo (added vs without, 1,000 games at 10,000 nodes/move, seed
/// 87, on top of the threat bonus).
///
/// The attack bonus (`params::attack_bonus`) is for a quiet move that attacks a more
/// valuable enemy piece (not the king) from a square no cheaper enemy piece attacks.
/// Measured: +24.7 ± 17.4 Elo (added vs without, 1,000 games at 10,000 nodes/move, seed
/// 96, LOS 99.7%, on top of the check bonus). (This and the check bonus at 10,000 each
/// measured -5.9 ± 17.2 Elo in 1,000 games at 10,000 nodes/move: left at 6,000.)
#[inline(always)]
fn quiet_order_score(
    histories: &Histories,
    us: Color,
    piece: Piece,
    mv: Move,
    cont: &ContextMoves,
    targets: &QuietTargets,
) -> i32 {
    let lands_on = |squares: &[BitBoard; 5]| {
        squares
            .get(piece as usize)
            .is_some_and(|squares| squares.has(mv.to))
    };
    histories.quiet_score_of(us, piece, mv, cont)
        + threat_bonus(&cont.threats, piece, mv)
        + i32::from(lands_on(&targets.checks)) * params::check_bonus()
        + i32::from(lands_on(&targets.attacks)) * params::attack_bonus()
}

/// Where the quiet moves of a node would hit something: for each piece of the side to
/// move (pawn to queen, by index), the squares it checks from and the squares it attacks
/// a more valuable piece from. Computed once per quiet generation.
struct QuietTargets {
    checks: [BitBoard; 5],
    attacks: [BitBoard; 5],
}

impl QuietTargets {
    /// The check squares (a king never checks) and the attack squares: a pawn hitting a
    /// minor or more, a minor a rook or a queen, a rook a queen, from a square no cheaper
    /// enemy piece attacks (`threats`). Sliders' rays are those of the board as it stands.
    fn of(board: &Board, threats: &OpponentAttacks) -> QuietTargets {
        use cozy_chess::{get_bishop_moves, get_knight_moves, get_pawn_attacks, get_rook_moves};
        let them = !board.side_to_move();
        let theirs = board.colors(them);
        let occupied = board.occupied();

        let king = board.king(them);
        let diagonal = get_bishop_moves(king, occupied);
        let straight = get_rook_moves(king, occupied);
        let checks = [
            get_pawn_attacks(king, them),
            get_knight_moves(king),
            diagonal,
            straight,
            diagonal | straight,
        ];

        let queens = theirs & board.pieces(Piece::Queen);
        let majors = queens | (theirs & board.pieces(Piece::Rook));
        let pieces =
            majors | (theirs & (board.pieces(Piece::Knight) | board.pieces(Piece::Bishop)));
        let mut pawn = BitBoard::EMPTY;
        for sq in pieces {
            pawn |= get_pawn_attacks(sq, them);
        }
        let mut knight = BitBoard::EMPTY;
        let mut bishop = BitBoard::EMPTY;
        for sq in majors {
            knight |= get_knight_moves(sq);
            bishop |= get_bishop_moves(sq, occupied);
        }
        let mut rook = BitBoard::EMPTY;
        for sq in queens {
            rook |= get_rook_moves(sq, occupied);
        }
        let attacks = [
            pawn & !threats.pawn,
            knight & !threats.pawn,
            bishop & !threats.pawn,
            rook & !threats.minor,
            BitBoard::EMPTY,
        ];
        QuietTargets { checks, attacks }
    }
}

/// What a quiet move of `piece` adds to its history score for the opponent's `threats`:
/// a bonus for taking the piece out of a cheaper attacker's reach, a malus for moving it
/// into it.
/// Measured: +31.3 ± 18.4 Elo (added vs without, SPRT [0, 10] at 10,000 nodes/move, H1
/// after 834 games, pentanomial).
fn threat_bonus(threats: &OpponentAttacks, piece: Piece, mv: Move) -> i32 {
    let (cheaper, value) = match piece {
        Piece::Queen => (threats.rook, params::threat_queen()),
        Piece::Rook => (threats.minor, params::threat_rook()),
        Piece::Knight | Piece::Bishop => (threats.pawn, params::threat_minor()),
        _ => return 0,
    };
    match (cheaper.has(mv.from), cheaper.has(mv.to)) {
        (true, false) => value,
        (false, true) => -value,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::is_capture;
    use crate::position::{legal_moves, parse_fen};

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
    const POSITION_4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
    const POSITION_5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
    /// Chess960: king on c1 with rooks on b1 and h1, both sides may castle both ways
    /// (queenside the king stays on c1).
    const CHESS960: &str = "nrk4r/pppbqppp/3p1n2/4p3/4P3/3P1N2/PPPBQPPP/NRK4R w HBhb - 0 1";

    fn load(fen: &str) -> Board {
        parse_fen(fen, true).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    fn mv(text: &str) -> Move {
        text.parse().unwrap_or_else(|_| panic!("bad move {text}"))
    }

    /// Plain perft straight from the move generator.
    fn perft(board: &Board, depth: u32) -> u64 {
        let mut nodes = 0;
        board.generate_moves(|moves| {
            if depth == 1 {
                nodes += moves.len() as u64;
            } else {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    nodes += perft(&child, depth - 1);
                }
            }
            false
        });
        nodes
    }

    /// xorshift64*: deterministic randomness for the tests.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// How the picker perft feeds the picker.
    #[derive(Clone, Copy, PartialEq)]
    enum Feed {
        /// No TT move, killers or countermove; empty histories.
        Empty,
        /// Random TT moves, killers and countermoves (often illegal or noisy), and
        /// random history updates after each node.
        Random,
    }

    struct Walk {
        feed: Feed,
        rng: Rng,
        histories: Histories,
        /// Moves seen elsewhere in the tree, to inject as garbage.
        pool: Vec<Move>,
    }

    impl Walk {
        fn new(feed: Feed) -> Walk {
            Walk {
                feed,
                rng: Rng(0x9e37_79b9_7f4a_7c15),
                histories: Histories::new(),
                pool: Vec::new(),
            }
        }

        /// A random candidate move for a TT or killer slot: none, legal, from elsewhere
        /// in the tree, garbage, or a legal move with a wrong promotion.
        fn random_move(&mut self, legal: &[Move]) -> Option<Move> {
            let promotions = [
                None,
                Some(Piece::Queen),
                Some(Piece::Knight),
                Some(Piece::King),
            ];
            match self.rng.below(6) {
                0 => None,
                1 | 2 if !legal.is_empty() => Some(legal[self.rng.below(legal.len())]),
                3 if !self.pool.is_empty() => Some(self.pool[self.rng.below(self.pool.len())]),
                4 => Some(Move {
                    from: Square::index(self.rng.below(64)),
                    to: Square::index(self.rng.below(64)),
                    promotion: promotions[self.rng.below(promotions.len())],
                }),
                _ if !legal.is_empty() => {
                    let mut mv = legal[self.rng.below(legal.len())];
                    mv.promotion = promotions[self.rng.below(promotions.len())];
                    Some(mv)
                }
                _ => None,
            }
        }
    }

    fn stage_rank(stage: Stage) -> usize {
        match stage {
            Stage::Start => 0,
            Stage::TtMove => 1,
            Stage::GoodCaptures | Stage::QsCaptures => 2,
            Stage::Killer1 => 3,
            Stage::Killer2 => 4,
            Stage::CounterMove => 5,
            Stage::Quiets => 6,
            Stage::BadCaptures => 7,
            Stage::Done => 8,
        }
    }

    /// Runs a picker over `board` to the end without playing the moves, checking that it
    /// hands out each legal move exactly once, with a stage that fits the move, in stage
    /// order, and the quiet moves by non-increasing `quiet_order_score`.
    fn check_node(
        walk: &Walk,
        board: &Board,
        legal: &[Move],
        (tt, killers, counter): (Option<Move>, [Option<Move>; 2], Option<Move>),
        cont: &ContextMoves,
    ) {
        let mut picker = MovePicker::new(tt, killers, counter);
        assert_eq!(picker.stage(), Stage::Start);
        let mut yielded: Vec<Move> = Vec::with_capacity(legal.len());
        let mut last_rank = 0;
        let mut last_quiet_score = i32::MAX;
        while let Some(mv) = picker.next(board, &walk.histories, cont) {
            let stage = picker.stage();
            assert!(legal.contains(&mv), "illegal {mv} from the picker");
            assert!(!yielded.contains(&mv), "{mv} handed out twice");
            assert!(
                stage_rank(stage) >= last_rank,
                "{stage:?} after rank {last_rank}"
            );
            last_rank = stage_rank(stage);
            match stage {
                Stage::TtMove => assert_eq!(Some(mv), tt),
                Stage::GoodCaptures => {
                    assert!(is_noisy(board, mv) && !is_underpromotion(mv));
                    assert!(see_ge(board, mv, params::good_capture_see()));
                }
                Stage::Killer1 => assert!(Some(mv) == killers[0] && is_quiet(board, mv)),
                Stage::Killer2 => assert!(Some(mv) == killers[1] && is_quiet(board, mv)),
                Stage::CounterMove => assert!(Some(mv) == counter && is_quiet(board, mv)),
                Stage::Quiets => {
                    assert!(is_quiet(board, mv));
                    // The picker keeps scores to 16 bits.
                    let piece = board.piece_on(mv.from).expect("a quiet move has a mover");
                    let targets = QuietTargets::of(board, &cont.threats);
                    let score = quiet_order_score(
                        &walk.histories,
                        board.side_to_move(),
                        piece,
                        mv,
                        cont,
                        &targets,
                    )
                    .clamp(-32768, 32767);
                    assert!(score <= last_quiet_score, "quiets out of order");
                    if piece != Piece::King {
                        let mut child = board.clone();
                        child.play_unchecked(mv);
                        assert_eq!(
                            targets.checks[piece as usize].has(mv.to),
                            child.checkers().has(mv.to),
                            "direct check of {mv}"
                        );
                        check_attack_square(board, &child, &cont.threats, piece, mv, &targets);
                    }
                    last_quiet_score = score;
                }
                Stage::BadCaptures => {
                    assert!(is_noisy(board, mv));
                    assert!(
                        is_underpromotion(mv) || !see_ge(board, mv, params::good_capture_see())
                    );
                }
                other => panic!("unexpected stage {other:?}"),
            }
            yielded.push(mv);
        }
        assert_eq!(picker.stage(), Stage::Done);
        assert_eq!(picker.next(board, &walk.histories, cont), None);
        assert_eq!(yielded.len(), legal.len(), "missing moves");
    }

    /// Checks `targets.attacks` for the quiet move `mv` of `piece` from `board` to `child`:
    /// on an attack square the moved piece hits a more valuable enemy piece (not the
    /// king) and no cheaper enemy piece hits it. For a pawn or a knight the converse holds
    /// too; a slider may also hit through the square it left, which the squares ignore.
    fn check_attack_square(
        board: &Board,
        child: &Board,
        threats: &OpponentAttacks,
        piece: Piece,
        mv: Move,
        targets: &QuietTargets,
    ) {
        use cozy_chess::{get_bishop_moves, get_knight_moves, get_pawn_attacks, get_rook_moves};
        let us = board.side_to_move();
        let theirs = board.colors(!us);
        let worth = |p: Piece| see_value(p);
        let victims = Piece::ALL
            .iter()
            .filter(|&&p| p != Piece::King && worth(p) > worth(piece))
            .fold(BitBoard::EMPTY, |set, &p| set | (theirs & board.pieces(p)));
        let hits = match piece {
            Piece::Pawn => get_pawn_attacks(mv.to, us),
            Piece::Knight => get_knight_moves(mv.to),
            Piece::Bishop => get_bishop_moves(mv.to, child.occupied()),
            Piece::Rook => get_rook_moves(mv.to, child.occupied()),
            _ => {
                get_bishop_moves(mv.to, child.occupied()) | get_rook_moves(mv.to, child.occupied())
            }
        } & victims;
        let cheaper = match piece {
            Piece::Pawn | Piece::Knight | Piece::Bishop => threats.pawn,
            _ => threats.minor,
        };
        let safe_hit = !hits.is_empty() && !cheaper.has(mv.to);
        let marked = targets.attacks[piece as usize].has(mv.to);
        if marked {
            assert!(safe_hit, "{mv} marked as an attack");
        }
        if matches!(piece, Piece::Pawn | Piece::Knight) {
            assert_eq!(marked, safe_hit, "attack square of {mv}");
        }
    }

    /// perft through the move picker (checked by [`check_node`] at every node); with
    /// [`Feed::Random`] the histories also change while the node's moves are searched.
    fn picker_perft(
        walk: &mut Walk,
        board: &Board,
        depth: u32,
        ply: usize,
        cont: ContextMoves,
    ) -> u64 {
        let cont = ContextMoves {
            threats: OpponentAttacks::of(board),
            ..cont
        };
        let legal = legal_moves(board);
        let (tt, killers, counter) = match walk.feed {
            Feed::Empty => (None, [None; 2], None),
            Feed::Random => {
                let tt = walk.random_move(&legal);
                let killers = if walk.rng.below(2) == 0 {
                    walk.histories.killers(ply)
                } else {
                    [walk.random_move(&legal), walk.random_move(&legal)]
                };
                let counter = if walk.rng.below(2) == 0 {
                    walk.histories.counter_move(&cont)
                } else {
                    walk.random_move(&legal)
                };
                (tt, killers, counter)
            }
        };
        check_node(walk, board, &legal, (tt, killers, counter), &cont);

        let mut picker = MovePicker::new(tt, killers, counter);
        let mut yielded: Vec<Move> = Vec::with_capacity(legal.len());
        let mut nodes = 0;
        while let Some(mv) = picker.next(board, &walk.histories, &cont) {
            assert!(legal.contains(&mv) && !yielded.contains(&mv));
            yielded.push(mv);
            nodes += if depth > 1 {
                let mut child = board.clone();
                child.play_unchecked(mv);
                let moved = board.piece_on(mv.from).map(|piece| (piece, mv.to));
                picker_perft(walk, &child, depth - 1, ply + 1, cont.child(moved))
            } else {
                1
            };
        }
        assert_eq!(yielded.len(), legal.len(), "missing moves");

        if walk.feed == Feed::Random && !legal.is_empty() {
            if walk.pool.len() < 4096 {
                walk.pool.push(legal[walk.rng.below(legal.len())]);
            }
            let quiets: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|&m| is_quiet(board, m))
                .collect();
            let noisy: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|&m| is_noisy(board, m))
                .collect();
            let depth = walk.rng.below(10) as i32;
            if !quiets.is_empty() {
                let best = quiets[walk.rng.below(quiets.len())];
                walk.histories.update_quiet_cutoff(
                    board,
                    best,
                    &quiets[..quiets.len() / 2],
                    depth,
                    ply,
                    &cont,
                );
                walk.histories
                    .update_capture_cutoff(board, best, &noisy, depth);
            }
            if !noisy.is_empty() {
                let best = noisy[walk.rng.below(noisy.len())];
                walk.histories
                    .update_capture_cutoff(board, best, &noisy, depth);
            }
        }
        nodes
    }

    fn check_picker_perft(fen: &str, depth: u32, expected: Option<u64>) {
        let board = load(fen);
        let plain = perft(&board, depth);
        if let Some(expected) = expected {
            assert_eq!(plain, expected, "plain perft of {fen}");
        }
        for feed in [Feed::Empty, Feed::Random] {
            let mut walk = Walk::new(feed);
            let nodes = picker_perft(&mut walk, &board, depth, 0, ContextMoves::default());
            assert_eq!(nodes, plain, "picker perft of {fen}");
        }
    }

    #[test]
    fn quiet_moves_out_of_a_cheaper_attackers_reach_are_preferred() {
        // The knight on e4 is attacked by the pawn on d5; c4 is too.
        let board = parse_fen("4k3/8/8/3p4/4N3/8/1N6/4K3 w - - 0 1", false).unwrap();
        let threats = OpponentAttacks::of(&board);
        let bonus = |uci: &str| threat_bonus(&threats, Piece::Knight, uci.parse().unwrap());
        assert!(bonus("e4c3") > 0, "escapes");
        assert!(bonus("b2c4") < 0, "walks into the pawn's reach");
        assert_eq!(bonus("b2d3"), 0);
        assert_eq!(bonus("e4c5"), bonus("e4c3"));
        assert_eq!(
            threat_bonus(&threats, Piece::King, "e1d1".parse().unwrap()),
            0
        );
    }

    #[test]
    fn picker_perft_start_position() {
        check_picker_perft(START, 4, Some(197_281));
    }

    #[test]
    fn picker_perft_kiwipete() {
        check_picker_perft(KIWIPETE, 3, Some(97_862));
    }

    #[test]
    fn picker_perft_position_3() {
        check_picker_perft(POSITION_3, 5, Some(674_624));
    }

    #[test]
    fn picker_perft_position_4() {
        check_picker_perft(POSITION_4, 3, Some(9_467));
        check_picker_perft(
            "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
            3,
            Some(9_467),
        );
    }

    #[test]
    fn picker_perft_position_5() {
        check_picker_perft(POSITION_5, 3, Some(62_379));
    }

    #[test]
    fn picker_perft_chess960() {
        let board = load(CHESS960);
        let legal = legal_moves(&board);
        assert!(
            legal.contains(&mv("c1b1")) && legal.contains(&mv("c1h1")),
            "castling both ways"
        );
        check_picker_perft(CHESS960, 3, None);
    }

    #[test]
    fn picker_perft_en_passant_and_promotion_corners() {
        for fen in [
            // En passant out of check, and en passant that would expose the king.
            "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
            "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
            // Promotions with and without capture, in and out of check.
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "3k4/1P6/8/8/8/8/6p1/3K1R2 w - - 0 1",
        ] {
            check_picker_perft(fen, 4, None);
        }
    }

    /// The quiescence picker hands out exactly the captures and queen promotions (all
    /// evasions in check), each once, at every node of a small tree.
    fn check_qsearch_tree(walk: &mut Walk, board: &Board, depth: u32) {
        let legal = legal_moves(board);
        let in_check = !board.checkers().is_empty();
        let tt = walk.random_move(&legal);
        let mut picker = MovePicker::new_qsearch(tt, in_check);
        let cont = ContextMoves::default();
        let mut yielded = Vec::new();
        let mut last_score = i32::MAX;
        while let Some(mv) = picker.next(board, &walk.histories, &cont) {
            assert!(!yielded.contains(&mv), "{mv} handed out twice");
            if !in_check {
                assert!(matches!(picker.stage(), Stage::TtMove | Stage::QsCaptures));
                if picker.stage() == Stage::QsCaptures {
                    // Empty histories: MVV-LVA order.
                    let victim = if is_capture(board, mv) {
                        board.piece_on(mv.to).map_or(100, see_value)
                    } else {
                        0
                    };
                    let promo = if mv.promotion.is_some() { 800 } else { 0 };
                    let score =
                        16 * (victim + promo) - board.piece_on(mv.from).map_or(0, see_value) / 8;
                    assert!(score <= last_score, "qsearch captures out of order");
                    last_score = score;
                }
            }
            yielded.push(mv);
        }
        let mut expected: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| in_check || (is_noisy(board, m) && !is_underpromotion(m)))
            .collect();
        expected.sort_by_key(|m| {
            (
                m.from as usize,
                m.to as usize,
                m.promotion.map(|p| p as usize),
            )
        });
        yielded.sort_by_key(|m| {
            (
                m.from as usize,
                m.to as usize,
                m.promotion.map(|p| p as usize),
            )
        });
        assert_eq!(yielded, expected);
        if depth > 0 {
            for mv in legal {
                let mut child = board.clone();
                child.play_unchecked(mv);
                check_qsearch_tree(walk, &child, depth - 1);
            }
        }
    }

    #[test]
    fn qsearch_picker_yields_captures_and_queen_promotions() {
        let mut walk = Walk::new(Feed::Random);
        for fen in [
            KIWIPETE,
            POSITION_3,
            POSITION_4,
            POSITION_5,
            CHESS960,
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        ] {
            check_qsearch_tree(&mut walk, &load(fen), 2);
        }
    }

    #[test]
    fn skip_quiets_keeps_every_noisy_move() {
        let mut walk = Walk::new(Feed::Random);
        for fen in [KIWIPETE, POSITION_4, POSITION_5, START] {
            let board = load(fen);
            let legal = legal_moves(&board);
            for skip_after in 0..legal.len() {
                let tt = walk.random_move(&legal);
                let killers = [walk.random_move(&legal), walk.random_move(&legal)];
                let mut picker = MovePicker::new(tt, killers, walk.random_move(&legal));
                let cont = ContextMoves::default();
                let mut yielded = Vec::new();
                loop {
                    if yielded.len() == skip_after {
                        picker.skip_quiets();
                    }
                    let Some(mv) = picker.next(&board, &walk.histories, &cont) else {
                        break;
                    };
                    if yielded.len() >= skip_after {
                        let stage = picker.stage();
                        assert!(!matches!(
                            stage,
                            Stage::Killer1 | Stage::Killer2 | Stage::CounterMove | Stage::Quiets
                        ));
                    }
                    assert!(!yielded.contains(&mv));
                    yielded.push(mv);
                }
                for m in legal.iter().filter(|&&m| is_noisy(&board, m)) {
                    assert!(yielded.contains(m), "{m} lost after skip_quiets");
                }
            }
        }
    }

    #[test]
    fn ordering_sanity() {
        // Qxa4 wins a pawn, Qxd5 loses the queen to c6.
        let board = load("4k3/8/2p5/3p4/p7/8/8/3QK3 w - - 0 1");
        let histories = Histories::new();
        let cont = ContextMoves::default();
        let collect = |mut picker: MovePicker| {
            let mut out = Vec::new();
            while let Some(m) = picker.next(&board, &histories, &cont) {
                out.push((m, picker.stage()));
            }
            out
        };

        let order = collect(MovePicker::new(None, [None; 2], None));
        assert_eq!(order.first(), Some(&(mv("d1a4"), Stage::GoodCaptures)));
        assert_eq!(order.last(), Some(&(mv("d1d5"), Stage::BadCaptures)));
        assert!(order[1..order.len() - 1]
            .iter()
            .all(|&(_, s)| s == Stage::Quiets));

        // TT move first, then the good capture, the killers, the countermove.
        let order = collect(MovePicker::new(
            Some(mv("e1f2")),
            [Some(mv("d1d4")), Some(mv("d1h5"))],
            Some(mv("e1e2")),
        ));
        let expected = [
            (mv("e1f2"), Stage::TtMove),
            (mv("d1a4"), Stage::GoodCaptures),
            (mv("d1d4"), Stage::Killer1),
            (mv("d1h5"), Stage::Killer2),
            (mv("e1e2"), Stage::CounterMove),
        ];
        assert_eq!(order[..5], expected);
        assert_eq!(order.last(), Some(&(mv("d1d5"), Stage::BadCaptures)));
        assert_eq!(order.len(), legal_moves(&board).len());

        // Killers that are captures, illegal or the TT move are skipped (and the capture
        // still comes once, as a capture).
        let order = collect(MovePicker::new(
            Some(mv("e1f2")),
            [Some(mv("d1a4")), Some(mv("e1f2"))],
            Some(mv("a1a8")),
        ));
        assert!(order
            .iter()
            .all(|&(_, s)| !matches!(s, Stage::Killer1 | Stage::Killer2 | Stage::CounterMove)));
        assert_eq!(order.len(), legal_moves(&board).len());

        // A garbage TT move is ignored.
        let order = collect(MovePicker::new(Some(mv("d1d8")), [None; 2], None));
        assert_eq!(order[0], (mv("d1a4"), Stage::GoodCaptures));

        // Captures by MVV-LVA: the queen is taken before the rook, pawn first as taker.
        let board2 = load("4k3/8/8/2q1r3/3P4/8/8/7K w - - 0 1");
        let mut picker = MovePicker::new(None, [None; 2], None);
        assert_eq!(picker.next(&board2, &histories, &cont), Some(mv("d4c5")));
        assert_eq!(picker.next(&board2, &histories, &cont), Some(mv("d4e5")));
    }

    #[test]
    fn history_orders_quiets() {
        let board = load(START);
        let mut histories = Histories::new();
        let cont = ContextMoves::default();
        histories.update_quiet_cutoff(&board, mv("g2g3"), &[], 8, 0, &cont);
        histories.update_quiet_cutoff(&board, mv("b1c3"), &[], 4, 0, &cont);
        let mut picker = MovePicker::new(None, [None; 2], None);
        assert_eq!(picker.next(&board, &histories, &cont), Some(mv("g2g3")));
        assert_eq!(picker.next(&board, &histories, &cont), Some(mv("b1c3")));
        assert_eq!(picker.stage(), Stage::Quiets);
    }

    /// Per-node costs, in ns, over the positions of a small Kiwipete tree: a picker that
    /// hands out its TT move (a cut node that cuts at once), a picker that hands out its
    /// first capture, and for scale a bulk move generation and one `is_legal`. Run with
    /// `cargo test --release --lib search::movepick -- --ignored --nocapture`.
    #[test]
    #[ignore = "benchmark: run in release with --nocapture"]
    fn bench_picker_first_move() {
        use std::hint::black_box;
        use std::time::Instant;

        fn collect(board: &Board, depth: u32, out: &mut Vec<(Board, Move)>) {
            let legal = legal_moves(board);
            if let Some(&last) = legal.last() {
                out.push((board.clone(), last));
            }
            if depth > 0 {
                for mv in legal {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    collect(&child, depth - 1, out);
                }
            }
        }

        let mut positions = Vec::new();
        collect(&load(KIWIPETE), 2, &mut positions);
        let histories = Histories::new();
        let cont = ContextMoves::default();
        // Best of many short runs, to see through a busy machine.
        let ns_per_node = |f: &dyn Fn(&Board, Move) -> bool| {
            let mut best = f64::INFINITY;
            for _ in 0..300 {
                let start = Instant::now();
                for (board, legal_move) in &positions {
                    black_box(f(board, *legal_move));
                }
                best = best.min(start.elapsed().as_secs_f64() * 1e9 / positions.len() as f64);
            }
            best
        };
        let tt_move = ns_per_node(&|board, mv| {
            let mut picker = MovePicker::new(Some(mv), [None; 2], None);
            picker.next(board, &histories, &cont).is_some()
        });
        let first_capture = ns_per_node(&|board, _| {
            let mut picker = MovePicker::new(None, [None; 2], None);
            picker.next(board, &histories, &cont).is_some()
        });
        let movegen = ns_per_node(&|board, _| {
            let mut n = 0;
            board.generate_moves(|moves| {
                n += moves.len();
                false
            });
            n > 0
        });
        let is_legal = ns_per_node(&|board, mv| board.is_legal(mv));
        println!("{} positions, ns per node:", positions.len());
        println!("  picker, TT move only:    {tt_move:.1}");
        println!("  picker, first capture:   {first_capture:.1}");
        println!("  bulk move generation:    {movegen:.1}");
        println!("  is_legal:                {is_legal:.1}");
    }

    /// Moves per second: plain perft (bulk-counted leaves and enumerated leaves) against
    /// perft through the picker. Run with
    /// `cargo test --release --lib search::movepick -- --ignored --nocapture`.
    #[test]
    #[ignore = "benchmark: run in release with --nocapture"]
    fn bench_picker_perft() {
        use std::time::Instant;

        fn enumerated(board: &Board, depth: u32) -> u64 {
            let mut nodes = 0;
            board.generate_moves(|moves| {
                for mv in moves {
                    nodes += if depth == 1 {
                        std::hint::black_box(mv);
                        1
                    } else {
                        let mut child = board.clone();
                        child.play_unchecked(mv);
                        enumerated(&child, depth - 1)
                    };
                }
                false
            });
            nodes
        }

        fn picked(board: &Board, depth: u32, histories: &Histories, cont: ContextMoves) -> u64 {
            let mut picker = MovePicker::new(None, [None; 2], None);
            let mut nodes = 0;
            while let Some(mv) = picker.next(board, histories, &cont) {
                nodes += if depth == 1 {
                    1
                } else {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    let moved = board.piece_on(mv.from).map(|p| (p, mv.to));
                    picked(&child, depth - 1, histories, cont.child(moved))
                };
            }
            nodes
        }

        let histories = Histories::new();
        for (fen, depth) in [(START, 5), (KIWIPETE, 4)] {
            let board = load(fen);
            // Best of five runs, to see through a busy machine.
            let time = |name: &str, f: &dyn Fn() -> u64| {
                let mut best = f64::INFINITY;
                let mut nodes = 0;
                for _ in 0..5 {
                    let start = Instant::now();
                    nodes = f();
                    best = best.min(start.elapsed().as_secs_f64());
                }
                println!(
                    "{name:>24}: {nodes} leaves in {:.3} s, {:.1} M leaves/s",
                    best,
                    nodes as f64 / best / 1e6
                );
                nodes
            };
            println!("{fen} depth {depth}");
            let bulk = time("plain perft (bulk)", &|| perft(&board, depth));
            let each = time("plain perft (enumerated)", &|| enumerated(&board, depth));
            let pick = time("picker perft", &|| {
                picked(&board, depth, &histories, ContextMoves::default())
            });
            assert_eq!(bulk, each);
            assert_eq!(bulk, pick);
        }
    }
}
