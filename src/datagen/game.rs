//! One self-play game: from a start position, each move a soft node-limited search, until
//! the game ends by the rules or is adjudicated; the quiet positions met on the way are kept
//! with their search scores and, once known, the game's result.
//!
//! Adjudication (scores are from White's point of view, mates included):
//! - win: the score is at least [`WIN_SCORE`] in the same side's favour for
//!   [`WIN_PLIES`] consecutive plies (both engines' searches agree);
//! - draw: from ply [`DRAW_FROM_PLY`] on, the score stays within ±[`DRAW_SCORE`] for
//!   [`DRAW_PLIES`] consecutive plies;
//! - draw: the game reaches [`MAX_PLIES`] plies.
//!
//! The rules end games too: checkmate, stalemate, threefold repetition, the fifty-move rule
//! and insufficient material (bare kings, or one minor piece against a bare king).

use cozy_chess::{Board, Color, Move};

use crate::position::Game;
use crate::rules::{game_end, is_quiet, GameEnd};
use crate::score::is_mate;
use crate::search::history::HistoryStore;
use crate::search::tt::TranspositionTable;
use crate::search::{think_in_game, Limits, Settings};
use crate::tablebase::Tablebases;
use crate::viri::{GameResult, ViriGame};

/// Win adjudication: this many centipawns ...
pub const WIN_SCORE: i32 = 1000;
/// ... for this many consecutive plies.
pub const WIN_PLIES: u32 = 4;
/// Draw adjudication: scores within this many centipawns ...
pub const DRAW_SCORE: i32 = 10;
/// ... for this many consecutive plies ...
pub const DRAW_PLIES: u32 = 10;
/// ... once the game has reached this ply.
pub const DRAW_FROM_PLY: usize = 80;
/// A game this long is a draw.
pub const MAX_PLIES: usize = 400;

/// White's result of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    WhiteWins,
    Draw,
    BlackWins,
}

impl Outcome {
    /// The result as the data file writes it: `1.0`, `0.5` or `0.0`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1.0",
            Outcome::Draw => "0.5",
            Outcome::BlackWins => "0.0",
        }
    }

    fn win_for(color: Color) -> Outcome {
        match color {
            Color::White => Outcome::WhiteWins,
            Color::Black => Outcome::BlackWins,
        }
    }
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    Checkmate,
    Stalemate,
    Repetition,
    FiftyMoves,
    InsufficientMaterial,
    AdjudicatedWin,
    AdjudicatedDraw,
    MaxLength,
    /// The game reached a position the tablebases cover (`--syzygy`).
    Tablebase,
}

/// A position kept for the data set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sample {
    pub fen: String,
    /// The search score in centipawns from White's point of view.
    pub white_score: i32,
}

/// A finished game.
#[derive(Debug, Clone)]
pub struct Record {
    /// The position the game started from.
    pub start: Board,
    /// Every move played, with the search score (White's view) of the position before it.
    pub moves: Vec<(Move, i32)>,
    /// The quiet positions kept for the text data set.
    pub samples: Vec<Sample>,
    pub outcome: Outcome,
    pub ending: Ending,
    pub plies: usize,
    /// Nodes searched by the game's moves (not counting the opening's balance check).
    pub nodes: u64,
}

impl Record {
    /// The data lines of this game: `FEN | score | result`.
    pub fn lines(&self) -> impl Iterator<Item = String> + '_ {
        self.samples
            .iter()
            .map(|s| format!("{} | {} | {}", s.fen, s.white_score, self.outcome.as_str()))
    }

    /// The game in viriformat (every ply, scores clamped to the format's 16 bits).
    pub fn viri(&self) -> ViriGame {
        ViriGame {
            start: self.start.clone(),
            result: match self.outcome {
                Outcome::WhiteWins => GameResult::WhiteWins,
                Outcome::Draw => GameResult::Draw,
                Outcome::BlackWins => GameResult::BlackWins,
            },
            plies: self
                .moves
                .iter()
                .map(|&(mv, score)| (mv, viri_score(score)))
                .collect(),
        }
    }
}

/// A score as viriformat stores it, in 16 bits. (A pair with score 0 cannot end the game
/// early: the move code of a real move is never 0, which would be a1a1.)
pub fn viri_score(white_score: i32) -> i16 {
    white_score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16
}

