//! Training data: viriformat games (`viri.rs`) filtered to quiet positions and turned into
//! compact [`Record`]s, split into training and held-out sets by game.
//!
//! A position is kept unless it is one of the first [`SKIPPED_PLIES`] recorded plies of its
//! game (Cutoff's games record their start after 8 or 9 random plies, so these are the
//! searched replies to a random opening, unlike the positions of real games; other
//! generators' files may start at a book position or the initial one), its side to move is
//! in check, the move played from it captures or promotes (the score then rests on a tactic
//! the static evaluation cannot see), or its score is a mate or tablebase score.

use std::fmt;

use cozy_chess::{Board, Color, Piece, Square};

use crate::moves::is_capture;
use crate::nnue::file::SCALE;
use crate::nnue::file::{feature_index, Inputs, INPUTS};
use crate::score::is_decisive;
use crate::viri::{GameReader, ViriError};

/// What the recorded scores of a data file are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scores {
    /// The search scores of an engine that used the network's score as it is (every
    /// data set up to s3, and other engines' files).
    Raw,
    /// The search scores of an engine that scales the network's score by the material
    /// left (`nnue::scale_by_material`, Cutoff since `81c1d56`): divided back out, so
    /// that the net learns the raw score the engine scales (`--scaled-data`).
    MaterialScaled,
}

/// Plies at the start of every game that are never used.
pub const SKIPPED_PLIES: usize = 8;
/// The most pieces a position can hold (and so the most active features per view).
pub const MAX_FEATURES: usize = 32;

/// One training position: its features from White's view, with the score and the result
/// from the side to move's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record {
    /// `feature_index(White, ..)` of each piece; the first `count` entries are used.
    features: [u16; MAX_FEATURES],
    count: u8,
    /// Whether Black is to move.
    black_to_move: bool,
    /// The search score in centipawns, side to move's view.
    pub score: i16,
    /// The game's result for the side to move: 0 loss, 1 draw, 2 win.
    pub result: u8,
    /// Whether no side may castle: then the position mirrored left to right (files a
    /// and h swapped) is just as good a training example, with the same score and result.
    pub mirrorable: bool,
}

impl Record {
    /// The record of `board` with `score` and `result_white` (0 / 1 / 2 for White) given
    /// from White's view.
    pub fn new(board: &Board, score_white: i16, result_white: u8) -> Record {
        let mut features = [0u16; MAX_FEATURES];
        let mut count = 0;
        for color in [Color::White, Color::Black] {
            for piece in Piece::ALL {
                for square in board.colored_pieces(color, piece) {
                    if count < MAX_FEATURES {
                        features[count] = feature_index(Color::White, color, piece, square) as u16;
                        count += 1;
                    }
                }
            }
        }
        let black_to_move = board.side_to_move() == Color::Black;
        let (score, result) = if black_to_move {
            (score_white.saturating_neg(), 2 - result_white)
        } else {
            (score_white, result_white)
        };
        let mirrorable = Color::ALL
            .iter()
            .all(|&c| *board.castle_rights(c) == cozy_chess::CastleRights::EMPTY);
        Record {
            features,
            count: count as u8,
            black_to_move,
            score,
            result,
            mirrorable,
        }
    }

    /// The record of the position mirrored left to right (each square's file `f` becomes
    /// `7 - f`; the low six bits of a feature index are its square). Only meaningful
    /// when [`Record::mirrorable`].
    pub fn mirrored_files(&self) -> Record {
        let mut mirrored = *self;
        for feature in &mut mirrored.features[..usize::from(self.count)] {
            *feature = flip_file(*feature);
        }
        mirrored
    }

    /// The active features seen from White.
    pub fn white_features(&self) -> &[u16] {
        &self.features[..usize::from(self.count)]
    }

    /// Whether Black is to move.
    pub fn black_to_move(&self) -> bool {
        self.black_to_move
    }

    /// The active features in the layout `inputs` from the side to move's view and from
    /// the other side's, each written into its array; returns how many there are.
    #[inline]
    pub fn views(
        &self,
        inputs: Inputs,
        stm: &mut [u16; MAX_FEATURES],
        nstm: &mut [u16; MAX_FEATURES],
    ) -> usize {
        let count = usize::from(self.count);
        let (own, other) = if self.black_to_move {
            (nstm, stm)
        } else {
            (stm, nstm)
        };
        for (i, &white) in self.white_features().iter().enumerate() {
            own[i] = white;
            other[i] = mirror(white);
        }
        if inputs != Inputs::Plain {
            for view in [own, other] {
                orient(inputs, &mut view[..count]);
            }
        }
        count
    }

