//! Positions as the GUI gives them: FEN validation with clear errors, X-FEN and
//! Shredder-FEN castling, moves in UCI notation for standard chess and Chess960, and the
//! game history the search needs for draw detection.

use cozy_chess::{Board, Color, File, Move, Piece, Rank, Square};
use protocol::{quote, PositionStart, Promotion, UciMove};

use crate::moves::is_castling;

/// Why a `position` command was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("invalid FEN: expected 4 to 6 fields, found {0}")]
    FieldCount(usize),
    #[error("invalid FEN piece placement: {0}")]
    Placement(String),
    #[error("invalid FEN: {color} has {count} kings, expected exactly one")]
    KingCount { color: &'static str, count: usize },
    #[error("invalid FEN: pawn on {0}, on the first or last rank")]
    PawnOnBackRank(String),
    #[error("invalid FEN: {0} has too many pieces")]
    TooManyPieces(&'static str),
    /// More pieces beyond a side's first set (queens beyond one, rooks, bishops or
    /// knights beyond two) than pawns it lacks: no promotions reach that.
    #[error(
        "invalid FEN: {color} has more promoted pieces than missing pawns ({promoted} beyond \
         one queen and two rooks, bishops and knights; {missing} pawns missing)"
    )]
    TooManyPromoted {
        color: &'static str,
        promoted: usize,
        missing: usize,
    },
    /// The two kings stand on neighbouring squares (white's first): each would attack
    /// the other, which no legal game reaches.
    #[error("invalid FEN: the kings on {white} and {black} stand next to each other")]
    KingsTouching { white: String, black: String },
    #[error("invalid FEN: side to move {} is not 'w' or 'b'", quote(.0))]
    SideToMove(String),
    #[error("invalid FEN: the side not to move is in check, or the side to move is in an impossible check")]
    ImpossibleCheck,
    #[error("invalid FEN castling rights: {0}")]
    Castling(String),
    #[error("invalid FEN en-passant square: {0}")]
    EnPassant(String),
    #[error("invalid FEN halfmove clock {}", quote(.0))]
    HalfmoveClock(String),
    #[error("invalid FEN fullmove number {}", quote(.0))]
    FullmoveNumber(String),
    #[error("move {index} ({token}) is illegal in that position")]
    IllegalMove { index: usize, token: String },
}

/// Parses and validates a FEN (4 to 6 fields). In Chess960 mode castling rights may be
/// given as X-FEN (`KQkq`, outermost rook; or a file letter) or Shredder-FEN (`HAha`);
/// in standard mode they must describe rooks on their original corners.
pub fn parse_fen(fen: &str, chess960: bool) -> Result<Board, PositionError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if !(4..=6).contains(&fields.len()) {
        return Err(PositionError::FieldCount(fields.len()));
    }
    let squares = parse_placement(fields[0])?;
    check_material(&squares)?;
    let side = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(PositionError::SideToMove(other.to_string())),
    };
    let castling = shredder_castling(&squares, fields[2], chess960)?;
    let en_passant = fields[3];
    if en_passant != "-" && en_passant.parse::<Square>().is_err() {
        return Err(PositionError::EnPassant(format!(
            "{} is not a square",
            quote(en_passant)
        )));
    }
    let halfmove: u32 = match fields.get(4) {
        Some(tok) => digits(tok)
            .and_then(|t| t.parse().ok())
            .ok_or_else(|| PositionError::HalfmoveClock(tok.to_string()))?,
        None => 0,
    };
    // Fullmove 0, which some tools write for a set-up position, is read as 1 (as
    // Stockfish and python-chess read it): it says nothing else.
    let fullmove: u32 = match fields.get(5) {
        Some(tok) => match digits(tok).and_then(|t| t.parse::<u16>().ok()) {
            Some(n) => u32::from(n.max(1)),
            None => return Err(PositionError::FullmoveNumber(tok.to_string())),
        },
        None => 1,
    };
    // The fifty-move rule only needs to know that 100 plies have passed.
    let halfmove = halfmove.min(100);

    // Validate the pieces without castling or en passant first, so that each error is
    // attributed to the right field.
    let bare = format!("{} {} - - 0 1", fields[0], fields[1]);
    Board::from_fen(&bare, true).map_err(|_| PositionError::ImpossibleCheck)?;
    let with_castling = format!("{} {} {} - 0 1", fields[0], fields[1], castling);
    Board::from_fen(&with_castling, true).map_err(|_| {
        PositionError::Castling(format!(
            "{} does not match the king and rooks on the board",
            quote(fields[2])
        ))
    })?;
    let full = format!(
        "{} {} {} {} {} {}",
        fields[0], fields[1], castling, en_passant, halfmove, fullmove
    );
    let board = Board::from_fen(&full, true)
        .map_err(|_| PositionError::EnPassant(en_passant_problem(&squares, side, en_passant)))?;
    debug_assert_eq!(board.side_to_move(), side);
    Ok(board)
}

