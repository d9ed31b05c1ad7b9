//! `UCI_ShowWDL`: the chances of a win, a draw and a loss behind a score.
//!
//! The model is the one Stockfish uses: from the side to move's view,
//! `P(win) = 1 / (1 + exp((a - s) / b))` and `P(loss) = 1 / (1 + exp((a + s) / b))`,
//! with `s` the score in centipawns and `a`, `b` cubic polynomials in the material left
//! on the board (the same score is worth more with fewer pieces). The coefficients in
//! [`MODEL`] are fitted by `tools/fit_wdl.py` on Cutoff's own self-play games (the
//! output of `cutoff datagen`, text or viriformat); `docs/STRENGTH.md` ("Win/draw/loss
//! model") records the data and the fit (295,972 positions of 3,000 games played by n4).

use cozy_chess::{Board, Piece};
use protocol::Wdl;

use crate::score::{is_decisive, INFINITY};

/// The fitted coefficients, highest power first, of `a(m)` and `b(m)`, where `m` is
/// the material (pawn 1, minor 3, rook 5, queen 9, clamped to 17..=78) divided by 58.
pub struct WdlModel {
    pub a: [f64; 4],
    pub b: [f64; 4],
}

pub const MODEL: WdlModel = include!("wdl_model.in");

/// The material count the model reads, from 17 to 78 (the start position has 78).
pub fn material(board: &Board) -> u32 {
    let count = |piece| board.pieces(piece).len();
    let total = count(Piece::Pawn)
        + 3 * count(Piece::Knight)
        + 3 * count(Piece::Bishop)
        + 5 * count(Piece::Rook)
        + 9 * count(Piece::Queen);
    total.clamp(17, 78)
}

impl WdlModel {
    /// The model's `(a, b)` at this material.
    fn parameters(&self, material: u32) -> (f64, f64) {
        let m = f64::from(material.clamp(17, 78)) / 58.0;
        let poly = |c: &[f64; 4]| ((c[0] * m + c[1]) * m + c[2]) * m + c[3];
        (poly(&self.a), poly(&self.b).max(1.0))
    }

    /// Win, draw and loss per mille for `score` (side to move's view, mates and tablebase results
    /// as in `score.rs`, both certain) with `material` on the board. The three always sum to 1000.
    pub fn wdl(&self, score: i32, material: u32) -> Wdl {
        if is_decisive(score) {
            return if score > 0 {
                Wdl {
                    win: 1000,
                    draw: 0,
                    loss: 0,
                }
            } else {
                Wdl {
                    win: 0,
                    draw: 0,
                    loss: 1000,
                }
            };
        }
        let (a, b) = self.parameters(material);
        let s = f64::from(score.clamp(-INFINITY, INFINITY));
        let per_mille = |x: f64| (1000.0 / (1.0 + ((a - x) / b).exp())).round() as u32;
        let win = per_mille(s).min(1000);
        let loss = per_mille(-s).min(1000 - win);
        Wdl {
            win,
            draw: 1000 - win - loss,
            loss,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_to_1000_and_is_monotonic() {
        for material in [17, 30, 50, 78] {
            let mut last_win = 0;
            for score in (-2000..=2000).step_by(25) {
                let wdl = MODEL.wdl(score, material);
                assert_eq!(wdl.win + wdl.draw + wdl.loss, 1000, "{score} {material}");
                assert!(wdl.win >= last_win, "win falls at {score}, {material}");
                last_win = wdl.win;
                let mirrored = MODEL.wdl(-score, material);
                assert!(wdl.win.abs_diff(mirrored.loss) <= 1, "{score} {material}");
                assert!(wdl.loss.abs_diff(mirrored.win) <= 1, "{score} {material}");
            }
        }
    }

    #[test]
    fn mates_are_certain() {
        let mate = crate::score::MATE - 5;
        assert_eq!(MODEL.wdl(mate, 40).win, 1000);
        assert_eq!(MODEL.wdl(-mate, 40).loss, 1000);
    }

    #[test]
    fn material_of_the_start_position_is_78() {
        assert_eq!(material(&Board::default()), 78);
    }
}
