//! Static evaluation.

use cozy_chess::{Board, Color, Piece};

const PIECE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// The static evaluation in centipawns from the side to move's point of view.
pub fn evaluate(board: &Board) -> i32 {
    let white = material(board, Color::White) - material(board, Color::Black);
    match board.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    }
}

fn material(board: &Board, color: Color) -> i32 {
    Piece::ALL
        .iter()
        .map(|&piece| {
            PIECE_VALUES[piece as usize] * board.colored_pieces(color, piece).len() as i32
        })
        .sum()
}

/// The `eval` report: each term for both sides, then the final line.
pub fn report(board: &Board) -> String {
    let white = material(board, Color::White);
    let black = material(board, Color::Black);
    format!(
        "Term        White  Black  Total\nMaterial   {white:6} {black:6} {:6}\n\nFinal evaluation: {:+} cp (white side)",
        white - black,
        white - black
    )
}