/// [`parse_fen`] for the `position` command: castling rights the board cannot have (a
/// right whose king or rook is not in place, a letter that is no right) are dropped, as
/// Stockfish and python-chess read such a FEN, rather than refusing a board that is
/// otherwise sound (the engine would then search the previous position). Returns the
/// board and, when rights were dropped, what was wrong and what was kept.
pub fn parse_fen_dropping_castling(
    fen: &str,
    chess960: bool,
) -> Result<(Board, Option<String>), PositionError> {
    let error = match parse_fen(fen, chess960) {
        Ok(board) => return Ok((board, None)),
        Err(error @ PositionError::Castling(_)) => error,
        Err(error) => return Err(error),
    };
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let with_rights = |rights: &str| {
        let mut fields = fields.clone();
        fields[2] = if rights.is_empty() { "-" } else { rights };
        fields.join(" ")
    };
    // Each right in turn, kept when the board can have it beside those kept before.
    let mut kept = String::new();
    for right in fields[2].chars() {
        let candidate = format!("{kept}{right}");
        if parse_fen(&with_rights(&candidate), chess960).is_ok() {
            kept = candidate;
        }
    }
    let board = parse_fen(&with_rights(&kept), chess960)?;
    let shown = if kept.is_empty() { "-" } else { &kept };
    Ok((
        board,
        Some(format!("{error}; castling rights kept: {shown}")),
    ))
}

type Squares = [Option<(Piece, Color)>; 64];

/// `text` when it is all ASCII digits (a FEN counter: no sign, as `str::parse` allows).
fn digits(text: &str) -> Option<&str> {
    (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())).then_some(text)
}

/// Why an en-passant square that parses is still impossible.
fn en_passant_problem(squares: &Squares, side: Color, text: &str) -> String {
    let Ok(square) = text.parse::<Square>() else {
        return format!("{} is not a square", quote(text));
    };
    let (behind, landed, origin) = match side {
        Color::White => (5, 4, 6),
        Color::Black => (2, 3, 1),
    };
    let file = square.file() as usize;
    let mover = !side;
    let pushed = squares[landed * 8 + file] == Some((Piece::Pawn, mover))
        && squares[behind * 8 + file].is_none()
        && squares[origin * 8 + file].is_none();
    if square.rank() as usize == behind && pushed {
        format!(
            "{} is impossible: no double pawn push could have left the side to move \
             in the check it is in",
            quote(text)
        )
    } else {
        format!(
            "{} is not just behind a pawn of the side that moved last",
            quote(text)
        )
    }
}

fn parse_placement(text: &str) -> Result<Squares, PositionError> {
    let mut squares: Squares = [None; 64];
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(PositionError::Placement(format!(
            "{} ranks instead of 8",
            ranks.len()
        )));
    }
    for (i, row) in ranks.iter().enumerate() {
        let rank = 7 - i;
        let mut file = 0usize;
        let mut after_digit = false;
        for c in row.chars() {
            if let Some(skip) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                // `44` for `8` is no FEN (python-chess refuses it too): one digit per run.
                if after_digit {
                    return Err(PositionError::Placement(format!(
                        "rank {} has two digits in a row",
                        rank + 1
                    )));
                }
                after_digit = true;
                file += skip as usize;
            } else {
                after_digit = false;
                let piece = piece_from_letter(c).ok_or_else(|| {
                    PositionError::Placement(format!("unexpected character '{c}'"))
                })?;
                if file >= 8 {
                    return Err(too_long(rank));
                }
                squares[rank * 8 + file] = Some(piece);
                file += 1;
            }
            if file > 8 {
                return Err(too_long(rank));
            }
        }
        if file != 8 {
            return Err(PositionError::Placement(format!(
                "rank {} does not describe exactly 8 squares",
                rank + 1
            )));
        }
    }
    Ok(squares)
}