    /// The training target: `wdl · result + (1 − wdl) · sigmoid(score / 400)`, both from
    /// the side to move's view.
    #[inline]
    pub fn target(&self, wdl: f32) -> f32 {
        let result = f32::from(self.result) / 2.0;
        let expected = 1.0 / (1.0 + (-f32::from(self.score) / SCALE as f32).exp());
        wdl * result + (1.0 - wdl) * expected
    }
}

/// One view's features, mirrored left to right when `inputs` mirrors the view by its own
/// king ([`Inputs::mirrors`]); the king is the feature in the view's own-king rows.
#[inline(always)]
fn orient(inputs: Inputs, view: &mut [u16]) {
    let own_king = feature_index(Color::White, Color::White, Piece::King, Square::A1) as u16;
    let king = view
        .iter()
        .find(|&&f| (own_king..own_king + 64).contains(&f));
    if king.is_some_and(|&f| inputs.mirrors(Square::index(usize::from(f - own_king)))) {
        for feature in view {
            *feature = flip_file(*feature);
        }
    }
}

/// A feature index with its square's file mirrored (`f` becomes `7 - f`; the low six bits
/// of an index are its square).
#[inline(always)]
fn flip_file(feature: u16) -> u16 {
    feature ^ 7
}

/// The index of a feature seen from White as Black sees it (colours swapped, board
/// mirrored vertically): `feature_index(Black, c, p, s) == mirror(feature_index(White, c, p, s))`.
#[inline(always)]
pub fn mirror(white: u16) -> u16 {
    let half = (INPUTS / 2) as u16;
    let swapped = if white >= half {
        white - half
    } else {
        white + half
    };
    swapped ^ 56
}

/// What loading saw.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LoadStats {
    pub games: usize,
    /// Every position of every game.
    pub positions: usize,
    /// Positions that passed the filter.
    pub kept: usize,
    /// Kept positions that went to the held-out set.
    pub held_out: usize,
}

impl LoadStats {
    pub fn add(&mut self, other: &LoadStats) {
        self.games += other.games;
        self.positions += other.positions;
        self.kept += other.kept;
        self.held_out += other.held_out;
    }
}

impl fmt::Display for LoadStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} games, {} positions read, {} kept ({:.1}%), {} of them held out",
            self.games,
            self.positions,
            self.kept,
            100.0 * self.kept as f64 / self.positions.max(1) as f64,
            self.held_out
        )
    }
}

/// Training and held-out records.
#[derive(Debug, Default)]
pub struct Split {
    pub train: Vec<Record>,
    pub held_out: Vec<Record>,
    /// The hand-crafted evaluation of each held-out position (centipawns, side to move),
    /// in the order of `held_out`: the reference a network has to beat (see
    /// [`super::reference_loss`]).
    pub held_out_classical: Vec<i16>,
    /// The built-in network's evaluation of each held-out position (centipawns, side to
    /// move), in the order of `held_out`; empty when the binary has no network. A new net
    /// must predict better than the one it would replace.
    pub held_out_built_in: Vec<i16>,
    pub stats: LoadStats,
}

impl Split {
    /// Appends another split (e.g. of the next file).
    pub fn append(&mut self, mut other: Split) {
        self.train.append(&mut other.train);
        self.held_out.append(&mut other.held_out);
        self.held_out_classical
            .append(&mut other.held_out_classical);
        self.held_out_built_in.append(&mut other.held_out_built_in);
        self.stats.add(&other.stats);
    }
}

/// Whether the position before `mv` is one to train on (see the module comment).
pub fn keep(board: &Board, mv: cozy_chess::Move, score: i16, ply: usize) -> bool {
    ply >= SKIPPED_PLIES
        && board.checkers().is_empty()
        && mv.promotion.is_none()
        && !is_capture(board, mv)
        && !is_decisive(i32::from(score))
}

/// The salt of the held-out hash. It was the run's `--seed` before n2's recipe, and
/// every recorded run used seed 1; fixed at 1 since, so that the same games are held out
/// whatever the seed (a net trained with another seed never saw the games that measure a
/// net fine-tuned from it) and the recorded losses stay reproducible.
const HOLDOUT_SALT: u64 = 1;

/// Whether a game whose bytes are `game` goes to the held-out set: a hash of the bytes, so
/// the choice does not depend on the seed, the file order or which other files are read,
/// and all positions of a game land on the same side.
pub fn is_held_out(game: &[u8], fraction: f64) -> bool {
    if fraction <= 0.0 {
        return false;
    }
    let hash = game.iter().fold(
        0xcbf2_9ce4_8422_2325 ^ HOLDOUT_SALT.wrapping_mul(0x9E37_79B9_7F4A_7C15),
        |hash, &b| (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3),
    );
    let mixed = crate::rng::SplitMix64::new(hash).next_u64();
    ((mixed >> 11) as f64 / (1u64 << 53) as f64) < fraction
}

