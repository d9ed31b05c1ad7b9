//! Search scores: centipawns, and mates encoded as distance from the root.

/// Deeper than any search goes; bounds arrays indexed by ply.
pub const MAX_PLY: usize = 128;
/// The score of giving mate at the root (never reached: mate takes at least one ply).
pub const MATE: i32 = 32_000;
/// Above every score the search can return.
pub const INFINITY: i32 = 32_001;
/// Scores at or beyond this magnitude are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

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