/// Plays `game` out with searches of `soft_nodes` nodes per move on `tt` (cleared first),
/// with `settings` (the evaluation among them), ending it with the tables' result once it
/// reaches a position `tablebases` cover. As in a real game, the searches keep their
/// move-ordering histories from one move to the next (they start empty with the game).
pub fn play(
    mut game: Game,
    soft_nodes: u64,
    tt: &TranspositionTable,
    settings: &Settings,
    tablebases: Option<&Tablebases>,
) -> Record {
    tt.clear();
    let histories = HistoryStore::new();
    let start = game.board.clone();
    let mut moves = Vec::new();
    let mut samples = Vec::new();
    let mut adjudicator = Adjudicator::default();
    let mut plies = 0;
    let mut nodes = 0;
    let (outcome, ending) = loop {
        let board = &game.board;
        if let Some(end) = ended_by_rules(&game) {
            break end;
        }
        if let Some(end) = tablebases.and_then(|tables| tablebase_result(tables, board)) {
            break end;
        }
        if plies >= MAX_PLIES {
            break (Outcome::Draw, Ending::MaxLength);
        }
        let outcome = think_in_game(
            game.clone(),
            Limits::self_play(soft_nodes),
            tt,
            &histories,
            settings.clone(),
        );
        nodes += outcome.nodes;
        let Some(best) = outcome.best else {
            // Unreachable: positions without moves ended above. Treat as the rules would.
            break (Outcome::Draw, Ending::Stalemate);
        };
        let white_score = white_view(board, outcome.score);
        if is_sample(board, best, outcome.score) {
            samples.push(Sample {
                fen: format!("{board}"),
                white_score,
            });
        }
        if let Some(end) = adjudicator.observe(white_score, plies) {
            break end;
        }
        moves.push((best, white_score));
        game.play(best);
        plies += 1;
    };
    Record {
        start,
        moves,
        samples,
        outcome,
        ending,
        plies,
        nodes,
    }
}

/// Converts a side-to-move score to White's point of view.
pub fn white_view(board: &Board, score: i32) -> i32 {
    match board.side_to_move() {
        Color::White => score,
        Color::Black => -score,
    }
}

/// Whether the position is quiet enough for the data set: not in check, the best move
/// neither a capture nor a promotion, and no mate announced.
pub fn is_sample(board: &Board, best: Move, score: i32) -> bool {
    board.checkers().is_empty() && is_quiet(board, best) && !is_mate(score)
}

/// The result the tablebases give `board` (with its fifty-move counter, a cursed win or
/// blessed loss being a draw), if they cover it.
pub fn tablebase_result(tables: &Tablebases, board: &Board) -> Option<(Outcome, Ending)> {
    if !tables.covers(board) {
        return None;
    }
    let verdict = tables.probe_dtz(board)?;
    let outcome = match verdict.wdl.outcome(true) {
        1 => Outcome::win_for(board.side_to_move()),
        -1 => Outcome::win_for(!board.side_to_move()),
        _ => Outcome::Draw,
    };
    Some((outcome, Ending::Tablebase))
}

/// The result if the game is over by the rules (`rules.rs`).
pub fn ended_by_rules(game: &Game) -> Option<(Outcome, Ending)> {
    Some(match game_end(game)? {
        GameEnd::Checkmate { winner } => (Outcome::win_for(winner), Ending::Checkmate),
        GameEnd::Stalemate => (Outcome::Draw, Ending::Stalemate),
        GameEnd::Repetition => (Outcome::Draw, Ending::Repetition),
        GameEnd::FiftyMoves => (Outcome::Draw, Ending::FiftyMoves),
        GameEnd::InsufficientMaterial => (Outcome::Draw, Ending::InsufficientMaterial),
    })
}

/// Watches the scores of a game for a decided or dead-drawn position.
#[derive(Debug, Default)]
struct Adjudicator {
    win_streak: u32,
    win_side: Option<Color>,
    draw_streak: u32,
}

