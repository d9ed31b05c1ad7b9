//! The `d` command: the board as text, its FEN, hash key, checkers and legal moves.

use std::fmt::Write;

use cozy_chess::{Board, Color, File, Piece, Rank, Square};

use crate::position::{legal_moves, to_uci};

/// Renders the board from White's side, Stockfish style.
pub fn board(board: &Board, chess960: bool) -> String {
    let mut text = String::from("\n +---+---+---+---+---+---+---+---+\n");
    for rank in Rank::ALL.iter().rev() {
        for file in File::ALL {
            let square = Square::new(file, *rank);
            let symbol = match (board.piece_on(square), board.color_on(square)) {
                (Some(piece), Some(color)) => piece_letter(piece, color),
                _ => ' ',
            };
            let _ = write!(text, " | {symbol}");
        }
        let _ = writeln!(text, " | {}", *rank as usize + 1);
        text.push_str(" +---+---+---+---+---+---+---+---+\n");
    }
    text.push_str("   a   b   c   d   e   f   g   h\n\n");
    let fen = if chess960 {
        format!("{board:#}")
    } else {
        format!("{board}")
    };
    let _ = writeln!(text, "Fen: {fen}");
    let _ = writeln!(text, "Key: {:016X}", board.hash());
    let checkers: Vec<String> = board
        .checkers()
        .into_iter()
        .map(|s| s.to_string())
        .collect();
    let _ = writeln!(text, "Checkers: {}", checkers.join(" "));
    let moves: Vec<String> = legal_moves(board)
        .into_iter()
        .map(|mv| to_uci(board, mv, chess960).to_string())
        .collect();
    let _ = write!(text, "Legal moves ({}): {}", moves.len(), moves.join(" "));
    text
}

fn piece_letter(piece: Piece, color: Color) -> char {
    let letter = match piece {
        Piece::Pawn => 'p',
        Piece::Knight => 'n',
        Piece::Bishop => 'b',
        Piece::Rook => 'r',
        Piece::Queen => 'q',
        Piece::King => 'k',
    };
    match color {
        Color::White => letter.to_ascii_uppercase(),
        Color::Black => letter,
    }
}
