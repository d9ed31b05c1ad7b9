//! How good each move was: the drop in the mover's expected score, by Cutoff's
//! win/draw/loss model, from the best move's score to the played move's, and the NAG it
//! earns.
//!
//! The expected score is `P(win) + P(draw) / 2` in points (0 to 100) from the
//! [`wdl::MODEL`] the engine reports with `UCI_ShowWDL`. Before the move it is the score of
//! the search of the position before (the best move's value); after it, the search of the
//! position after, from the mover's side. A drop of at least [`INACCURACY`] points is
//! `?!`, [`MISTAKE`] `?`, [`BLUNDER`] `??`. Lichess marks drops of 0.1, 0.2 and 0.3 in its
//! "winning chances" (`-1..1`, i.e. 5, 10 and 15 points of win percentage, a curve fitted
//! to human games); Cutoff's model, fitted to its own games, is about twice as steep at
//! full material, so 10, 20 and 30 points of it mark, from an equal opening position,
//! about the same centipawn losses as Lichess does (48, 98 and 155 cp against 55, 111
//! and 169); with less material the model asks for more (157, 252 and 334 cp in a bare
//! endgame), as its games show a pawn decides less often there.
//! A forced move (the only legal one) and the move the search itself chose are never
//! marked, whatever the scores say.

use cozy_chess::Board;

use crate::score::is_decisive;
use crate::search::wdl;

/// Points of expected score the mover may lose before the move is `?!`.
pub const INACCURACY: f64 = 10.0;
/// ... before it is `?`.
pub const MISTAKE: f64 = 20.0;
/// ... before it is `??`.
pub const BLUNDER: f64 = 30.0;
/// Centipawn scores are clamped to this (mates and tablebase results too) for the
/// average centipawn loss and the accuracy, as Lichess does.
pub const CP_CEILING: i32 = 1000;

/// A bad move's class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Class {
    /// The PGN move suffix (the NAGs $6, $2 and $4).
    pub fn suffix(self) -> &'static str {
        match self {
            Class::Inaccuracy => "?!",
            Class::Mistake => "?",
            Class::Blunder => "??",
        }
    }

    /// The name used in comments and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }

    /// The class of a drop of `points` of expected score, if it is one.
    pub fn of_drop(points: f64) -> Option<Class> {
        if points >= BLUNDER {
            Some(Class::Blunder)
        } else if points >= MISTAKE {
            Some(Class::Mistake)
        } else if points >= INACCURACY {
            Some(Class::Inaccuracy)
        } else {
            None
        }
    }
}

/// The side to move's expected score in points (0 to 100) for its search `score`.
pub fn expected_score(score: i32, board: &Board) -> f64 {
    let wdl = wdl::MODEL.wdl(score, wdl::material(board));
    (f64::from(wdl.win) + f64::from(wdl.draw) / 2.0) / 10.0
}

/// `score` in centipawns clamped to ±[`CP_CEILING`] (mates and tablebase results to the
/// ceiling).
pub fn ceiled_cp(score: i32) -> i32 {
    if is_decisive(score) {
        CP_CEILING * score.signum()
    } else {
        score.clamp(-CP_CEILING, CP_CEILING)
    }
}

/// One move seen from both sides of it.
#[derive(Debug, Clone, Copy)]
pub struct MoveScores<'a> {
    pub before: &'a Board,
    /// The mover's score in `before`.
    pub score_before: i32,
    pub after: &'a Board,
    /// The opponent's score in `after`.
    pub score_after: i32,
    /// Whether it was the only legal move.
    pub forced: bool,
    /// Whether it was the move the search of `before` chose.
    pub best: bool,
}

/// The verdict on one move.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Judgement {
    /// Points of expected score lost (negative when the move did better than the search
    /// of the position before expected).
    pub drop: f64,
    /// Centipawns lost, clamped scores, at least 0.
    pub cp_loss: i32,
    pub class: Option<Class>,
}

/// Judges one move.
pub fn judge(scores: &MoveScores) -> Judgement {
    let before = expected_score(scores.score_before, scores.before);
    let after = 100.0 - expected_score(scores.score_after, scores.after);
    let drop = before - after;
    let cp_loss = (ceiled_cp(scores.score_before) + ceiled_cp(scores.score_after)).max(0);
    let class = if scores.forced || scores.best {
        None
    } else {
        Class::of_drop(drop)
    };
    Judgement {
        drop,
        cp_loss,
        class,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{mate_in, mated_in};

    fn scores<'a>(board: &'a Board, before: i32, after: i32) -> MoveScores<'a> {
        MoveScores {
            before: board,
            score_before: before,
            after: board,
            score_after: after,
            forced: false,
            best: false,
        }
    }

    #[test]
    fn thresholds_mark_the_drops_of_expected_score() {
        let start = Board::default();
        let class = |before, after| judge(&scores(&start, before, after)).class;
        // A move that keeps the balance, or loses a few centipawns, is not marked.
        assert_eq!(class(20, -20), None);
        assert_eq!(class(20, 5), None);
        // From equality: about half a pawn, a pawn and a half are marked.
        assert_eq!(class(0, 60), Some(Class::Inaccuracy));
        assert_eq!(class(0, 110), Some(Class::Mistake));
        assert_eq!(class(0, 170), Some(Class::Blunder));
        // Walking into a mate from a won position is a blunder; missing a mate while
        // staying far ahead is not marked.
        assert_eq!(class(300, mate_in(5)), Some(Class::Blunder));
        assert_eq!(class(mate_in(3), -900), None);
        // A move that does better than expected is not marked.
        assert_eq!(class(-200, -400), None);
    }

    #[test]
    fn forced_and_best_moves_are_never_marked() {
        let start = Board::default();
        let mut blunder = scores(&start, 0, 800);
        assert_eq!(judge(&blunder).class, Some(Class::Blunder));
        blunder.forced = true;
        assert_eq!(judge(&blunder).class, None);
        blunder.forced = false;
        blunder.best = true;
        assert_eq!(judge(&blunder).class, None);
        assert_eq!(judge(&blunder).cp_loss, 800);
    }

    #[test]
    fn centipawn_loss_is_clamped_and_never_negative() {
        let start = Board::default();
        assert_eq!(judge(&scores(&start, 50, 30)).cp_loss, 80);
        assert_eq!(judge(&scores(&start, 50, -80)).cp_loss, 0);
        assert_eq!(judge(&scores(&start, mate_in(3), mate_in(2))).cp_loss, 2000);
        assert_eq!(judge(&scores(&start, 0, mated_in(4))).cp_loss, 0);
    }

    #[test]
    fn expected_score_runs_from_0_to_100() {
        let start = Board::default();
        assert_eq!(expected_score(0, &start), 50.0);
        assert_eq!(expected_score(mate_in(1), &start), 100.0);
        assert_eq!(expected_score(mated_in(0), &start), 0.0);
        assert!(expected_score(100, &start) > expected_score(50, &start));
    }
}
