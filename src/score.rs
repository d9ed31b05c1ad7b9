//! Search scores: centipawns, tablebase wins and losses, and mates, the last two encoded
//! as distance from the root. From the bottom up: ordinary scores below `TB_WIN_BOUND`,
//! tablebase results in `TB_WIN_BOUND..MATE_BOUND` (`TB_WIN - ply`: a win found nearer the
//! root is worth more), mates from `MATE_BOUND` to `MATE`; losses mirror them.

/// Deeper than any search goes; bounds arrays indexed by ply.
pub const MAX_PLY: usize = 128;
/// The score of giving mate at the root (never reached: mate takes at least one ply).
pub const MATE: i32 = 32_000;
/// Above every score the search can return.
pub const INFINITY: i32 = 32_001;
/// Scores at or beyond this magnitude are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// The score of a position the tablebases call won, at the root; `TB_WIN - ply` for one
/// `ply` plies deep. Just below the mates, with room for `MAX_PLY` plies.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores at or beyond this magnitude (and short of a mate) are tablebase results.
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;
/// The best score short of a proven result: what a hash entry's mate beyond the
/// fifty-move draw bounds the score by (`tt.rs`). Never the score of a searched line.
pub const UNPROVEN: i32 = TB_WIN_BOUND - 1;

// Every score fits the hash table's 16 bits.
const _: () = assert!(INFINITY < i16::MAX as i32 && TB_WIN < INFINITY);

/// The score of a tablebase win for the side to move, `ply` plies from the root.
pub const fn tb_win_in(ply: usize) -> i32 {
    TB_WIN - ply as i32
}

/// The score of a tablebase loss for the side to move, `ply` plies from the root.
pub const fn tb_loss_in(ply: usize) -> i32 {
    -TB_WIN + ply as i32
}

/// Whether `score` is a tablebase win or loss (not a mate).
pub const fn is_tb(score: i32) -> bool {
    !is_mate(score) && (score >= TB_WIN_BOUND || score <= -TB_WIN_BOUND)
}

/// Whether `score` decides the game: a mate or a tablebase result, which pruning margins
/// must not be added to and which move with the distance from the root.
pub const fn is_decisive(score: i32) -> bool {
    score >= TB_WIN_BOUND || score <= -TB_WIN_BOUND
}

/// The score of delivering mate `ply` plies from the root.
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// The score of being mated `ply` plies from the root.
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// Whether `score` announces a forced mate (for either side).
pub const fn is_mate(score: i32) -> bool {
    score >= MATE_BOUND || score <= -MATE_BOUND
}

/// Mate distance in moves as UCI prints it (`score mate N`), for a mate score.
pub const fn mate_moves(score: i32) -> i32 {
    if score > 0 {
        (MATE - score + 1) / 2
    } else {
        -(MATE + score) / 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bands_do_not_overlap() {
        assert!(!is_mate(tb_win_in(0)) && is_tb(tb_win_in(0)));
        assert!(is_tb(tb_win_in(MAX_PLY)) && is_tb(tb_loss_in(MAX_PLY)));
        assert!(!is_tb(TB_WIN_BOUND - 1) && !is_decisive(TB_WIN_BOUND - 1));
        assert!(is_mate(mate_in(MAX_PLY)) && !is_tb(mate_in(MAX_PLY)));
        assert!(is_decisive(mated_in(3)) && is_decisive(tb_loss_in(3)));
        assert!(tb_win_in(1) > tb_win_in(2) && tb_loss_in(1) < tb_loss_in(2));
    }
}
