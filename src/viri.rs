//! Games in the viriformat binary layout (the format of the Viridithas engine and the bullet
//! trainer), written by `cutoff datagen --format viri` and read by `cutoff train`.
//!
//! A file is a sequence of games. Each game is:
//! - a 32-byte marlinformat `PackedBoard` of the start position: occupancy (u64), then one
//!   4-bit code per occupied square in square order, entry 0 in the low nibble of byte 0
//!   (bit 3 = black, low 3 bits = pawn, knight, bishop, rook, queen, king, 6 = a rook that
//!   still has castling rights), then side to move (top bit, 1 = black) with the
//!   en-passant target square (low 7 bits, 64 = none), halfmove clock (u8), fullmove number
//!   (u16), score (i16, unused here: 0), result (u8: 0 black won, 1 draw, 2 white won) and a
//!   spare byte;
//! - one `(move u16, score i16)` pair per ply, the move as from (6 bits) | to (6) |
//!   promotion piece (2: knight, bishop, rook, queen) | kind (2: 0 normal, 1 en passant,
//!   2 castling, 3 promotion), castling written king-takes-rook, the score the search gave
//!   the position before the move, in centipawns from White's point of view;
//! - four zero bytes.
//!
//! All numbers are little-endian.

use cozy_chess::{
    BitBoard, Board, BoardBuilder, CastleRights, Color, File, Move, Piece, Rank, Square,
};

use crate::moves::{is_castling, is_en_passant};

/// The size of a packed start position.
pub const PACKED_BOARD_BYTES: usize = 32;
/// The code of a rook that still has castling rights.
const UNMOVED_ROOK: u8 = 6;
/// The en-passant byte when there is no en-passant square.
const NO_EN_PASSANT: u8 = 64;

/// The result of a game as the format stores it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    BlackWins = 0,
    Draw = 1,
    WhiteWins = 2,
}

impl GameResult {
    /// The result for White: 0.0, 0.5 or 1.0.
    pub fn white_points(self) -> f32 {
        f32::from(self as u8) / 2.0
    }

    fn from_byte(byte: u8) -> Option<GameResult> {
        match byte {
            0 => Some(GameResult::BlackWins),
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::WhiteWins),
            _ => None,
        }
    }
}

/// One game: its start, its result, and each ply's move with the score before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViriGame {
    pub start: Board,
    pub result: GameResult,
    /// The moves played, each with the search score (White's view) of the position it
    /// was played from.
    pub plies: Vec<(Move, i16)>,
}

/// Why a viriformat file could not be read. `game` and `ply` count from 0; the messages
/// count from 1, as a reader of the file does.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ViriError {
    /// The file ends inside a game.
    #[error("game {}: the data ends inside the game (byte {offset})", .game + 1)]
    Truncated { game: usize, offset: usize },
    /// The start position is not a legal chess position.
    #[error("game {}: bad start position: {why}", .game + 1)]
    BadBoard { game: usize, why: String },
    /// A result byte other than 0, 1 or 2.
    #[error("game {}: result byte {byte} is not 0, 1 or 2", .game + 1)]
    BadResult { game: usize, byte: u8 },
    /// A move that is not legal where it was played, or whose kind is wrong.
    #[error("game {}, ply {}: {why}", .game + 1, .ply + 1)]
    BadMove {
        game: usize,
        ply: usize,
        why: String,
    },
}

impl ViriGame {
    /// Appends the game to `out`.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&pack_board(&self.start, self.result));
        let mut board = self.start.clone();
        for &(mv, score) in &self.plies {
            out.extend_from_slice(&encode_move(&board, mv).to_le_bytes());
            out.extend_from_slice(&score.to_le_bytes());
            board.play_unchecked(mv);
        }
        out.extend_from_slice(&[0; 4]);
    }

    /// The positions of the game in order, each with the move played from it and its score.
    pub fn positions(&self) -> impl Iterator<Item = (Board, Move, i16)> + '_ {
        let mut board = self.start.clone();
        self.plies.iter().map(move |&(mv, score)| {
            let before = board.clone();
            board.play_unchecked(mv);
            (before, mv, score)
        })
    }
}