fn too_long(rank: usize) -> PositionError {
    PositionError::Placement(format!("rank {} describes more than 8 squares", rank + 1))
}

fn piece_from_letter(c: char) -> Option<(Piece, Color)> {
    let color = if c.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    let piece = match c.to_ascii_lowercase() {
        'p' => Piece::Pawn,
        'n' => Piece::Knight,
        'b' => Piece::Bishop,
        'r' => Piece::Rook,
        'q' => Piece::Queen,
        'k' => Piece::King,
        _ => return None,
    };
    Some((piece, color))
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn check_material(squares: &Squares) -> Result<(), PositionError> {
    for color in Color::ALL {
        let count = |piece| {
            squares
                .iter()
                .filter(|s| **s == Some((piece, color)))
                .count()
        };
        let kings = count(Piece::King);
        if kings != 1 {
            return Err(PositionError::KingCount {
                color: color_name(color),
                count: kings,
            });
        }
        let pieces = squares
            .iter()
            .filter(|s| matches!(s, Some((_, c)) if *c == color))
            .count();
        if pieces > 16 || count(Piece::Pawn) > 8 {
            return Err(PositionError::TooManyPieces(color_name(color)));
        }
        // This also bounds the legal moves (at most 218 with such material), which the
        // search's move lists rely on.
        let promoted = count(Piece::Queen).saturating_sub(1)
            + count(Piece::Rook).saturating_sub(2)
            + count(Piece::Bishop).saturating_sub(2)
            + count(Piece::Knight).saturating_sub(2);
        let missing = 8 - count(Piece::Pawn);
        if promoted > missing {
            return Err(PositionError::TooManyPromoted {
                color: color_name(color),
                promoted,
                missing,
            });
        }
    }
    // A king never attacks the other king: whichever side is to move, such a position
    // cannot arise, and the side to move could take the other king.
    let king = |color| {
        squares
            .iter()
            .position(|s| *s == Some((Piece::King, color)))
    };
    if let (Some(white), Some(black)) = (king(Color::White), king(Color::Black)) {
        if (white % 8).abs_diff(black % 8) <= 1 && (white / 8).abs_diff(black / 8) <= 1 {
            return Err(PositionError::KingsTouching {
                white: Square::index(white).to_string(),
                black: Square::index(black).to_string(),
            });
        }
    }
    for (index, square) in squares.iter().enumerate() {
        if matches!(square, Some((Piece::Pawn, _))) && !(8..56).contains(&index) {
            return Err(PositionError::PawnOnBackRank(
                Square::index(index).to_string(),
            ));
        }
    }
    Ok(())
}

/// Rewrites a castling field (X-FEN or Shredder-FEN) as Shredder-FEN file letters.
fn shredder_castling(
    squares: &Squares,
    field: &str,
    chess960: bool,
) -> Result<String, PositionError> {
    if field == "-" {
        return Ok(field.to_string());
    }
    let mut out = String::new();
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rank = if color == Color::White { 0 } else { 7 };
        let back_rank = &squares[rank * 8..rank * 8 + 8];
        let king_file = back_rank
            .iter()
            .position(|s| *s == Some((Piece::King, color)))
            .ok_or_else(|| {
                PositionError::Castling(format!(
                    "'{c}' but the {} king is not on its back rank",
                    color_name(color)
                ))
            })?;
        let is_rook = |file: usize| back_rank[file] == Some((Piece::Rook, color));
        let rook_file = match c.to_ascii_lowercase() {
            'k' => (king_file + 1..8).rev().find(|&f| is_rook(f)),
            'q' => (0..king_file).find(|&f| is_rook(f)),
            letter @ 'a'..='h' => Some(letter as usize - 'a' as usize).filter(|&f| is_rook(f)),
            _ => {
                return Err(PositionError::Castling(format!(
                    "unexpected character '{c}'"
                )))
            }
        }
        .ok_or_else(|| {
            PositionError::Castling(format!("'{c}' names no {} rook", color_name(color)))
        })?;
        if !chess960 && (king_file != 4 || (rook_file != 0 && rook_file != 7)) {
            return Err(PositionError::Castling(format!(
                "'{c}' needs Chess960 castling; set UCI_Chess960 to true"
            )));
        }
        let letter = (b'a' + rook_file as u8) as char;
        out.push(if color == Color::White {
            letter.to_ascii_uppercase()
        } else {
            letter
        });
    }
    Ok(out)
}

