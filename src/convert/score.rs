//! The engine score in a move comment, as fastchess, cutechess-cli and OpenBench write it:
//! `{+0.36/14 0.193s}`, `{-M6/20 0.010s, Black mates}`: pawns with two decimals, or `M`
//! and the plies to mate (both tools count plies: Cutoff's `score mate 3` is `+M5`), a
//! slash and the depth. The score is the mover's, of the position the move was played
//! from. Anything else (`book`, `ERR/0`, a free comment, no comment) has no score.

use crate::score::{mate_in, mated_in, tb_loss_in, tb_win_in, MAX_PLY};
use crate::search::report::TB_WIN_CP;

/// The score of a comment, in Cutoff's units from the mover's view: centipawns, mates as
/// [`mate_in`]/[`mated_in`] of the plies given, and `±(20000 − n)` centipawns (how Cutoff
/// and Stockfish report a tablebase win `n` plies away) as Cutoff's tablebase score.
pub fn comment_score(comment: &str) -> Option<i32> {
    let first = comment
        .split(|c: char| c.is_whitespace() || c == ',')
        .find(|word| !word.is_empty())?;
    let (score, depth) = first.split_once('/')?;
    if depth.is_empty() || !depth.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (negative, magnitude) = match score.as_bytes().first()? {
        b'+' => (false, &score[1..]),
        b'-' => (true, &score[1..]),
        _ => (false, score),
    };
    if let Some(plies) = magnitude.strip_prefix('M') {
        let plies: usize = plies.parse().ok()?;
        let plies = plies.min(MAX_PLY);
        return Some(if negative {
            mated_in(plies)
        } else {
            mate_in(plies)
        });
    }
    let cp = centipawns(magnitude)?;
    let tb_plies = usize::try_from(TB_WIN_CP - cp).ok();
    Some(match (tb_plies, negative) {
        (Some(plies), false) if plies < MAX_PLY => tb_win_in(plies),
        (Some(plies), true) if plies < MAX_PLY => tb_loss_in(plies),
        _ if negative => -cp,
        _ => cp,
    })
}

/// `0.36` as 36: digits, optionally a point and up to two more (a third is rounded).
fn centipawns(pawns: &str) -> Option<i32> {
    let (whole, fraction) = pawns.split_once('.').unwrap_or((pawns, ""));
    let digits = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !(fraction.is_empty() || digits(fraction)) || whole.len() > 6 {
        return None;
    }
    let whole: i32 = whole.parse().ok()?;
    // Hundredths, rounded half up from the third decimal on.
    let mut padded: Vec<u8> = fraction.bytes().take(3).collect();
    padded.resize(3, b'0');
    let thousandths = i32::from(padded[0] - b'0') * 100
        + i32::from(padded[1] - b'0') * 10
        + i32::from(padded[2] - b'0');
    Some(whole * 100 + (thousandths + 5) / 10)
}