/// Reads every game of `bytes`, whose scores are `scores`, into records labelled with
/// their own search scores.
pub fn load_bytes(bytes: &[u8], holdout: f64, scores: Scores) -> Result<Split, ViriError> {
    load_bytes_with(bytes, holdout, scores, 0)
}

/// The score of a kept position, the mean of its own search score and the search scores
/// of up to `lookahead` plies after it in the game (`train --lookahead`): each later
/// search started a ply or more deeper along the line played, so the mean is a less noisy
/// estimate of the position's value than one search's score. `white_scores` holds the
/// raw White-view score of each ply from the kept one on, `None` for a mate or tablebase
/// score, where the mean stops (the kept position's own is never `None`).
pub fn smoothed_score(white_scores: &[Option<i32>], lookahead: usize) -> Option<i32> {
    let (sum, count) = white_scores
        .iter()
        .take(lookahead.saturating_add(1))
        .map_while(|score| *score)
        .fold((0.0, 0.0), |(sum, count), score| {
            (sum + f64::from(score), count + 1.0)
        });
    (count > 0.0).then(|| (sum / count).round() as i32)
}

/// [`load_bytes`], with the training positions (not the held-out ones, which keep their own
/// scores so that losses stay comparable across runs) labelled by [`smoothed_score`] over
/// `lookahead` plies.
pub fn load_bytes_with(
    bytes: &[u8],
    holdout: f64,
    scores: Scores,
    lookahead: usize,
) -> Result<Split, ViriError> {
    let (split, damage) = load_until_damage(bytes, holdout, scores, lookahead);
    damage.map_or(Ok(split), |(_, error)| Err(error))
}

/// [`load_bytes_with`] that keeps the games before the first one it cannot read (a file
/// cut short, or damaged), and returns that game's first byte and error beside them:
/// viriformat has no marker to find the next game by, so the rest of the bytes are left
/// unread.
pub fn load_until_damage(
    bytes: &[u8],
    holdout: f64,
    scores: Scores,
    lookahead: usize,
) -> (Split, Option<(usize, ViriError)>) {
    let mut split = Split::default();
    let built_in = crate::nnue::embedded();
    let mut reader = GameReader::new(bytes);
    let mut damage = None;
    loop {
        let start = reader.offset();
        let game = match reader.next_game() {
            Ok(Some(game)) => game,
            Ok(None) => break,
            Err(error) => {
                damage = Some((start, error));
                break;
            }
        };
        let held_out = is_held_out(&bytes[start..reader.offset()], holdout);
        let result_white = game.result as u8;
        split.stats.games += 1;
        let positions: Vec<_> = game.positions().collect();
        // The raw White-view score of every ply, for the lookahead's mean.
        let white_scores: Vec<Option<i32>> = positions
            .iter()
            .map(|(board, _, score)| {
                let score = i32::from(*score);
                (!is_decisive(score)).then(|| match scores {
                    Scores::Raw => score,
                    Scores::MaterialScaled => {
                        crate::nnue::material::unscale_by_material(score, board)
                    }
                })
            })
            .collect();
        for (ply, (board, mv, score)) in positions.into_iter().enumerate() {
            split.stats.positions += 1;
            if !keep(&board, mv, score, ply) {
                continue;
            }
            let window = if held_out { 0 } else { lookahead };
            let Some(label) = smoothed_score(&white_scores[ply..], window) else {
                continue;
            };
            let label = label.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
            let record = Record::new(&board, label, result_white);
            if held_out {
                split.held_out.push(record);
                let classical = crate::eval::evaluate(&board);
                split.held_out_classical.push(clamp_cp(classical));
                if let Some(net) = &built_in {
                    let cp = crate::nnue::evaluate_fresh(net, &board);
                    split.held_out_built_in.push(clamp_cp(cp));
                }
            } else {
                split.train.push(record);
            }
        }
    }
    split.stats.kept = split.train.len() + split.held_out.len();
    split.stats.held_out = split.held_out.len();
    (split, damage)
}

/// A centipawn evaluation in 16 bits.
fn clamp_cp(cp: i32) -> i16 {
    cp.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16
}

#[cfg(test)]
mod tests {
    use super::*;
    use cozy_chess::Square;

