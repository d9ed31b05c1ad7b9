//! The rules of the game that are not move generation: how a game ends (checkmate,
//! stalemate, repetition, the fifty-move rule, insufficient material) and which moves are
//! quiet. The search, `datagen` and `opening` all ask here; which positions the tablebases
//! may be probed for is `tablebase.rs`'s question.

use cozy_chess::{BitBoard, Board, Color, Move, Piece};

use crate::moves::is_capture;
use crate::position::{repetition_key, Game};

/// How a game ended by the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameEnd {
    /// The side to move is mated; the other side won.
    Checkmate {
        winner: Color,
    },
    Stalemate,
    /// The same position for the third time.
    Repetition,
    FiftyMoves,
    InsufficientMaterial,
}

/// `checkmate`, `stalemate`, `threefold repetition`, `the fifty-move rule`,
/// `insufficient material`.
impl std::fmt::Display for GameEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            GameEnd::Checkmate { .. } => "checkmate",
            GameEnd::Stalemate => "stalemate",
            GameEnd::Repetition => "threefold repetition",
            GameEnd::FiftyMoves => "the fifty-move rule",
            GameEnd::InsufficientMaterial => "insufficient material",
        })
    }
}

/// Whether `mv` is neither a capture nor a promotion (castling is quiet).
#[inline(always)]
pub fn is_quiet(board: &Board, mv: Move) -> bool {
    mv.promotion.is_none() && !is_capture(board, mv)
}

/// Whether `mv` is a capture or a promotion.
#[inline(always)]
pub fn is_noisy(board: &Board, mv: Move) -> bool {
    !is_quiet(board, mv)
}

/// Neither side can mate: bare kings, a single minor piece, or bishops only, all on
/// squares of one colour (of either side: no king can be mated on a square of the other
/// colour, which they never attack), as FIDE's dead position and python-chess count it.
pub fn insufficient_material(board: &Board) -> bool {
    let heavy_or_pawns =
        board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    if !heavy_or_pawns.is_empty() {
        return false;
    }
    let knights = board.pieces(Piece::Knight);
    let bishops = board.pieces(Piece::Bishop);
    if (knights | bishops).len() <= 1 {
        return true;
    }
    knights.is_empty()
        && (bishops.is_subset(BitBoard::DARK_SQUARES) || bishops.is_subset(BitBoard::LIGHT_SQUARES))
}

/// The fifty-move rule: a hundred plies without a capture or pawn move, unless the last
/// of them gave mate.
pub fn fifty_move_draw(board: &Board) -> bool {
    board.halfmove_clock() >= 100 && (board.checkers().is_empty() || board.generate_moves(|_| true))
}

/// Repetition as the search counts it: `board` stands at the end of `path` (the
/// repetition keys of the positions before it, oldest first: `position::repetition_key`),
/// whose entries from `root_index` on lie inside the search tree. A position seen once
/// inside the tree is already a draw (the side to move can repeat it again); one from
/// before the root must have been seen twice.
pub fn repetition(board: &Board, path: &[u64], root_index: usize) -> bool {
    // `board`'s hash is its key: with an en-passant file no pawn can use it was just
    // reached by a double step, and nothing before it can repeat it.
    let key = board.hash();
    let reversible = board.halfmove_clock() as usize;
    let mut seen_before_root = 0;
    // Positions with the same side to move are 2, 4, ... plies back.
    let mut index = path.len();
    let mut back = 2;
    while back <= reversible && index >= 2 {
        index -= 2;
        if path[index] == key {
            if index >= root_index {
                return true;
            }
            seen_before_root += 1;
            if seen_before_root >= 2 {
                return true;
            }
        }
        back += 2;
    }
    false
}

/// A draw inside the search: fifty moves, insufficient material or a repetition.
pub fn search_draw(board: &Board, path: &[u64], root_index: usize) -> bool {
    fifty_move_draw(board) || insufficient_material(board) || repetition(board, path, root_index)
}

/// How `game` has ended, if it has: mate and stalemate first, then the fifty-move rule,
/// insufficient material and threefold repetition (the position for the third time).
pub fn game_end(game: &Game) -> Option<GameEnd> {
    let board = &game.board;
    if !board.generate_moves(|_| true) {
        return Some(if board.checkers().is_empty() {
            GameEnd::Stalemate
        } else {
            GameEnd::Checkmate {
                winner: !board.side_to_move(),
            }
        });
    }
    if board.halfmove_clock() >= 100 {
        return Some(GameEnd::FiftyMoves);
    }
    if insufficient_material(board) {
        return Some(GameEnd::InsufficientMaterial);
    }
    let key = repetition_key(board);
    if game.history.iter().filter(|&&h| h == key).count() >= 2 {
        return Some(GameEnd::Repetition);
    }
    None
}

