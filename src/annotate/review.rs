//! A game's review: the searches of its positions (see `searches.rs`) turned into an
//! evaluation, a verdict and a better line for each move, and a summary for each player.

use cozy_chess::{Board, Color, Move};
use protocol::Score;

use super::accuracy;
use super::judge::{ceiled_cp, judge, Class, Judgement, MoveScores};
use super::searches::Searched;
use crate::position::to_uci;
use crate::san::to_san;
use crate::search::report::uci_score;

/// How many plies of the search's line a mistake or a blunder shows as the better move.
pub const BETTER_LINE_PLIES: usize = 6;

/// One game as read from the file: its tags and the legal start of its main line.
#[derive(Debug, Clone)]
pub struct GameInput {
    /// 1 for the file's first game.
    pub number: usize,
    /// The tag pairs, in file order.
    pub tags: Vec<(String, String)>,
    pub start: Board,
    pub chess960: bool,
    /// The main line up to the end or the first bad move.
    pub moves: Vec<Move>,
    /// The result token (`1-0`, `0-1`, `1/2-1/2` or `*`).
    pub result: String,
    /// Why the main line stops before its end, if it does.
    pub error: Option<String>,
}

/// An evaluation from White's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns (a tablebase win as `20000 - plies`, as the engine reports it).
    Cp(i32),
    /// Mate in this many moves, positive when White mates.
    Mate(i32),
    /// The side to move is checkmated.
    Checkmate,
}

impl Eval {
    /// The evaluation of a search `score` for the side to move of `board`.
    pub fn of(score: i32, board: &Board) -> Eval {
        let sign = if board.side_to_move() == Color::White {
            1
        } else {
            -1
        };
        match uci_score(score) {
            Score::Cp(cp) => Eval::Cp(sign * cp),
            Score::Mate(0) => Eval::Checkmate,
            Score::Mate(moves) => Eval::Mate(sign * moves),
        }
    }
}

/// One move of the main line and what the search thinks of it.
#[derive(Debug, Clone)]
pub struct PlyReview {
    pub mv: Move,
    pub san: String,
    pub uci: String,
    /// The position after the move.
    pub eval: Eval,
    /// The search's choice in the position before, and its line (starting with it).
    pub best: Option<Move>,
    pub best_san: Option<String>,
    pub line: Vec<Move>,
    /// The evaluation of the position before (the best move's).
    pub best_eval: Eval,
    pub judgement: Judgement,
    /// The only legal move.
    pub forced: bool,
    /// The search of the position before.
    pub depth: u32,
    pub nodes: u64,
}

/// One player's figures.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PlayerSummary {
    /// Lichess's accuracy in percent (see `accuracy.rs`); `None` without moves.
    pub accuracy: Option<f64>,
    /// The average centipawn loss; `None` without moves.
    pub acpl: Option<f64>,
    pub moves: usize,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
}

/// A reviewed game.
#[derive(Debug, Clone)]
pub struct GameReview {
    pub input: GameInput,
    pub plies: Vec<PlyReview>,
    pub white: PlayerSummary,
    pub black: PlayerSummary,
}

/// Reviews `input` from `searched`, the searches of its start position and of the
/// position after each move (one more than its moves).
pub fn review(input: GameInput, searched: &[Searched]) -> GameReview {
    debug_assert_eq!(searched.len(), input.moves.len() + 1);
    let mut boards = Vec::with_capacity(input.moves.len() + 1);
    let mut board = input.start.clone();
    boards.push(board.clone());
    for &mv in &input.moves {
        board.play_unchecked(mv);
        boards.push(board.clone());
    }
    let plies: Vec<PlyReview> = input
        .moves
        .iter()
        .enumerate()
        .map(|(index, &mv)| {
            let (before, after) = (&boards[index], &boards[index + 1]);
            let (searched_before, searched_after) = (&searched[index], &searched[index + 1]);
            let judgement = judge(&MoveScores {
                before,
                score_before: searched_before.score,
                after,
                score_after: searched_after.score,
                forced: searched_before.legal == 1,
                best: searched_before.best == Some(mv),
            });
            PlyReview {
                mv,
                san: to_san(before, mv),
                uci: to_uci(before, mv, input.chess960).to_string(),
                eval: Eval::of(searched_after.score, after),
                best: searched_before.best,
                best_san: searched_before.best.map(|best| to_san(before, best)),
                line: legal_prefix(before, &searched_before.pv),
                best_eval: Eval::of(searched_before.score, before),
                judgement,
                forced: searched_before.legal == 1,
                depth: searched_before.depth,
                nodes: searched_before.nodes,
            }
        })
        .collect();
    let white_cps: Vec<i32> = boards
        .iter()
        .zip(searched)
        .map(|(board, s)| match board.side_to_move() {
            Color::White => ceiled_cp(s.score),
            Color::Black => -ceiled_cp(s.score),
        })
        .collect();
    let white_first = input.start.side_to_move() == Color::White;
    let (white_accuracy, black_accuracy) = accuracy::game_accuracy(&white_cps, white_first);
    let mover = |index: usize| index.is_multiple_of(2) == white_first;
    let white = summary(
        plies.iter().enumerate().filter(|(i, _)| mover(*i)),
        white_accuracy,
    );
    let black = summary(
        plies.iter().enumerate().filter(|(i, _)| !mover(*i)),
        black_accuracy,
    );
    GameReview {
        input,
        plies,
        white,
        black,
    }
}

/// The moves of `line` that are legal one after the other from `board`.
fn legal_prefix(board: &Board, line: &[Move]) -> Vec<Move> {
    let mut position = board.clone();
    let mut legal = Vec::with_capacity(line.len());
    for &mv in line {
        if position.try_play(mv).is_err() {
            break;
        }
        legal.push(mv);
    }
    legal
}

/// The figures of one player's `moves`.
fn summary<'a>(
    moves: impl Iterator<Item = (usize, &'a PlyReview)>,
    accuracy: Option<f64>,
) -> PlayerSummary {
    let mut player = PlayerSummary {
        accuracy,
        ..PlayerSummary::default()
    };
    let mut cp_loss = 0_i64;
    for (_, ply) in moves {
        player.moves += 1;
        cp_loss += i64::from(ply.judgement.cp_loss);
        match ply.judgement.class {
            Some(Class::Inaccuracy) => player.inaccuracies += 1,
            Some(Class::Mistake) => player.mistakes += 1,
            Some(Class::Blunder) => player.blunders += 1,
            None => {}
        }
    }
    if player.moves > 0 {
        player.acpl = Some(cp_loss as f64 / player.moves as f64);
    }
    player
}