impl Adjudicator {
    fn observe(&mut self, white_score: i32, ply: usize) -> Option<(Outcome, Ending)> {
        let leader = if white_score >= WIN_SCORE {
            Some(Color::White)
        } else if white_score <= -WIN_SCORE {
            Some(Color::Black)
        } else {
            None
        };
        match leader {
            Some(side) if self.win_side == Some(side) => self.win_streak += 1,
            Some(side) => {
                self.win_side = Some(side);
                self.win_streak = 1;
            }
            None => {
                self.win_side = None;
                self.win_streak = 0;
            }
        }
        if let Some(side) = self.win_side {
            if self.win_streak >= WIN_PLIES {
                return Some((Outcome::win_for(side), Ending::AdjudicatedWin));
            }
        }
        if ply >= DRAW_FROM_PLY && white_score.abs() <= DRAW_SCORE {
            self.draw_streak += 1;
        } else {
            self.draw_streak = 0;
        }
        (self.draw_streak >= DRAW_PLIES).then_some((Outcome::Draw, Ending::AdjudicatedDraw))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::parse_fen;

    fn game(fen: &str) -> Game {
        Game::new(parse_fen(fen, false).unwrap())
    }

    #[test]
    fn rules_end_games() {
        let mated = game("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
        assert_eq!(
            ended_by_rules(&mated),
            Some((Outcome::WhiteWins, Ending::Checkmate))
        );
        let stalemate = game("7k/8/6QK/8/8/8/8/8 b - - 0 1");
        assert_eq!(
            ended_by_rules(&stalemate),
            Some((Outcome::Draw, Ending::Stalemate))
        );
        let bare = game("8/8/4k3/8/8/3NK3/8/8 w - - 0 1");
        assert_eq!(
            ended_by_rules(&bare),
            Some((Outcome::Draw, Ending::InsufficientMaterial))
        );
        let fifty = game("8/8/4k3/8/8/3RK3/8/8 w - - 100 80");
        assert_eq!(
            ended_by_rules(&fifty),
            Some((Outcome::Draw, Ending::FiftyMoves))
        );
        assert_eq!(
            ended_by_rules(&game("8/8/4k3/8/8/3RK3/8/8 w - - 0 80")),
            None
        );
    }

    #[test]
    fn threefold_repetition_ends_the_game() {
        let mut g = game("8/8/4k3/8/8/3RK3/8/8 w - - 0 1");
        let shuffle = ["d3d1", "e6e7", "d1d3", "e7e6"];
        for round in 0..2 {
            for uci in shuffle {
                assert_eq!(ended_by_rules(&g), None, "round {round}");
                let mv = uci.parse().unwrap();
                g.play(mv);
            }
        }
        assert_eq!(
            ended_by_rules(&g),
            Some((Outcome::Draw, Ending::Repetition))
        );
    }

    #[test]
    fn adjudication_needs_agreement_over_several_plies() {
        let mut a = Adjudicator::default();
        assert_eq!(a.observe(1200, 10), None);
        assert_eq!(
            a.observe(-1200, 11),
            None,
            "the streak restarts for the other side"
        );
        assert_eq!(a.observe(-1100, 12), None);
        assert_eq!(a.observe(-1500, 13), None);
        assert_eq!(
            a.observe(-1000, 14),
            Some((Outcome::BlackWins, Ending::AdjudicatedWin))
        );

        let mut d = Adjudicator::default();
        for ply in 0..DRAW_FROM_PLY {
            assert_eq!(
                d.observe(0, ply),
                None,
                "no draw before ply {DRAW_FROM_PLY}"
            );
        }
        for ply in DRAW_FROM_PLY..DRAW_FROM_PLY + DRAW_PLIES as usize - 1 {
            assert_eq!(d.observe(5, ply), None);
        }
        assert_eq!(
            d.observe(-3, DRAW_FROM_PLY + DRAW_PLIES as usize),
            Some((Outcome::Draw, Ending::AdjudicatedDraw))
        );
    }

    #[test]
    fn samples_are_quiet_positions_with_white_relative_scores() {
        let board = parse_fen(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            false,
        )
        .unwrap();
        let quiet: Move = "f1b5".parse().unwrap();
        let capture: Move = "f3e5".parse().unwrap();
        assert!(is_sample(&board, quiet, 30));
        assert!(!is_sample(&board, capture, 30));
        assert!(!is_sample(&board, quiet, crate::score::mate_in(3)));
        let black = parse_fen(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 3",
            false,
        )
        .unwrap();
        assert_eq!(white_view(&black, 40), -40);
        let in_check = parse_fen("4k3/8/8/8/8/8/4q3/4K3 w - - 0 1", false).unwrap();
        assert!(!is_sample(&in_check, "e1e2".parse().unwrap(), -900));
    }

    #[test]
    fn the_tablebases_adjudicate_once_the_game_reaches_them() {
        let tables =
            Tablebases::open(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy")).unwrap();
        let tt = TranspositionTable::new(1);
        // KRvK, Black to move and lost: ended at once.
        let record = play(
            game("8/8/4k3/8/8/3RK3/8/8 b - - 0 1"),
            1_000,
            &tt,
            &Settings::default(),
            Some(&tables),
        );
        assert_eq!(
            (record.outcome, record.ending),
            (Outcome::WhiteWins, Ending::Tablebase)
        );
        assert_eq!(record.plies, 0);
        // KRvKR, drawn. KBNvK won but cursed by the fifty-move counter: a draw.
        for fen in [
            "8/8/4k3/8/8/3RK3/r7/8 w - - 0 1",
            "8/8/8/4k3/8/8/3B4/1N5K w - - 50 80",
        ] {
            let record = play(game(fen), 1_000, &tt, &Settings::default(), Some(&tables));
            assert_eq!(
                (record.outcome, record.ending),
                (Outcome::Draw, Ending::Tablebase),
                "{fen}"
            );
        }
        // Five pieces: played on until the capture (Rxb1) brings it into the KRvKR table.
        let record = play(
            game("8/8/4k3/8/8/4K3/r7/1n5R w - - 0 1"),
            1_000,
            &tt,
            &Settings::default(),
            Some(&tables),
        );
        assert_eq!(record.ending, Ending::Tablebase);
        assert!(record.plies > 0);
    }

    #[test]
    fn a_game_is_played_to_the_end_with_legal_quiet_samples() {
        let tt = TranspositionTable::new(4);
        // A won rook ending: it must end (mate or adjudication) well inside the ply cap.
        let record = play(
            game("8/8/4k3/8/8/3RK3/8/8 w - - 0 1"),
            2_000,
            &tt,
            &Settings::default(),
            None,
        );
        assert_eq!(record.outcome, Outcome::WhiteWins);
        assert!(record.plies < MAX_PLIES);
        assert!(!record.samples.is_empty());
        for sample in &record.samples {
            let board = parse_fen(&sample.fen, false).unwrap();
            assert!(board.checkers().is_empty());
        }
        for line in record.lines() {
            assert!(line.ends_with(" | 1.0"), "{line}");
        }
    }
}