/// The FEN of `board` with X-FEN castling: `K`/`Q` (`k`/`q`) for the outermost rook on
/// its side of the king, as in standard chess, and the rook's file letter otherwise (a
/// Chess960 position with another rook further out). Standard positions get plain FEN,
/// which every GUI reads; `parse_fen` reads it back with Chess960 on. The en-passant
/// square is written only when a capture en passant is legal, so that the same position
/// always has the same FEN.
pub fn to_fen(board: &Board) -> String {
    let text = board.to_string();
    let fields: Vec<&str> = text.split(' ').collect();
    let mut castling = String::new();
    for color in [Color::White, Color::Black] {
        let rights = board.castle_rights(color);
        let rank = Rank::First.relative_to(color);
        let rooks = board.colored_pieces(color, Piece::Rook) & rank.bitboard();
        let rook_files = || rooks.into_iter().map(Square::file);
        let sides = [
            (
                rights.short,
                'k',
                rights.short.filter(|&f| rook_files().any(|r| r > f)),
            ),
            (
                rights.long,
                'q',
                rights.long.filter(|&f| rook_files().any(|r| r < f)),
            ),
        ];
        for (right, letter, hidden_by_outer_rook) in sides {
            let Some(file) = right else { continue };
            let letter = match hidden_by_outer_rook {
                Some(_) => char::from(file).to_ascii_lowercase(),
                None => letter,
            };
            castling.push(match color {
                Color::White => letter.to_ascii_uppercase(),
                Color::Black => letter,
            });
        }
    }
    if castling.is_empty() {
        castling.push('-');
    }
    let en_passant_legal = board.en_passant().is_some_and(|file| {
        let square = Square::new(file, Rank::Sixth.relative_to(board.side_to_move()));
        legal_moves(board)
            .iter()
            .any(|mv| mv.to == square && board.piece_on(mv.from) == Some(Piece::Pawn))
    });
    let en_passant = if en_passant_legal { fields[3] } else { "-" };
    format!(
        "{} {} {castling} {en_passant} {} {}",
        fields[0], fields[1], fields[4], fields[5]
    )
}

/// Every legal move of `board`, castling written as king-takes-rook.
pub fn legal_moves(board: &Board) -> Vec<Move> {
    let mut moves = Vec::with_capacity(64);
    board.generate_moves(|piece_moves| {
        moves.extend(piece_moves);
        false
    });
    moves
}

/// The UCI text of `mv`, a legal move in `board`: castling is `e1g1` in standard chess
/// and king-takes-rook in Chess960.
pub fn to_uci(board: &Board, mv: Move, chess960: bool) -> UciMove {
    let mut to = mv.to;
    if !chess960 && is_castling(board, mv) {
        let file = if mv.to.file() > mv.from.file() {
            File::G
        } else {
            File::C
        };
        to = Square::new(file, mv.from.rank());
    }
    let square = |s: Square| {
        protocol::Square::new(s.file() as u8, s.rank() as u8).unwrap_or_else(|| unreachable!())
    };
    UciMove::Normal {
        from: square(mv.from),
        to: square(to),
        promotion: mv.promotion.map(|p| match p {
            Piece::Knight => Promotion::Knight,
            Piece::Bishop => Promotion::Bishop,
            Piece::Rook => Promotion::Rook,
            _ => Promotion::Queen,
        }),
    }
}

/// Finds the legal move of `board` that `uci` denotes, if any. In standard chess both
/// `e1g1` and king-takes-rook `e1h1` are accepted for castling.
pub fn from_uci(board: &Board, uci: UciMove, chess960: bool) -> Option<Move> {
    legal_moves(board).into_iter().find(|&mv| {
        to_uci(board, mv, chess960) == uci || (!chess960 && to_uci(board, mv, true) == uci)
    })
}

/// The key under which `board` counts for repetitions: its hash, with the en-passant
/// file only when an en-passant capture is legal. By the rules two positions are the same
/// when the same moves are possible, so the position right after a double pawn step that
/// no pawn can take equals the same position reached later (cozy-chess's `hash` keeps the
/// file after every double step). The game's history and the search's repetition path
/// both use this key.
pub fn repetition_key(board: &Board) -> u64 {
    let Some(file) = board.en_passant() else {
        return board.hash();
    };
    let us = board.side_to_move();
    let target = Square::new(file, cozy_chess::Rank::Sixth.relative_to(us));
    let capturable = cozy_chess::get_pawn_attacks(target, !us)
        .iter()
        .any(|from| {
            board.is_legal(Move {
                from,
                to: target,
                promotion: None,
            })
        });
    if capturable {
        board.hash()
    } else {
        board.hash_without_ep()
    }
}

