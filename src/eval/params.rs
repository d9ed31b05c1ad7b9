//! The evaluation weights: every additive term as a named `S(middlegame, endgame)` pair.
//!
//! This file is written by `layout::to_source` (a tuner saves its result with it), so keep
//! its format: one `NAME: S = ...;` or `NAME: [S; N] = [...];` entry per term, in the order
//! that defines the flat index space (`idx::NAME`). Piece-square tables are written as seen
//! from White with rank 8 on top: White's square `sq` reads entry `sq ^ 56`, Black's `sq`.
//! Entries indexed by rank use the rank relative to the side (0 = own first rank).

use super::score::S;

params! {
    /// Base value of each piece: pawn, knight, bishop, rook, queen, king (tuned from PeSTO's).
    MATERIAL: [S; 6] = [
        S(  79,   93), S( 336,  305), S( 358,  325), S( 482,  547), S(1046,  953), S(   0,    0),
    ];

    /// Pawn piece-square table (tuned from PeSTO's).
    PST_PAWN: [S; 64] = [
        S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
        S(  92,  163), S( 136,  174), S(  66,  164), S(  97,  142), S(  69,  147), S( 123,  130), S(  33,  165), S( -12,  170),
        S(  -5,   80), S(   3,   90), S(  27,   81), S(  27,   66), S(  57,   52), S(  50,   47), S(  26,   68), S( -17,   71),
        S(  -7,   26), S(   7,   25), S(  -1,   12), S(  17,    1), S(  18,    1), S(   8,    9), S(  11,   12), S( -18,   15),
        S( -11,   16), S(  -3,    8), S(   0,    2), S(   7,  -10), S(   9,   -2), S(   6,    1), S(   6,    2), S( -21,    7),
        S( -17,   13), S(  -3,    8), S(  -6,    1), S(  -9,    9), S(  -2,    5), S(   2,    3), S(  22,   -4), S( -12,   -4),
        S( -22,   19), S(   0,   17), S( -15,    4), S( -11,   14), S(  -8,   20), S(  20,    6), S(  37,    1), S( -19,    0),
        S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
    ];

    /// Knight piece-square table (tuned from PeSTO's).
    PST_KNIGHT: [S; 64] = [
        S(-166,  -59), S( -89,  -36), S( -35,  -12), S( -48,  -25), S(  62,  -28), S( -97,  -26), S( -15,  -63), S(-107,  -98),
        S( -68,  -23), S( -37,   -5), S(  66,  -26), S(  34,   -4), S(  21,   -9), S(  60,  -24), S(   6,  -25), S( -14,  -51),
        S( -46,  -21), S(  57,  -17), S(  36,    8), S(  59,    7), S(  83,   -1), S( 125,  -10), S(  69,  -18), S(  42,  -43),
        S(  -6,  -14), S(  12,    2), S(  17,   15), S(  40,   18), S(  30,   19), S(  59,   10), S(  10,    9), S(  28,  -15),
        S(  -3,  -15), S(   0,   -4), S(  14,   20), S(   9,   24), S(  26,   16), S(  16,   10), S(  22,    4), S(   0,  -14),
        S( -19,  -20), S(  -6,   -7), S(   7,    0), S(   5,   11), S(  18,   10), S(  15,   -2), S(  22,  -18), S( -14,  -24),
        S( -31,  -42), S( -51,  -20), S(  -9,  -12), S(   3,   -7), S(   1,   -5), S(  15,  -20), S( -11,  -21), S( -15,  -42),
        S(-104,  -29), S( -16,  -47), S( -53,  -21), S( -28,  -14), S(  -5,  -20), S( -24,  -18), S( -15,  -48), S( -22,  -65),
    ];

    /// Bishop piece-square table (tuned from PeSTO's).
    PST_BISHOP: [S; 64] = [
        S( -30,  -12), S(   4,  -18), S( -81,   -7), S( -37,   -6), S( -25,   -5), S( -44,  -10), S(   7,  -15), S(  -9,  -23),
        S( -23,   -8), S(  10,   -4), S( -18,    7), S( -14,  -11), S(  28,   -3), S(  56,  -12), S(  17,   -2), S( -51,  -15),
        S( -14,    0), S(  34,   -6), S(  37,    2), S(  38,   -3), S(  34,    0), S(  53,    9), S(  37,   -2), S(   1,    4),
        S(  -2,   -3), S(  10,    8), S(  16,   12), S(  43,    8), S(  28,   11), S(  35,   12), S(   9,    5), S(   1,    2),
        S(  -2,   -8), S(  11,    2), S(   8,   10), S(  24,   16), S(  28,    8), S(  11,    8), S(   5,   -1), S(   4,  -13),
        S(   1,  -11), S(  13,   -1), S(  16,   11), S(   6,   11), S(  13,   16), S(  27,    1), S(  15,   -7), S(  11,  -14),
        S(   4,  -10), S(  16,  -16), S(  23,   -8), S(   5,   -2), S(  12,    0), S(  19,  -11), S(  34,  -18), S(   2,  -25),
        S( -28,  -18), S(  -4,  -11), S(  -4,  -16), S( -19,   -5), S(  -8,   -7), S(  -8,  -14), S( -39,   -7), S(  -9,  -16),
    ];

    /// Rook piece-square table (tuned from PeSTO's).
    PST_ROOK: [S; 64] = [
        S(  34,   15), S(  44,   13), S(  33,   17), S(  50,   11), S(  62,    8), S(  11,   16), S(  31,   11), S(  43,    9),
        S(  26,   14), S(  31,   11), S(  53,   10), S(  60,    6), S(  75,   -7), S(  67,    1), S(  26,   11), S(  46,    4),
        S(  -1,   16), S(  20,   12), S(  28,   11), S(  35,    7), S(  19,    5), S(  44,    1), S(  60,   -4), S(  18,    1),
        S( -25,   12), S( -10,    7), S(   5,   14), S(  31,    4), S(  20,   -3), S(  36,    3), S(  -7,    3), S( -16,    3),
        S( -36,    6), S( -22,    7), S( -10,    9), S(  -1,    5), S(   4,   -5), S(  -6,   -6), S(   6,   -5), S( -20,   -8),
        S( -41,    0), S( -24,    1), S( -15,   -4), S( -16,   -2), S(  -1,   -6), S(  -5,  -11), S(  -3,   -6), S( -33,  -14),
        S( -37,   -7), S( -13,   -7), S( -15,    0), S(  -8,   -3), S(  -6,  -11), S(   6,  -14), S(  -9,  -12), S( -69,   -1),
        S( -17,   -8), S(  -6,   -5), S(  -4,    2), S(   8,   -7), S(  10,  -10), S(   1,  -14), S( -37,    3), S( -18,  -21),
    ];

    /// Queen piece-square table (tuned from PeSTO's).
    PST_QUEEN: [S; 64] = [
        S( -25,   -8), S(   0,   22), S(  30,   23), S(  12,   27), S(  58,   26), S(  45,   20), S(  43,   10), S(  45,   19),
        S( -20,  -14), S( -36,   22), S(  -1,   35), S(   1,   42), S( -13,   60), S(  57,   26), S(  27,   31), S(  53,    0),
        S( -11,  -19), S( -14,   10), S(   5,   12), S(   4,   48), S(  26,   46), S(  56,   33), S(  45,   18), S(  51,    8),
        S( -24,    7), S( -25,   23), S( -13,   26), S( -13,   48), S(  -2,   56), S(  11,   38), S(  -4,   56), S(   5,   37),
        S(  -2,  -14), S( -26,   28), S( -10,   21), S( -13,   46), S(  -5,   30), S(  -2,   36), S(   6,   38), S(  -1,   24),
        S( -17,  -15), S(   0,  -25), S( -12,   16), S(  -6,    8), S(  -5,   10), S(   4,   15), S(  13,    9), S(   8,    5),
        S( -34,  -22), S( -12,  -24), S(   9,  -29), S(   4,  -17), S(   8,  -19), S(  15,  -25), S(  -1,  -37), S(   2,  -32),
        S(  -1,  -33), S( -16,  -29), S(  -6,  -24), S(   4,  -46), S(  -8,   -6), S( -28,  -35), S( -32,  -22), S( -49,  -41),
    ];

    /// King piece-square table (tuned from PeSTO's).
    PST_KING: [S; 64] = [
        S( -65,  -74), S(  23,  -34), S(  16,  -16), S( -15,  -17), S( -56,   -9), S( -34,   17), S(   2,    4), S(  12,  -22),
        S(  29,  -13), S(  -1,   17), S( -19,   16), S(  -7,   16), S(  -7,   19), S(  -4,   37), S( -38,   24), S( -30,    6),
        S(  -8,    9), S(  25,   18), S(   2,   26), S( -16,   17), S( -21,   20), S(   6,   37), S(  21,   33), S( -24,    8),
        S( -17,   -4), S( -20,   20), S( -13,   23), S( -27,   32), S( -30,   28), S( -27,   25), S( -16,   17), S( -36,    0),
        S( -48,  -14), S(  -1,   -1), S( -27,   22), S( -38,   28), S( -46,   30), S( -44,   22), S( -32,    7), S( -51,  -12),
        S( -13,  -14), S( -13,    1), S( -23,   13), S( -44,   19), S( -43,   22), S( -29,   11), S( -15,    2), S( -27,  -12),
        S(   1,  -25), S(   4,   -7), S(  -8,    4), S( -55,   17), S( -42,   11), S( -13,    4), S(   5,   -6), S(   6,  -18),
        S( -14,  -48), S(  31,  -29), S(  12,  -16), S( -51,   -9), S(   5,  -28), S( -31,   -9), S(  23,  -24), S(  17,  -38),
    ];

    /// Knight by number of safe squares attacked (not own pieces, not enemy pawn attacks).
    MOBILITY_KNIGHT: [S; 9] = [
        S( -25,  -32), S( -11,  -13), S(  -1,    0), S(   1,    8), S(   3,   15), S(   9,   16), S(   9,   15), S(  14,   13),
        S(  12,    9),
    ];

    /// Bishop by number of safe squares attacked.
    MOBILITY_BISHOP: [S; 14] = [
        S( -22,  -29), S( -14,  -28), S( -10,  -11), S(  -3,   -7), S(   0,    3), S(   2,    9), S(   4,   10), S(   2,   15),
        S(   3,   11), S(   3,   18), S(   6,    9), S(  10,   16), S(  13,   14), S(  15,   18),
    ];

    /// Rook by number of safe squares attacked.
    MOBILITY_ROOK: [S; 15] = [
        S( -20,  -32), S(  -9,  -19), S(  -4,  -15), S(   0,   -5), S(   0,    2), S(   1,    3), S(   2,   10), S(   4,   11),
        S(   5,   14), S(   6,   14), S(   5,   20), S(   8,   20), S(   4,   20), S(  10,   21), S(  14,   13),
    ];

    /// Queen by number of safe squares attacked.
    MOBILITY_QUEEN: [S; 28] = [
        S( -10,  -24), S(  -6,  -16), S(  -5,  -14), S(  -4,  -12), S(  -5,  -14), S(  -2,   -9), S(  -2,   -3), S(  -2,   -4),
        S(  -1,    1), S(  -1,    1), S(   0,    3), S(   2,    8), S(   4,    7), S(   4,   11), S(   6,   13), S(   7,   11),
        S(   7,   11), S(   8,   13), S(   8,   14), S(   4,   11), S(   5,   10), S(   5,    8), S(   7,   13), S(   7,   13),
        S(   8,   13), S(   8,   15), S(   8,   17), S(   8,   17),
    ];

    /// Per pawn with no own pawn on an adjacent file.
    PAWN_ISOLATED: S = S(-5, -11);

    /// Per pawn with an own pawn in front of it on its file.
    PAWN_DOUBLED: S = S(-16, -15);

    /// Per pawn that no own pawn can support and whose stop square an enemy pawn attacks.
    PAWN_BACKWARD: S = S(-2, -11);

    /// Per pawn defended by an own pawn, by relative rank.
    PAWN_SUPPORTED: [S; 8] = [
        S(   0,    0), S(   0,    0), S(  14,    6), S(  13,    5), S(  18,   14), S(  30,   21), S(  41,   41), S(   0,    0),
    ];

    /// Per pawn with an own pawn beside it on the same rank, by relative rank.
    PAWN_PHALANX: [S; 8] = [
        S(   0,    0), S(   4,   -2), S(   5,    2), S(   9,   10), S(  13,   26), S(  32,   31), S(  50,   46), S(   0,    0),
    ];

    /// Per passed pawn, by relative rank.
    PASSED_RANK: [S; 8] = [
        S(   0,    0), S(   1,   11), S(   1,   18), S(   7,   33), S(  18,   39), S(  32,   38), S(  49,   60), S(   0,    0),
    ];

    /// Per passed pawn with no piece on the squares in front of it, by relative rank.
    PASSED_FREE_PATH: [S; 8] = [
        S(   0,    0), S(  -1,    1), S(  -1,    3), S(   0,   15), S(   6,   17), S(   9,   25), S(  17,   51), S(   0,    0),
    ];

    /// Per passed pawn, times its own king's distance to the promotion square, by relative rank.
    PASSED_OWN_KING_DISTANCE: [S; 8] = [
        S(   0,    0), S(   1,    0), S(   0,   -2), S(   0,   -5), S(   3,   -7), S(   1,  -13), S(  -4,  -21), S(   0,    0),
    ];

    /// Per passed pawn, times the enemy king's distance to the promotion square, by relative rank.
    PASSED_ENEMY_KING_DISTANCE: [S; 8] = [
        S(   0,    0), S(  -8,    2), S(  -4,    4), S(  -1,   10), S(  -5,   18), S(  -2,   27), S(   6,   22), S(   0,    0),
    ];

    /// Per file around the king: nearest own pawn on or ahead of the king's rank,
    /// by rank distance from the king (0, 1, 2, 3 or more).
    SHELTER_PAWN: [S; 4] = [
        S(  14,   -5), S(  15,  -10), S(  11,  -13), S(   0,  -11),
    ];

    /// Per file around the king: nearest enemy pawn ahead of the king,
    /// by rank distance from the king (1 or less, 2, 3, 4, 5 or more).
    SHELTER_STORM: [S; 5] = [
        S(   1,   22), S( -23,  -10), S(   1,  -12), S(   4,   -9), S(   7,  -10),
    ];

    /// Per file around the king with no pawns at all.
    SHELTER_OPEN_FILE: S = S(-29, -16);

    /// Per file around the king with enemy pawns but no own pawn.
    SHELTER_SEMI_OPEN_FILE: S = S(-14, 4);

    /// King-danger units per enemy knight, bishop, rook, queen attacking the king zone.
    DANGER_ATTACKER: [S; 4] = [
        S(  40,   41), S(  25,   31), S(  41,   13), S(  31,    6),
    ];

    /// King-danger units per enemy attack on a king-zone square.
    DANGER_ZONE_ATTACK: S = S(19, 29);

    /// King-danger units per attacked king-zone square defended only by the king or queen.
    DANGER_WEAK_SQUARE: S = S(38, 38);

    /// King-danger units per safe checking square of an enemy knight, bishop, rook, queen.
    DANGER_SAFE_CHECK: [S; 4] = [
        S( 110,  110), S(  60,   61), S(  96,   96), S(  81,   80),
    ];

    /// King-danger units when the attacker has no queen.
    DANGER_NO_QUEEN: S = S(-237, -248);

    /// King-danger units always added (the bias of the danger sum).
    DANGER_OFFSET: S = S(-71, -23);

    /// Per rook on a file with no pawns.
    PIECE_ROOK_OPEN_FILE: S = S(27, 5);

    /// Per rook on a file with enemy pawns but no own pawn.
    PIECE_ROOK_SEMI_OPEN_FILE: S = S(14, 12);

    /// Per rook on the relative seventh rank while the enemy king is on the eighth
    /// or enemy pawns are on the seventh.
    PIECE_ROOK_SEVENTH: S = S(-2, 18);

    /// Bishops on both square colours.
    PIECE_BISHOP_PAIR: S = S(19, 51);

    /// Per knight on an outpost: relative rank 4 to 6, defended by an own pawn,
    /// out of reach of every enemy pawn.
    PIECE_KNIGHT_OUTPOST: S = S(20, 12);

    /// Per bishop on an outpost.
    PIECE_BISHOP_OUTPOST: S = S(18, 6);

    /// Per enemy knight, bishop, rook, queen attacked by an own pawn.
    THREAT_BY_PAWN: [S; 4] = [
        S(  63,   30), S(  58,   26), S(  66,   25), S(  54,   17),
    ];

    /// Per enemy pawn, knight, bishop, rook, queen attacked by an own knight or bishop
    /// (pawns and minors only when undefended).
    THREAT_BY_MINOR: [S; 5] = [
        S(  12,   26), S(  17,   23), S(  16,   21), S(  50,   20), S(  38,   38),
    ];

    /// Per enemy pawn, knight, bishop, rook, queen attacked by an own rook
    /// (all but the queen only when undefended).
    THREAT_BY_ROOK: [S; 5] = [
        S(  11,   34), S(  16,   25), S(  16,   23), S(   8,    9), S(  42,   21),
    ];

    /// Per enemy knight, bishop, rook or queen attacked and not defended.
    THREAT_HANGING: S = S(15, 6);

    /// Bonus for the side to move.
    TEMPO: S = S(19, 6);
}

// Shape constants: not additive weights, so not in the flat vector. The king-danger units are
// mapped to a penalty by `mg = max(units, 0)^2 / DANGER_MG_DIVISOR` and
// `eg = max(units, 0) / DANGER_EG_DIVISOR`; the scale factors multiply the whole blended score
// by `factor / 128` in the endgames named.

/// Middlegame king-danger divisor.
pub const DANGER_MG_DIVISOR: i32 = 720;
/// Endgame king-danger divisor.
pub const DANGER_EG_DIVISOR: i32 = 20;
/// Scale for opposite-coloured bishops with only pawns besides.
pub const SCALE_OCB_PURE: i32 = 64;
/// Scale for opposite-coloured bishops with other pieces on the board.
pub const SCALE_OCB_WITH_PIECES: i32 = 96;
/// Scale when the stronger side has no pawns and is at most a minor piece up.
pub const SCALE_PAWNLESS_SMALL_EDGE: i32 = 16;