/// Reads every game of `bytes`, checking each move's legality.
pub fn read_games(bytes: &[u8]) -> Result<Vec<ViriGame>, ViriError> {
    let mut games = Vec::new();
    let mut reader = GameReader::new(bytes);
    while let Some(game) = reader.next_game()? {
        games.push(game);
    }
    Ok(games)
}

/// The length of the leading part of a stream that holds whole games, found from the
/// layout alone (each game's board, then 4-byte move records up to a zero one; nothing
/// decoded), and the stream's whole length: the two are equal unless the data ends
/// inside a game. Read to its end in constant memory (a file being appended to can be
/// large).
pub fn whole_games_len(stream: impl std::io::Read) -> std::io::Result<(u64, u64)> {
    let mut reader = std::io::BufReader::new(stream);
    let (mut whole, mut offset) = (0u64, 0u64);
    let mut board = [0u8; PACKED_BOARD_BYTES];
    let mut record = [0u8; 4];
    loop {
        let read = read_up_to(&mut reader, &mut board)?;
        offset += read as u64;
        if read < board.len() {
            return Ok((whole, offset));
        }
        loop {
            let read = read_up_to(&mut reader, &mut record)?;
            offset += read as u64;
            if read < record.len() {
                return Ok((whole, offset));
            }
            if record == [0, 0, 0, 0] {
                whole = offset;
                break;
            }
        }
    }
}

/// Fills `buf` from `reader` as far as the stream goes: the bytes read, fewer than
/// `buf.len()` only at its end.
fn read_up_to(reader: &mut impl std::io::Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(read) => filled += read,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(filled)
}

/// Reads games one at a time from a byte buffer.
pub struct GameReader<'a> {
    bytes: &'a [u8],
    offset: usize,
    games: usize,
}

