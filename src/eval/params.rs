//! The evaluation weights: every additive term as a named `S(middlegame, endgame)` pair.
//!
//! This file is written by `layout::to_source` (a tuner saves its result with it), so keep
//! its format: one `NAME: S = ...;` or `NAME: [S; N] = [...];` entry per term, in the order
//! that defines the flat index space (`idx::NAME`). Piece-square tables are written as seen
//! from White with rank 8 on top: White's square `sq` reads entry `sq ^ 56`, Black's `sq`.
//! Entries indexed by rank use the rank relative to the side (0 = own first rank).

use super::score::S;

params! {
    /// Base value of each piece: pawn, knight, bishop, rook, queen, king (PeSTO).
    MATERIAL: [S; 6] = [
        S(  82,   94), S( 337,  281), S( 365,  297), S( 477,  512), S(1025,  936), S(   0,    0),
    ];

    /// Pawn piece-square table (PeSTO).
    PST_PAWN: [S; 64] = [
        S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
        S(  98,  178), S( 134,  173), S(  61,  158), S(  95,  134), S(  68,  147), S( 126,  132), S(  34,  165), S( -11,  187),
        S(  -6,   94), S(   7,  100), S(  26,   85), S(  31,   67), S(  65,   56), S(  56,   53), S(  25,   82), S( -20,   84),
        S( -14,   32), S(  13,   24), S(   6,   13), S(  21,    5), S(  23,   -2), S(  12,    4), S(  17,   17), S( -23,   17),
        S( -27,   13), S(  -2,    9), S(  -5,   -3), S(  12,   -7), S(  17,   -7), S(   6,   -8), S(  10,    3), S( -25,   -1),
        S( -26,    4), S(  -4,    7), S(  -4,   -6), S( -10,    1), S(   3,    0), S(   3,   -5), S(  33,   -1), S( -12,   -8),
        S( -35,   13), S(  -1,    8), S( -20,    8), S( -23,   10), S( -15,   13), S(  24,    0), S(  38,    2), S( -22,   -7),
        S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
    ];

    /// Knight piece-square table (PeSTO).
    PST_KNIGHT: [S; 64] = [
        S(-167,  -58), S( -89,  -38), S( -34,  -13), S( -49,  -28), S(  61,  -31), S( -97,  -27), S( -15,  -63), S(-107,  -99),
        S( -73,  -25), S( -41,   -8), S(  72,  -25), S(  36,   -2), S(  23,   -9), S(  62,  -25), S(   7,  -24), S( -17,  -52),
        S( -47,  -24), S(  60,  -20), S(  37,   10), S(  65,    9), S(  84,   -1), S( 129,   -9), S(  73,  -19), S(  44,  -41),
        S(  -9,  -17), S(  17,    3), S(  19,   22), S(  53,   22), S(  37,   22), S(  69,   11), S(  18,    8), S(  22,  -18),
        S( -13,  -18), S(   4,   -6), S(  16,   16), S(  13,   25), S(  28,   16), S(  19,   17), S(  21,    4), S(  -8,  -18),
        S( -23,  -23), S(  -9,   -3), S(  12,   -1), S(  10,   15), S(  19,   10), S(  17,   -3), S(  25,  -20), S( -16,  -22),
        S( -29,  -42), S( -53,  -20), S( -12,  -10), S(  -3,   -5), S(  -1,   -2), S(  18,  -20), S( -14,  -23), S( -19,  -44),
        S(-105,  -29), S( -21,  -51), S( -58,  -23), S( -33,  -15), S( -17,  -22), S( -28,  -18), S( -19,  -50), S( -23,  -64),
    ];

    /// Bishop piece-square table (PeSTO).
    PST_BISHOP: [S; 64] = [
        S( -29,  -14), S(   4,  -21), S( -82,  -11), S( -37,   -8), S( -25,   -7), S( -42,   -9), S(   7,  -17), S(  -8,  -24),
        S( -26,   -8), S(  16,   -4), S( -18,    7), S( -13,  -12), S(  30,   -3), S(  59,  -13), S(  18,   -4), S( -47,  -14),
        S( -16,    2), S(  37,   -8), S(  43,    0), S(  40,   -1), S(  35,   -2), S(  50,    6), S(  37,    0), S(  -2,    4),
        S(  -4,   -3), S(   5,    9), S(  19,   12), S(  50,    9), S(  37,   14), S(  37,   10), S(   7,    3), S(  -2,    2),
        S(  -6,   -6), S(  13,    3), S(  13,   13), S(  26,   19), S(  34,    7), S(  12,   10), S(  10,   -3), S(   4,   -9),
        S(   0,  -12), S(  15,   -3), S(  15,    8), S(  15,   10), S(  14,   13), S(  27,    3), S(  18,   -7), S(  10,  -15),
        S(   4,  -14), S(  15,  -18), S(  16,   -7), S(   0,   -1), S(   7,    4), S(  21,   -9), S(  33,  -15), S(   1,  -27),
        S( -33,  -23), S(  -3,   -9), S( -14,  -23), S( -21,   -5), S( -13,   -9), S( -12,  -16), S( -39,   -5), S( -21,  -17),
    ];

    /// Rook piece-square table (PeSTO).
    PST_ROOK: [S; 64] = [
        S(  32,   13), S(  42,   10), S(  32,   18), S(  51,   15), S(  63,   12), S(   9,   12), S(  31,    8), S(  43,    5),
        S(  27,   11), S(  32,   13), S(  58,   13), S(  62,   11), S(  80,   -3), S(  67,    3), S(  26,    8), S(  44,    3),
        S(  -5,    7), S(  19,    7), S(  26,    7), S(  36,    5), S(  17,    4), S(  45,   -3), S(  61,   -5), S(  16,   -3),
        S( -24,    4), S( -11,    3), S(   7,   13), S(  26,    1), S(  24,    2), S(  35,    1), S(  -8,   -1), S( -20,    2),
        S( -36,    3), S( -26,    5), S( -12,    8), S(  -1,    4), S(   9,   -5), S(  -7,   -6), S(   6,   -8), S( -23,  -11),
        S( -45,   -4), S( -25,    0), S( -16,   -5), S( -17,   -1), S(   3,   -7), S(   0,  -12), S(  -5,   -8), S( -33,  -16),
        S( -44,   -6), S( -16,   -6), S( -20,    0), S(  -9,    2), S(  -1,   -9), S(  11,   -9), S(  -6,  -11), S( -71,   -3),
        S( -19,   -9), S( -13,    2), S(   1,    3), S(  17,   -1), S(  16,   -5), S(   7,  -13), S( -37,    4), S( -26,  -20),
    ];

    /// Queen piece-square table (PeSTO).
    PST_QUEEN: [S; 64] = [
        S( -28,   -9), S(   0,   22), S(  29,   22), S(  12,   27), S(  59,   27), S(  44,   19), S(  43,   10), S(  45,   20),
        S( -24,  -17), S( -39,   20), S(  -5,   32), S(   1,   41), S( -16,   58), S(  57,   25), S(  28,   30), S(  54,    0),
        S( -13,  -20), S( -17,    6), S(   7,    9), S(   8,   49), S(  29,   47), S(  56,   35), S(  47,   19), S(  57,    9),
        S( -27,    3), S( -27,   22), S( -16,   24), S( -16,   45), S(  -1,   57), S(  17,   40), S(  -2,   57), S(   1,   36),
        S(  -9,  -18), S( -26,   28), S(  -9,   19), S( -10,   47), S(  -2,   31), S(  -4,   34), S(   3,   39), S(  -3,   23),
        S( -14,  -16), S(   2,  -27), S( -11,   15), S(  -2,    6), S(  -5,    9), S(   2,   17), S(  14,   10), S(   5,    5),
        S( -35,  -22), S(  -8,  -23), S(  11,  -30), S(   2,  -16), S(   8,  -16), S(  15,  -23), S(  -3,  -36), S(   1,  -32),
        S(  -1,  -33), S( -18,  -28), S(  -9,  -22), S(  10,  -43), S( -15,   -5), S( -25,  -32), S( -31,  -20), S( -50,  -41),
    ];

    /// King piece-square table (PeSTO).
    PST_KING: [S; 64] = [
        S( -65,  -74), S(  23,  -35), S(  16,  -18), S( -15,  -18), S( -56,  -11), S( -34,   15), S(   2,    4), S(  13,  -17),
        S(  29,  -12), S(  -1,   17), S( -20,   14), S(  -7,   17), S(  -8,   17), S(  -4,   38), S( -38,   23), S( -29,   11),
        S(  -9,   10), S(  24,   17), S(   2,   23), S( -16,   15), S( -20,   20), S(   6,   45), S(  22,   44), S( -22,   13),
        S( -17,   -8), S( -20,   22), S( -12,   24), S( -27,   27), S( -30,   26), S( -25,   33), S( -14,   26), S( -36,    3),
        S( -49,  -18), S(  -1,   -4), S( -27,   21), S( -39,   24), S( -46,   27), S( -44,   23), S( -33,    9), S( -51,  -11),
        S( -14,  -19), S( -14,   -3), S( -22,   11), S( -46,   21), S( -44,   23), S( -30,   16), S( -15,    7), S( -27,   -9),
        S(   1,  -27), S(   7,  -11), S(  -8,    4), S( -64,   13), S( -43,   14), S( -16,    4), S(   9,   -5), S(   8,  -17),
        S( -15,  -53), S(  36,  -34), S(  12,  -21), S( -54,  -11), S(   8,  -28), S( -28,  -14), S(  24,  -24), S(  14,  -43),
    ];

    /// Knight by number of safe squares attacked (not own pieces, not enemy pawn attacks).
    MOBILITY_KNIGHT: [S; 9] = [
        S( -24,  -28), S( -10,  -12), S(  -4,   -5), S(   0,    0), S(   4,    4), S(   7,    8), S(  10,   11), S(  13,   15),
        S(  15,   18),
    ];

    /// Bishop by number of safe squares attacked.
    MOBILITY_BISHOP: [S; 14] = [
        S( -25,  -29), S( -14,  -16), S(  -9,  -11), S(  -6,   -7), S(  -3,   -3), S(   0,    0), S(   2,    3), S(   5,    5),
        S(   7,    8), S(   8,   10), S(  10,   12), S(  12,   14), S(  14,   16), S(  15,   18),
    ];

    /// Rook by number of safe squares attacked.
    MOBILITY_ROOK: [S; 15] = [
        S( -16,  -31), S(  -9,  -17), S(  -6,  -12), S(  -4,   -7), S(  -2,   -3), S(   0,    0), S(   1,    3), S(   3,    6),
        S(   4,    8), S(   5,   11), S(   6,   13), S(   8,   15), S(   9,   17), S(  10,   19), S(  11,   21),
    ];

    /// Queen by number of safe squares attacked.
    MOBILITY_QUEEN: [S; 28] = [
        S( -12,  -24), S(  -8,  -16), S(  -6,  -13), S(  -5,  -10), S(  -4,   -8), S(  -3,   -6), S(  -2,   -4), S(  -1,   -3),
        S(  -1,   -1), S(   0,    0), S(   1,    1), S(   1,    3), S(   2,    4), S(   2,    5), S(   3,    6), S(   3,    7),
        S(   4,    8), S(   4,    9), S(   5,   10), S(   5,   11), S(   6,   12), S(   6,   13), S(   7,   14), S(   7,   14),
        S(   8,   15), S(   8,   16), S(   8,   17), S(   9,   18),
    ];

    /// Per pawn with no own pawn on an adjacent file.
    PAWN_ISOLATED: S = S(-6, -10);

    /// Per pawn with an own pawn in front of it on its file.
    PAWN_DOUBLED: S = S(-8, -20);

    /// Per pawn that no own pawn can support and whose stop square an enemy pawn attacks.
    PAWN_BACKWARD: S = S(-6, -6);

    /// Per pawn defended by an own pawn, by relative rank.
    PAWN_SUPPORTED: [S; 8] = [
        S(   0,    0), S(   0,    0), S(   8,    2), S(  10,    5), S(  15,   12), S(  25,   25), S(  40,   45), S(   0,    0),
    ];

    /// Per pawn with an own pawn beside it on the same rank, by relative rank.
    PAWN_PHALANX: [S; 8] = [
        S(   0,    0), S(   3,    0), S(   6,    2), S(   9,    5), S(  16,   12), S(  30,   25), S(  50,   45), S(   0,    0),
    ];

    /// Per passed pawn, by relative rank.
    PASSED_RANK: [S; 8] = [
        S(   0,    0), S(   0,    5), S(   0,    8), S(   5,   15), S(  15,   30), S(  30,   55), S(  50,   80), S(   0,    0),
    ];

    /// Per passed pawn with no piece on the squares in front of it, by relative rank.
    PASSED_FREE_PATH: [S; 8] = [
        S(   0,    0), S(   0,    2), S(   0,    4), S(   0,    8), S(   2,   15), S(   5,   28), S(  10,   50), S(   0,    0),
    ];

    /// Per passed pawn, times its own king's distance to the promotion square, by relative rank.
    PASSED_OWN_KING_DISTANCE: [S; 8] = [
        S(   0,    0), S(   0,    0), S(   0,    0), S(   0,   -1), S(   0,   -3), S(   0,   -5), S(   0,   -6), S(   0,    0),
    ];

    /// Per passed pawn, times the enemy king's distance to the promotion square, by relative rank.
    PASSED_ENEMY_KING_DISTANCE: [S; 8] = [
        S(   0,    0), S(   0,    0), S(   0,    1), S(   0,    3), S(   0,    6), S(   0,   10), S(   0,   12), S(   0,    0),
    ];

    /// Per file around the king: nearest own pawn on or ahead of the king's rank,
    /// by rank distance from the king (0, 1, 2, 3 or more).
    SHELTER_PAWN: [S; 4] = [
        S(  10,   -5), S(  22,   -5), S(  12,   -3), S(   2,    0),
    ];

    /// Per file around the king: nearest enemy pawn ahead of the king,
    /// by rank distance from the king (1 or less, 2, 3, 4, 5 or more).
    SHELTER_STORM: [S; 5] = [
        S(  -6,    0), S( -30,   -6), S( -14,   -2), S(  -5,    0), S(   0,    0),
    ];

    /// Per file around the king with no pawns at all.
    SHELTER_OPEN_FILE: S = S(-30, 2);

    /// Per file around the king with enemy pawns but no own pawn.
    SHELTER_SEMI_OPEN_FILE: S = S(-18, 2);

    /// King-danger units per enemy knight, bishop, rook, queen attacking the king zone.
    DANGER_ATTACKER: [S; 4] = [
        S(  45,   40), S(  25,   30), S(  35,   10), S(  30,    5),
    ];

    /// King-danger units per enemy attack on a king-zone square.
    DANGER_ZONE_ATTACK: S = S(35, 25);

    /// King-danger units per attacked king-zone square defended only by the king or queen.
    DANGER_WEAK_SQUARE: S = S(40, 35);

    /// King-danger units per safe checking square of an enemy knight, bishop, rook, queen.
    DANGER_SAFE_CHECK: [S; 4] = [
        S( 110,  110), S(  60,   60), S(  90,   95), S(  90,   80),
    ];

    /// King-danger units when the attacker has no queen.
    DANGER_NO_QUEEN: S = S(-240, -250);

    /// King-danger units always added (the bias of the danger sum).
    DANGER_OFFSET: S = S(-75, -25);

    /// Per rook on a file with no pawns.
    PIECE_ROOK_OPEN_FILE: S = S(30, 8);

    /// Per rook on a file with enemy pawns but no own pawn.
    PIECE_ROOK_SEMI_OPEN_FILE: S = S(12, 6);

    /// Per rook on the relative seventh rank while the enemy king is on the eighth
    /// or enemy pawns are on the seventh.
    PIECE_ROOK_SEVENTH: S = S(8, 20);

    /// Bishops on both square colours.
    PIECE_BISHOP_PAIR: S = S(25, 50);

    /// Per knight on an outpost: relative rank 4 to 6, defended by an own pawn,
    /// out of reach of every enemy pawn.
    PIECE_KNIGHT_OUTPOST: S = S(22, 12);

    /// Per bishop on an outpost.
    PIECE_BISHOP_OUTPOST: S = S(12, 6);

    /// Per enemy knight, bishop, rook, queen attacked by an own pawn.
    THREAT_BY_PAWN: [S; 4] = [
        S(  55,   25), S(  55,   25), S(  70,   30), S(  60,   20),
    ];

    /// Per enemy pawn, knight, bishop, rook, queen attacked by an own knight or bishop
    /// (pawns and minors only when undefended).
    THREAT_BY_MINOR: [S; 5] = [
        S(   4,   18), S(  20,   25), S(  20,   25), S(  45,   20), S(  40,   40),
    ];

    /// Per enemy pawn, knight, bishop, rook, queen attacked by an own rook
    /// (all but the queen only when undefended).
    THREAT_BY_ROOK: [S; 5] = [
        S(   3,   18), S(  15,   25), S(  15,   25), S(  10,   10), S(  40,   20),
    ];

    /// Per enemy knight, bishop, rook or queen attacked and not defended.
    THREAT_HANGING: S = S(30, 15);

    /// Bonus for the side to move.
    TEMPO: S = S(20, 10);
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