/// The position the search starts from and the positions that led to it.
#[derive(Clone, Debug, Default)]
pub struct Game {
    pub board: Board,
    /// Hashes of the earlier positions of the game, oldest first (for repetitions).
    pub history: Vec<u64>,
}

impl Game {
    /// A game starting at `board`, with no earlier positions.
    pub fn new(board: Board) -> Game {
        Game {
            board,
            history: Vec::new(),
        }
    }

    /// Builds the game of a `position` command; fails without side effects on any error
    /// but castling rights the board cannot have, which are dropped
    /// ([`parse_fen_dropping_castling`]) and described in the note returned.
    pub fn from_command(
        start: &PositionStart,
        moves: &[UciMove],
        chess960: bool,
    ) -> Result<(Game, Option<String>), PositionError> {
        let (board, note) = match start {
            PositionStart::StartPos => (Board::default(), None),
            PositionStart::Fen(fen) => parse_fen_dropping_castling(fen, chess960)?,
        };
        let mut game = Game {
            board,
            history: Vec::with_capacity(moves.len()),
        };
        for (index, &uci) in moves.iter().enumerate() {
            let mv =
                from_uci(&game.board, uci, chess960).ok_or_else(|| PositionError::IllegalMove {
                    index: index + 1,
                    token: uci.to_string(),
                })?;
            game.play(mv);
        }
        Ok((game, note))
    }