/// How many of `moves`, played from `game`, a reported line keeps: up to and including
/// the first move after which the game has ended by the rules ([`game_end`]: mate,
/// stalemate, the fifty-move rule, insufficient material, or a threefold repetition
/// counting the game's earlier positions), and never past an illegal move. A principal
/// variation that went on past such a move would show a line that cannot be played.
pub fn line_until_game_end(game: &Game, moves: &[Move]) -> usize {
    let mut game = game.clone();
    for (index, &mv) in moves.iter().enumerate() {
        if !game.board.is_legal(mv) {
            return index;
        }
        game.play(mv);
        if game_end(&game).is_some() {
            return index + 1;
        }
    }
    moves.len()
}

/// The squares the opponent of the side to move attacks, layered by the cheapest kind of
/// attacker (pieces block as they stand): each layer includes the ones before it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpponentAttacks {
    /// Attacked by a pawn.
    pub pawn: BitBoard,
    /// Attacked by a pawn or a minor piece.
    pub minor: BitBoard,
    /// Attacked by a pawn, a minor piece or a rook.
    pub rook: BitBoard,
    /// Attacked by anything.
    pub all: BitBoard,
}

impl OpponentAttacks {
    pub fn of(board: &Board) -> OpponentAttacks {
        use cozy_chess::{
            get_bishop_moves, get_king_moves, get_knight_moves, get_pawn_attacks, get_rook_moves,
        };
        let them = !board.side_to_move();
        let theirs = board.colors(them);
        let occupied = board.occupied();
        let mut pawn = BitBoard::EMPTY;
        for sq in theirs & board.pieces(Piece::Pawn) {
            pawn |= get_pawn_attacks(sq, them);
        }
        let mut minor = pawn;
        for sq in theirs & board.pieces(Piece::Knight) {
            minor |= get_knight_moves(sq);
        }
        for sq in theirs & board.pieces(Piece::Bishop) {
            minor |= get_bishop_moves(sq, occupied);
        }
        let mut rook = minor;
        for sq in theirs & board.pieces(Piece::Rook) {
            rook |= get_rook_moves(sq, occupied);
        }
        let mut all = rook | get_king_moves(board.king(them));
        for sq in theirs & board.pieces(Piece::Queen) {
            all |= get_bishop_moves(sq, occupied) | get_rook_moves(sq, occupied);
        }
        OpponentAttacks {
            pawn,
            minor,
            rook,
            all,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::parse_fen;

    fn board(fen: &str) -> Board {
        parse_fen(fen, false).unwrap()
    }

    fn game(fen: &str, moves: &[&str]) -> Game {
        let mut game = Game::new(board(fen));
        for uci in moves {
            let mv = uci.parse().unwrap();
            assert!(game.board.is_legal(mv), "{uci}");
            game.play(mv);
        }
        game
    }

    #[test]
    fn insufficient_material_cases() {
        for (fen, dead) in [
            ("8/8/4k3/8/8/4K3/8/8 w - - 0 1", true),
            ("8/8/4k3/8/8/3NK3/8/8 w - - 0 1", true),
            ("8/8/4k3/8/8/3BK3/8/8 b - - 0 1", true),
            ("8/8/2b1k3/8/8/4K3/8/8 w - - 0 1", true),
            // Two minors can mate (or help mate): not dead.
            ("8/8/4k3/8/8/2NNK3/8/8 w - - 0 1", false),
            ("8/8/2b1k3/8/3B4/4K3/8/8 w - - 0 1", false),
            // Bishops all on squares of one colour cannot mate, whoever owns them.
            ("8/8/8/4k3/8/3b4/8/4K2B w - - 0 1", true),
            ("8/8/1b2k3/8/8/2B5/8/B3K3 w - - 0 1", true),
            ("3b4/8/4k3/8/8/8/8/4K2B w - - 0 1", false),
            ("8/8/8/4k3/8/3b4/8/4KN1B w - - 0 1", false),
            ("8/8/4k3/8/8/3PK3/8/8 w - - 0 1", false),
            ("8/8/4k3/8/8/3RK3/8/8 w - - 0 1", false),
            ("8/8/4k3/8/8/3QK3/8/8 w - - 0 1", false),
        ] {
            assert_eq!(insufficient_material(&board(fen)), dead, "{fen}");
            if dead {
                assert_eq!(
                    game_end(&game(fen, &[])),
                    Some(GameEnd::InsufficientMaterial)
                );
            }
        }
    }

    #[test]
    fn fifty_moves_unless_the_last_move_mates() {
        assert!(fifty_move_draw(&board("8/8/4k3/8/8/3RK3/8/8 w - - 100 80")));
        assert!(!fifty_move_draw(&board("8/8/4k3/8/8/3RK3/8/8 w - - 99 80")));
        // Black is mated on the hundredth ply: the mate stands.
        let mated = board("3k3R/8/3K4/8/8/8/8/8 b - - 100 80");
        assert!(!fifty_move_draw(&mated));
        // In check but with a way out: a draw.
        assert!(fifty_move_draw(&board("3k3R/8/8/3K4/8/8/8/8 b - - 100 80")));
        assert_eq!(
            game_end(&game("8/8/4k3/8/8/3RK3/8/8 w - - 100 80", &[])),
            Some(GameEnd::FiftyMoves)
        );
    }

    #[test]
    fn mate_and_stalemate_end_the_game() {
        assert_eq!(
            game_end(&game("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", &[])),
            Some(GameEnd::Checkmate {
                winner: Color::White
            })
        );
        assert_eq!(
            game_end(&game("7k/8/6QK/8/8/8/8/8 b - - 0 1", &[])),
            Some(GameEnd::Stalemate)
        );
        assert_eq!(game_end(&game("8/8/4k3/8/8/3RK3/8/8 w - - 0 1", &[])), None);
    }

    #[test]
    fn repetition_through_the_game_history() {
        let fen = "8/8/4k3/8/8/3RK3/8/8 w - - 0 1";
        let shuffle = ["d3d1", "e6e7", "d1d3", "e7e6"];
        // Twice: not yet over.
        assert_eq!(game_end(&game(fen, &shuffle)), None);
        let twice: Vec<&str> = shuffle.iter().chain(shuffle.iter()).copied().collect();
        assert_eq!(game_end(&game(fen, &twice)), Some(GameEnd::Repetition));
    }

    #[test]
    fn the_position_after_a_double_step_that_no_pawn_can_take_counts_for_repetitions() {
        // After 1.e4 no black pawn can take en passant, so the position after 1.e4 is the
        // one that 3.Ng1 and 5.Ng1 bring back: the third time ends the game.
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let knights = ["g8f6", "g1f3", "f6g8", "f3g1"];
        let mut moves = vec!["e2e4"];
        moves.extend(knights);
        assert_eq!(game_end(&game(start, &moves)), None);
        moves.extend(knights);
        assert_eq!(game_end(&game(start, &moves)), Some(GameEnd::Repetition));
        // Where the double step can be taken en passant, the positions differ.
        let fen = "4k3/8/8/8/5p2/8/4P3/R3K3 w - - 0 1";
        let rooks = ["e8d8", "a1a2", "d8e8", "a2a1"];
        let mut moves = vec!["e2e4"];
        moves.extend(rooks);
        moves.extend(rooks);
        assert_eq!(game_end(&game(fen, &moves)), None);
    }

    #[test]
    fn a_line_ends_at_the_move_that_ends_the_game() {
        let fen = "8/8/4k3/8/8/3RK3/8/8 w - - 0 1";
        let g = game(
            fen,
            &["d3d1", "e6e7", "d1d3", "e7e6", "d3d1", "e6e7", "d1d3"],
        );
        let line = line_of(&["e7e6", "d3d1", "e6e7"]);
        // ...Ke6 stands in the start position for the third time.
        assert_eq!(line_until_game_end(&g, &line), 1);
        // Without the history the whole line is played.
        let fresh = Game::new(g.board.clone());
        assert_eq!(line_until_game_end(&fresh, &line), 3);
        // Mate ends a line; an illegal move is never kept.
        let mate = game("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", &[]);
        assert_eq!(line_until_game_end(&mate, &line_of(&["d1d8", "g8h8"])), 1);
        assert_eq!(line_until_game_end(&mate, &line_of(&["d1d2", "g1g3"])), 1);
        // The fifty-move rule: the move that makes the hundredth quiet ply ends it.
        let clock = game("8/8/4k3/8/8/3RK3/8/8 w - - 98 80", &[]);
        assert_eq!(
            line_until_game_end(&clock, &line_of(&["d3d1", "e6e7", "d1d3"])),
            2
        );
    }

    fn line_of(moves: &[&str]) -> Vec<Move> {
        moves.iter().map(|m| m.parse().unwrap()).collect()
    }

    #[test]
    fn repetition_inside_the_search_path() {
        let fen = "8/8/4k3/8/8/3RK3/8/8 w - - 0 1";
        let g = game(fen, &["d3d1", "e6e7", "d1d3", "e7e6"]);
        // The start position has come back once. With the game's history before the
        // root, once is not enough...
        let path = g.history.clone();
        assert!(!repetition(&g.board, &path, path.len()));
        // ... but when the earlier occurrence lies inside the tree, it is.
        assert!(repetition(&g.board, &path, 0));
        // Twice before the root: a draw even at the root's children.
        let g = game(
            fen,
            &[
                "d3d1", "e6e7", "d1d3", "e7e6", "d3d1", "e6e7", "d1d3", "e7e6",
            ],
        );
        assert!(repetition(&g.board, &g.history, g.history.len()));
        assert!(search_draw(&g.board, &g.history, g.history.len()));
        // A pawn move in between makes the old positions unreachable.
        let g = game(
            "8/8/4k3/8/8/3RK3/P7/8 w - - 0 1",
            &[
                "d3d1", "e6e7", "d1d3", "e7e6", "a2a3", "e6e7", "d3d1", "e7e6",
            ],
        );
        assert!(!repetition(&g.board, &g.history, 0));
    }

    #[test]
    fn quiet_moves() {
        let b = board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        assert!(is_quiet(&b, "f1b5".parse().unwrap()));
        assert!(is_noisy(&b, "f3e5".parse().unwrap()));
        let ep = board("4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 2");
        assert!(is_noisy(&ep, "d5e6".parse().unwrap()));
        let promo = board("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
        assert!(is_noisy(&promo, "b7b8n".parse().unwrap()));
        let castle = board("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        assert!(is_quiet(&castle, "e1h1".parse().unwrap()));
    }

    #[test]
    fn threats_are_the_opponents_attacks() {
        use cozy_chess::Square;
        // Start position: Black attacks the sixth rank and nothing nearer White.
        let start = OpponentAttacks::of(&Board::default()).all;
        for square in [Square::A6, Square::E6, Square::H6, Square::F6] {
            assert!(start.has(square), "{square}");
        }
        assert!((start & cozy_chess::Rank::Fifth.bitboard()).is_empty());
        // A rook attacks up to and including the first piece in its way (here the
        // king it checks), a king its neighbours; e2 is attacked by nothing.
        let checked = OpponentAttacks::of(&board("4k3/8/8/8/8/8/4P3/r3K3 w - - 0 1")).all;
        for square in [Square::D1, Square::E1, Square::A8, Square::D7] {
            assert!(checked.has(square), "{square}");
        }
        assert!(!checked.has(Square::F1) && !checked.has(Square::E2));
    }

    #[test]
    fn opponent_attacks_are_layered_by_the_cheapest_attacker() {
        use cozy_chess::{Rank, Square};
        // Black: pawn d5, knight g6, rook a3, queen h8, king e8.
        let attacks = OpponentAttacks::of(&board("4k2q/8/6n1/3p4/8/r7/8/4K3 w - - 0 1"));
        assert_eq!(attacks.pawn, Square::C4.bitboard() | Square::E4.bitboard());
        assert!(attacks.minor.has(Square::E5) && !attacks.pawn.has(Square::E5));
        assert!(attacks.rook.has(Square::H3) && !attacks.minor.has(Square::H3));
        // The queen's and the king's squares are only in the last layer.
        assert!(attacks.all.has(Square::B2) && !attacks.rook.has(Square::B2));
        assert!(attacks.all.has(Square::H1) && !attacks.rook.has(Square::H1));
        assert!(attacks.all.has(Square::D8) && !attacks.rook.has(Square::D8));
        for (inner, outer) in [
            (attacks.pawn, attacks.minor),
            (attacks.minor, attacks.rook),
            (attacks.rook, attacks.all),
        ] {
            assert_eq!(inner & outer, inner);
        }
        assert!((attacks.all & Rank::Fourth.bitboard()).has(Square::F4));
    }
}