impl<'a> GameReader<'a> {
    pub fn new(bytes: &'a [u8]) -> GameReader<'a> {
        GameReader {
            bytes,
            offset: 0,
            games: 0,
        }
    }

    /// The byte offset of the next game.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The next game, `None` at the end of the data.
    pub fn next_game(&mut self) -> Result<Option<ViriGame>, ViriError> {
        if self.offset >= self.bytes.len() {
            return Ok(None);
        }
        let game = self.games;
        let truncated = |offset| ViriError::Truncated { game, offset };
        let packed = self
            .bytes
            .get(self.offset..self.offset + PACKED_BOARD_BYTES)
            .ok_or(truncated(self.offset))?;
        let (start, result) = unpack_board(packed, game)?;
        let mut offset = self.offset + PACKED_BOARD_BYTES;
        let mut board = start.clone();
        let mut plies = Vec::new();
        loop {
            let pair = self
                .bytes
                .get(offset..offset + 4)
                .ok_or(truncated(offset))?;
            offset += 4;
            let code = u16::from_le_bytes([pair[0], pair[1]]);
            let score = i16::from_le_bytes([pair[2], pair[3]]);
            if code == 0 && score == 0 {
                break;
            }
            let mv = decode_move(&board, code).map_err(|why| ViriError::BadMove {
                game,
                ply: plies.len(),
                why,
            })?;
            board.play_unchecked(mv);
            plies.push((mv, score));
        }
        self.offset = offset;
        self.games += 1;
        Ok(Some(ViriGame {
            start,
            result,
            plies,
        }))
    }
}

/// The marlinformat packing of `board` with the game's `result`.
pub fn pack_board(board: &Board, result: GameResult) -> [u8; PACKED_BOARD_BYTES] {
    let mut packed = [0u8; PACKED_BOARD_BYTES];
    let occupied = board.occupied();
    packed[..8].copy_from_slice(&occupied.0.to_le_bytes());
    let castling_rooks = castling_rooks(board);
    for (index, square) in occupied.into_iter().enumerate() {
        let (Some(piece), Some(color)) = (board.piece_on(square), board.color_on(square)) else {
            continue;
        };
        let kind = if castling_rooks.has(square) {
            UNMOVED_ROOK
        } else {
            piece as u8
        };
        let code = kind | if color == Color::Black { 8 } else { 0 };
        packed[8 + index / 2] |= code << (4 * (index % 2));
    }
    let black = u8::from(board.side_to_move() == Color::Black) << 7;
    let en_passant = en_passant_square(board).map_or(NO_EN_PASSANT, |sq| sq as u8);
    packed[24] = black | en_passant;
    packed[25] = board.halfmove_clock();
    packed[26..28].copy_from_slice(&board.fullmove_number().to_le_bytes());
    // Bytes 28..30 (score) stay 0.
    packed[30] = result as u8;
    packed
}

/// Reads a packed board; `game` is its number, for errors.
pub fn unpack_board(packed: &[u8], game: usize) -> Result<(Board, GameResult), ViriError> {
    let bad = |why: String| ViriError::BadBoard { game, why };
    let mut occupancy = [0u8; 8];
    occupancy.copy_from_slice(&packed[..8]);
    let occupied = BitBoard(u64::from_le_bytes(occupancy));
    if occupied.len() > 32 {
        return Err(bad(format!("{} pieces", occupied.len())));
    }
    let mut builder = BoardBuilder::empty();
    let mut rooks = Vec::new();
    for (index, square) in occupied.into_iter().enumerate() {
        let code = (packed[8 + index / 2] >> (4 * (index % 2))) & 0xF;
        let color = if code & 8 != 0 {
            Color::Black
        } else {
            Color::White
        };
        let piece = match code & 7 {
            UNMOVED_ROOK => {
                rooks.push((square, color));
                Piece::Rook
            }
            7 => return Err(bad(format!("piece code {code} on {square}"))),
            kind => Piece::index(usize::from(kind)),
        };
        *builder.square_mut(square) = Some((piece, color));
    }
    for (square, color) in rooks {
        let king = (0..64)
            .map(Square::index)
            .find(|&sq| builder.square(sq) == Some((Piece::King, color)))
            .ok_or_else(|| bad(format!("castling rook on {square} without a king")))?;
        let rights = builder.castle_rights_mut(color);
        if square.file() > king.file() {
            rights.short = Some(square.file());
        } else {
            rights.long = Some(square.file());
        }
    }
    builder.side_to_move = if packed[24] & 0x80 != 0 {
        Color::Black
    } else {
        Color::White
    };
    let en_passant = packed[24] & 0x7F;
    builder.en_passant = match en_passant {
        NO_EN_PASSANT => None,
        sq if sq < 64 => Some(Square::index(usize::from(sq))),
        other => return Err(bad(format!("en-passant byte {other}"))),
    };
    builder.halfmove_clock = packed[25].min(100);
    builder.fullmove_number = u16::from_le_bytes([packed[26], packed[27]]).max(1);
    let result = GameResult::from_byte(packed[30]).ok_or(ViriError::BadResult {
        game,
        byte: packed[30],
    })?;
    let board = builder.build().map_err(|e| bad(e.to_string()))?;
    // What the builder leaves unchecked and a game could not reach (kings side by side,
    // an impossible check), on which a move could take a king: the FEN's checks.
    crate::position::parse_fen(&board.to_string(), true).map_err(|e| bad(e.to_string()))?;
    Ok((board, result))
}

/// The move code of `mv`, a legal move of `board`.
pub fn encode_move(board: &Board, mv: Move) -> u16 {
    let kind: u16 = if mv.promotion.is_some() {
        3
    } else if is_castling(board, mv) {
        2
    } else if is_en_passant(board, mv) {
        1
    } else {
        0
    };
    let promotion = match mv.promotion {
        Some(Piece::Bishop) => 1,
        Some(Piece::Rook) => 2,
        Some(Piece::Queen) => 3,
        _ => 0,
    };
    mv.from as u16 | (mv.to as u16) << 6 | promotion << 12 | kind << 14
}

/// The legal move of `board` that `code` describes, with its kind checked.
pub fn decode_move(board: &Board, code: u16) -> Result<Move, String> {
    let from = Square::index(usize::from(code & 63));
    let to = Square::index(usize::from((code >> 6) & 63));
    let kind = code >> 14;
    let promotion = (kind == 3).then(|| {
        [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen][usize::from((code >> 12) & 3)]
    });
    let mv = Move {
        from,
        to,
        promotion,
    };
    if !board.is_legal(mv) {
        return Err(format!("{mv} is illegal in {board}"));
    }
    if encode_move(board, mv) != code {
        return Err(format!("{mv} has the wrong kind {kind}"));
    }
    Ok(mv)
}

/// The square a pawn lands on when capturing en passant, if the board allows it.
fn en_passant_square(board: &Board) -> Option<Square> {
    let rank = Rank::Sixth.relative_to(board.side_to_move());
    board.en_passant().map(|file: File| Square::new(file, rank))
}

/// The squares of the rooks that still have castling rights.
fn castling_rooks(board: &Board) -> BitBoard {
    let mut rooks = BitBoard::EMPTY;
    for color in Color::ALL {
        let CastleRights { short, long } = *board.castle_rights(color);
        let rank = Rank::First.relative_to(color);
        for file in [short, long].into_iter().flatten() {
            rooks |= Square::new(file, rank).bitboard();
        }
    }
    rooks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{legal_moves, parse_fen};
    use crate::rng::SplitMix64;

    /// Random legal games from `fen`, scores drawn at random.
    fn random_game(fen: &str, chess960: bool, rng: &mut SplitMix64) -> ViriGame {
        let start = parse_fen(fen, chess960).unwrap();
        let mut board = start.clone();
        let mut plies = Vec::new();
        for _ in 0..200 {
            let moves = legal_moves(&board);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            let score = (rng.below(4001) as i32 - 2000) as i16;
            plies.push((mv, if score == 0 { 1 } else { score }));
            board.play_unchecked(mv);
        }
        let result = [
            GameResult::BlackWins,
            GameResult::Draw,
            GameResult::WhiteWins,
        ][rng.below(3)];
        ViriGame {
            start,
            result,
            plies,
        }
    }

    /// Cut anywhere, a file of whole games keeps exactly the games that end before the
    /// cut, by layout alone as by the full reader.
    #[test]
    fn whole_games_len_finds_the_last_whole_game() {
        let mut rng = SplitMix64::new(7);
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let mut bytes = Vec::new();
        let mut ends = vec![0];
        for _ in 0..3 {
            random_game(start, false, &mut rng).write_to(&mut bytes);
            ends.push(bytes.len());
        }
        for cut in 0..=bytes.len() {
            let expected = *ends.iter().rev().find(|&&end| end <= cut).unwrap();
            let (whole, len) = whole_games_len(&bytes[..cut]).unwrap();
            assert_eq!((whole, len), (expected as u64, cut as u64), "cut at {cut}");
        }
    }

    #[test]
    fn many_random_games_round_trip() {
        let starts = [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                false,
            ),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                false,
            ),
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                false,
            ),
            // Chess960 starts: rooks next to the king, king on b and g files.
            (
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                true,
            ),
            (
                "1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9",
                true,
            ),
            (
                "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
                true,
            ),
        ];
        let mut rng = SplitMix64::new(42);
        let mut games = Vec::new();
        for round in 0..100 {
            let (fen, chess960) = starts[round % starts.len()];
            games.push(random_game(fen, chess960, &mut rng));
        }
        let mut bytes = Vec::new();
        for game in &games {
            game.write_to(&mut bytes);
        }
        let read = read_games(&bytes).unwrap();
        assert_eq!(read, games);
        let kinds: Vec<u16> = games
            .iter()
            .flat_map(|g| {
                let mut board = g.start.clone();
                g.plies.iter().map(move |&(mv, _)| {
                    let code = encode_move(&board, mv) >> 14;
                    board.play_unchecked(mv);
                    code
                })
            })
            .collect();
        for kind in 0..4 {
            assert!(kinds.contains(&kind), "no move of kind {kind} was tested");
        }
    }

    #[test]
    fn start_position_packs_as_the_format_describes() {
        let packed = pack_board(&Board::default(), GameResult::Draw);
        assert_eq!(
            u64::from_le_bytes(packed[..8].try_into().unwrap()),
            0xFFFF_0000_0000_FFFF
        );
        // a1 is an unmoved rook (6) in the low nibble, b1 a knight (1) in the high one.
        assert_eq!(packed[8], 0x16);
        // a7 and b7 (entries 16, 17): black pawns; a8 (entry 24): an unmoved black rook 0xE,
        // b8 a black knight 0x9.
        assert_eq!(packed[16], 0x88);
        assert_eq!(packed[20], 0x9E);
        assert_eq!(packed[24], NO_EN_PASSANT);
        assert_eq!(packed[30], 1);
        let (board, result) = unpack_board(&packed, 0).unwrap();
        assert_eq!((board, result), (Board::default(), GameResult::Draw));
    }

    #[test]
    fn damaged_data_is_refused() {
        let mut rng = SplitMix64::new(7);
        let game = random_game(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            false,
            &mut rng,
        );
        let mut bytes = Vec::new();
        game.write_to(&mut bytes);
        assert!(matches!(
            read_games(&bytes[..bytes.len() - 2]),
            Err(ViriError::Truncated { .. })
        ));
        let mut bad_result = bytes.clone();
        bad_result[30] = 3;
        assert!(matches!(
            read_games(&bad_result),
            Err(ViriError::BadResult { byte: 3, .. })
        ));
        let mut bad_move = bytes.clone();
        // The first move becomes a1a1.
        bad_move[32] = 0;
        bad_move[33] = 0;
        bad_move[34] = 5;
        assert!(matches!(
            read_games(&bad_move),
            Err(ViriError::BadMove { ply: 0, .. })
        ));
    }

    /// A start position no game reaches, which the board builder accepts: the kings side
    /// by side (White's king could take Black's).
    #[test]
    fn an_impossible_start_position_is_refused() {
        let board_of = |pieces: &[(Square, Piece, Color)], side: Color| {
            let mut builder = cozy_chess::BoardBuilder::empty();
            for &(square, piece, color) in pieces {
                *builder.square_mut(square) = Some((piece, color));
            }
            builder.side_to_move = side;
            builder.build().unwrap()
        };
        let touching = board_of(
            &[
                (Square::A1, Piece::Rook, Color::White),
                (Square::E1, Piece::King, Color::White),
                (Square::E2, Piece::King, Color::Black),
            ],
            Color::White,
        );
        let packed = pack_board(&touching, GameResult::Draw);
        let refused = unpack_board(&packed, 4);
        assert!(
            matches!(&refused, Err(ViriError::BadBoard { game: 4, why }) if why.contains("next to each other")),
            "{refused:?}"
        );
        let legal = board_of(
            &[
                (Square::A1, Piece::Rook, Color::White),
                (Square::E1, Piece::King, Color::White),
                (Square::E3, Piece::King, Color::Black),
            ],
            Color::White,
        );
        let unpacked = unpack_board(&pack_board(&legal, GameResult::Draw), 0);
        assert!(
            matches!(&unpacked, Ok((board, _)) if board == &legal),
            "{unpacked:?}"
        );
    }
}