    /// Plays a legal move, remembering the position it leaves (by its [`repetition_key`]).
    pub fn play(&mut self, mv: Move) {
        self.history.push(repetition_key(&self.board));
        self.board.play_unchecked(mv);
        if self.board.halfmove_clock() == 0 {
            self.history.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fullmove_zero_reads_as_one() {
        let zero = parse_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 0", false).unwrap();
        let one = parse_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1", false).unwrap();
        assert_eq!(zero, one);
        assert_eq!(zero.fullmove_number(), 1);
    }

    #[test]
    fn fens_write_x_fen_castling() {
        let start = Board::default();
        assert_eq!(to_fen(&start), start.to_string());
        // The e1 rook castles short with the h1 rook further out: its file letter.
        let board = parse_fen("rk2r3/8/8/8/8/8/8/RK2R2R w EAea - 0 1", true).unwrap();
        let fen = to_fen(&board);
        assert_eq!(fen, "rk2r3/8/8/8/8/8/8/RK2R2R w EQkq - 0 1");
        assert_eq!(parse_fen(&fen, true).unwrap(), board);
        let none = parse_fen("4k3/8/8/8/8/8/8/4K3 w - - 3 9", false).unwrap();
        assert_eq!(to_fen(&none), "4k3/8/8/8/8/8/8/4K3 w - - 3 9");
        // En passant only when a pawn can take.
        let mut game = Game::new(Board::default());
        game.play("e2e4".parse().unwrap());
        assert!(to_fen(&game.board).contains(" b KQkq - 0 1"));
        let ep = parse_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", false).unwrap();
        assert!(to_fen(&ep).contains(" b - e3 0 1"), "{}", to_fen(&ep));
    }
    use crate::perft::perft;
    use crate::rng::SplitMix64;

    /// Whether some legal move of `board` lands on a king (which no legal move may).
    fn captures_a_king(board: &Board) -> Option<Move> {
        let kings = board.pieces(Piece::King);
        legal_moves(board).into_iter().find(|mv| kings.has(mv.to))
    }

    /// A random placement: the two kings anywhere (often side by side), up to ten other
    /// pieces (no pawns on the back ranks, so that other checks do not hide this one),
    /// either side to move.
    fn random_fen(rng: &mut SplitMix64) -> String {
        let mut squares: Squares = [None; 64];
        let white_king = rng.below(64);
        squares[white_king] = Some((Piece::King, Color::White));
        // Half the time the black king is put next to the white one.
        let black_king = if rng.below(2) == 0 {
            let (file, rank) = ((white_king % 8) as i32, (white_king / 8) as i32);
            let (df, dr) = (rng.below(3) as i32 - 1, rng.below(3) as i32 - 1);
            let (f, r) = ((file + df).clamp(0, 7), (rank + dr).clamp(0, 7));
            (r * 8 + f) as usize
        } else {
            rng.below(64)
        };
        if black_king == white_king {
            return random_fen(rng);
        }
        squares[black_king] = Some((Piece::King, Color::Black));
        let others = [
            Piece::Pawn,
            Piece::Knight,
            Piece::Bishop,
            Piece::Rook,
            Piece::Queen,
        ];
        for _ in 0..rng.below(11) {
            let square = rng.below(64);
            let piece = others[rng.below(others.len())];
            if squares[square].is_some() || (piece == Piece::Pawn && !(8..56).contains(&square)) {
                continue;
            }
            let color = if rng.below(2) == 0 {
                Color::White
            } else {
                Color::Black
            };
            squares[square] = Some((piece, color));
        }
        let mut placement = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match squares[rank * 8 + file] {
                    None => empty += 1,
                    Some((piece, color)) => {
                        if empty > 0 {
                            placement.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let letter: char = piece.into();
                        placement.push(match color {
                            Color::White => letter.to_ascii_uppercase(),
                            Color::Black => letter,
                        });
                    }
                }
            }
            if empty > 0 {
                placement.push_str(&empty.to_string());
            }
            if rank > 0 {
                placement.push('/');
            }
        }
        let side = if rng.below(2) == 0 { "w" } else { "b" };
        format!("{placement} {side} - - 0 1")
    }

    /// Whenever a random FEN is accepted, no legal move captures a king, neither at the
    /// root nor after any reply, and perft 2 counts the replies of every legal move.
    /// Whether the kings of `fen`'s placement stand on neighbouring squares.
    fn kings_touch(fen: &str) -> bool {
        let squares = parse_placement(fen.split(' ').next().unwrap_or(""));
        squares.is_ok_and(|squares| {
            let king = |color| {
                squares
                    .iter()
                    .position(|s| *s == Some((Piece::King, color)))
            };
            match (king(Color::White), king(Color::Black)) {
                (Some(w), Some(b)) => (w % 8).abs_diff(b % 8) <= 1 && (w / 8).abs_diff(b / 8) <= 1,
                _ => false,
            }
        })
    }

    #[test]
    fn accepted_random_placements_never_let_a_king_be_captured() {
        let mut rng = SplitMix64::new(0x6b69_6e67_7321);
        let (mut accepted, mut touching_rejected) = (0, 0);
        for _ in 0..20_000 {
            let fen = random_fen(&mut rng);
            let Ok(board) = parse_fen(&fen, false) else {
                touching_rejected += usize::from(kings_touch(&fen));
                continue;
            };
            accepted += 1;
            if let Some(mv) = captures_a_king(&board) {
                panic!("{fen} was accepted, but {mv} captures a king");
            }
            let mut leaves = 0;
            for mv in legal_moves(&board) {
                let mut child = board.clone();
                child.play_unchecked(mv);
                if let Some(reply) = captures_a_king(&child) {
                    panic!("{fen} was accepted, but {mv} {reply} captures a king");
                }
                leaves += legal_moves(&child).len() as u64;
            }
            assert_eq!(perft(&board, 2), leaves, "{fen}");
        }
        assert!(accepted > 2_000, "only {accepted} placements accepted");
        assert!(touching_rejected > 1_000, "{touching_rejected}");
    }

    #[test]
    fn kings_side_by_side_are_refused_and_double_check_accepted() {
        for fen in [
            "Kk6/8/8/8/8/8/8/8 w - - 0 1",
            "8/8/8/3k4/4K3/8/8/8 b - - 0 1",
            "8/8/8/8/8/8/6k1/7K w - - 0 1",
        ] {
            let error = parse_fen(fen, false).expect_err(fen);
            assert!(
                matches!(error, PositionError::KingsTouching { .. }),
                "{fen}: {error}"
            );
            assert!(error.to_string().contains("king"), "{error}");
        }
        let error = parse_fen("Kk6/8/8/8/8/8/8/8 w - - 0 1", false).unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid FEN: the kings on a8 and b8 stand next to each other"
        );
        // Double check by two bishops: legal, a move-generator test of the perft suites.
        assert!(parse_fen("B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1", false).is_ok());
        assert!(parse_fen("8/8/8/8/2k5/8/2K5/8 w - - 0 1", false).is_ok());
    }
}