    #[test]
    fn a_smoothed_score_is_the_mean_up_to_the_first_decisive_score() {
        let scores = [Some(10), Some(20), Some(60), None, Some(500)];
        assert_eq!(smoothed_score(&scores, 0), Some(10));
        assert_eq!(smoothed_score(&scores, 1), Some(15));
        assert_eq!(smoothed_score(&scores, 2), Some(30));
        // The mate score at the fourth ply ends the window.
        assert_eq!(smoothed_score(&scores, 4), Some(30));
        // Near the end of the game the window is shorter.
        assert_eq!(smoothed_score(&scores[2..3], 5), Some(60));
        assert_eq!(smoothed_score(&[Some(-7), Some(-8)], 3), Some(-8));
        assert_eq!(smoothed_score(&[None, Some(3)], 2), None);
        assert_eq!(smoothed_score(&[], 2), None);
    }

    #[test]
    fn mirror_is_the_black_view() {
        for color in [Color::White, Color::Black] {
            for piece in Piece::ALL {
                for square in Square::ALL {
                    let white = feature_index(Color::White, color, piece, square) as u16;
                    let black = feature_index(Color::Black, color, piece, square) as u16;
                    assert_eq!(mirror(white), black);
                }
            }
        }
    }

    #[test]
    fn a_mirrored_record_is_the_record_of_the_mirrored_position() {
        let board: Board = "r3k3/1pp2ppp/p1n5/4p3/2B1P1b1/5N2/PPP2PPP/R3K2R w - - 0 12"
            .parse()
            .unwrap();
        let mirrored: Board = "3k3r/ppp2pp1/5n1p/3p4/1b1P1B2/2N5/PPP2PPP/R2K3R w - - 0 12"
            .parse()
            .unwrap();
        let record = Record::new(&board, 40, 1);
        assert!(record.mirrorable);
        let mut expected: Vec<u16> = Record::new(&mirrored, 40, 1).white_features().to_vec();
        let mut actual: Vec<u16> = record.mirrored_files().white_features().to_vec();
        expected.sort_unstable();
        actual.sort_unstable();
        assert_eq!(actual, expected);
        let castling: Board = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
        assert!(!Record::new(&castling, 0, 1).mirrorable);
    }

    #[test]
    fn king_mirrored_views_are_the_engines_features() {
        use crate::nnue::file::oriented_feature_index;
        // Kings on each half, both sides to move, castled long and short.
        let fens = [
            "2kr3r/ppp2ppp/2n5/8/8/5N2/PPP2PPP/R4RK1 w - - 0 12",
            "2kr3r/ppp2ppp/2n5/8/8/5N2/PPP2PPP/R4RK1 b - - 0 12",
            "r4rk1/ppp2ppp/2n5/8/8/5N2/PPP2PPP/2KR3R w - - 0 12",
            "8/8/3k4/8/8/4K3/8/8 b - - 0 60",
        ];
        for fen in fens {
            let board: Board = fen.parse().unwrap();
            let record = Record::new(&board, 0, 1);
            let (mut stm, mut nstm) = ([0; MAX_FEATURES], [0; MAX_FEATURES]);
            let count = record.views(Inputs::KingMirrored, &mut stm, &mut nstm);
            let us = board.side_to_move();
            for (view, perspective) in [(&stm, us), (&nstm, !us)] {
                let mut expected: Vec<u16> = Vec::new();
                for square in board.occupied() {
                    let piece = board.piece_on(square).unwrap();
                    let color = board.color_on(square).unwrap();
                    let king = board.king(perspective);
                    let index = oriented_feature_index(
                        perspective,
                        Inputs::KingMirrored.mirrors(king),
                        color,
                        piece,
                        square,
                    );
                    expected.push(index as u16);
                }
                let mut actual = view[..count].to_vec();
                actual.sort_unstable();
                expected.sort_unstable();
                assert_eq!(actual, expected, "{fen}, {perspective:?}'s view");
            }
        }
    }

    #[test]
    fn records_are_from_the_side_to_move() {
        let board: Board = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
            .parse()
            .unwrap();
        let record = Record::new(&board, 30, 2);
        assert_eq!((record.score, record.result), (-30, 0));
        let (mut stm, mut nstm) = ([0; MAX_FEATURES], [0; MAX_FEATURES]);
        assert_eq!(record.views(Inputs::Plain, &mut stm, &mut nstm), 32);
        // Black to move: its own view is the mirrored one.
        assert!(stm.contains(
            &(feature_index(Color::Black, Color::Black, Piece::King, Square::E8) as u16)
        ));
        assert!(nstm.contains(
            &(feature_index(Color::White, Color::White, Piece::King, Square::E1) as u16)
        ));
        assert!((record.target(1.0) - 0.0).abs() < 1e-6);
        assert!(record.target(0.0) < 0.5);
    }
}
