//! The reviewed game written back as PGN: the tags as read, a leading comment with each
//! player's figures and the settings, then every move of the main line with its
//! evaluation as `{ [%eval 0.35] }` (pawns, White's view; `[%eval #-3]` for a mate), the
//! convention Lichess and python-chess read, the NAG suffix of a bad move with the
//! better move named, and for a mistake or a blunder the better line as a variation.
//! The move that checkmates carries no evaluation (as python-chess writes it).

use std::fmt::Write;

use cozy_chess::{Board, Color, Move};

use super::judge::Class;
use super::review::{Eval, GameReview, PlayerSummary, PlyReview, BETTER_LINE_PLIES};
use crate::san::to_san;

/// The longest line of movetext written (lines break between tokens).
const LINE_WIDTH: usize = 80;

/// The game as PGN text, ending with an empty line; `settings` describes the searches.
pub fn game_text(review: &GameReview, settings: &str) -> String {
    let mut text = String::new();
    for (name, value) in &review.input.tags {
        let _ = writeln!(text, "[{name} \"{}\"]", escape(value));
    }
    text.push('\n');
    let mut tokens = Vec::new();
    push_comment(&mut tokens, None, &summary_comment(review, settings));
    let start = &review.input.start;
    let mut board = start.clone();
    let mut after_comment = true;
    for ply in &review.plies {
        let number = move_number(&board, after_comment);
        let suffix = ply.judgement.class.map_or("", Class::suffix);
        let space = if number.is_empty() { "" } else { " " };
        tokens.push(format!("{number}{space}{}{suffix}", ply.san));
        after_comment = false;
        let eval = eval_text(ply.eval).map(|text| format!("[%eval {text}]"));
        let verdict = verdict(ply);
        if eval.is_some() || !verdict.is_empty() {
            push_comment(&mut tokens, eval, &verdict);
            after_comment = true;
        }
        if ply.judgement.class >= Some(Class::Mistake) {
            if let Some(variation) = variation(&board, &ply.line) {
                tokens.push(variation);
                after_comment = true;
            }
        }
        board.play_unchecked(ply.mv);
    }
    if let Some(error) = &review.input.error {
        let text = format!("The annotation stops here: {error}");
        push_comment(&mut tokens, None, &text);
    }
    tokens.push(review.input.result.clone());
    wrap(&tokens, &mut text);
    text.push('\n');
    text
}

/// The leading comment: the settings and each player's figures.
fn summary_comment(review: &GameReview, settings: &str) -> String {
    format!(
        "{settings}. White: {}. Black: {}.",
        player_text(&review.white),
        player_text(&review.black)
    )
}

/// `accuracy 91.2%, average centipawn loss 18, 1 ?!, 0 ?, 0 ??` (or `no moves`).
fn player_text(player: &PlayerSummary) -> String {
    match (player.accuracy, player.acpl) {
        (Some(accuracy), Some(acpl)) => format!(
            "accuracy {accuracy:.1}%, average centipawn loss {acpl:.0}, {} ?!, {} ?, {} ??",
            player.inaccuracies, player.mistakes, player.blunders
        ),
        _ => "no moves".to_string(),
    }
}

/// `12.` before White's move; `12...` before Black's when something stands between it
/// and White's move (or it is the first).
fn move_number(board: &Board, after_comment: bool) -> String {
    let number = board.fullmove_number();
    match board.side_to_move() {
        Color::White => format!("{number}."),
        Color::Black if after_comment => format!("{number}..."),
        Color::Black => String::new(),
    }
}

/// `Mistake. Nxe5 was best.` for a bad move, else nothing.
fn verdict(ply: &PlyReview) -> String {
    match (ply.judgement.class, &ply.best_san) {
        (Some(class), Some(best)) => format!("{}. {best} was best.", capitalised(class.name())),
        _ => String::new(),
    }
}

/// Adds a comment: the `[%eval]` command if any (kept in one piece), then the words of
/// `text` (without braces, which would end it), with `{` and `}` kept to the first and
/// last word so that lines do not break next to them.
fn push_comment(tokens: &mut Vec<String>, eval: Option<String>, text: &str) {
    let mut words: Vec<String> = eval.into_iter().collect();
    words.extend(
        text.split_whitespace()
            .map(|word| word.replace(['{', '}'], ""))
            .filter(|word| !word.is_empty()),
    );
    let last = words.len().saturating_sub(1);
    for (index, word) in words.iter().enumerate() {
        let open = if index == 0 { "{ " } else { "" };
        let close = if index == last { " }" } else { "" };
        tokens.push(format!("{open}{word}{close}"));
    }
}

/// An evaluation as `[%eval]` writes it: `0.35`, `-1.20`, `#3`, `#-2`; none for a
/// checkmate on the board.
pub fn eval_text(eval: Eval) -> Option<String> {
    match eval {
        Eval::Cp(cp) => Some(format!("{:.2}", f64::from(cp) / 100.0)),
        Eval::Mate(moves) => Some(format!("#{moves}")),
        Eval::Checkmate => None,
    }
}

/// The better line from `board` as a variation: `( 12. Nxe5 Nxe5 13. Qxe5 )`.
fn variation(board: &Board, line: &[Move]) -> Option<String> {
    if line.is_empty() {
        return None;
    }
    let mut position = board.clone();
    let mut words = vec!["(".to_string()];
    for (index, &mv) in line.iter().take(BETTER_LINE_PLIES).enumerate() {
        let number = move_number(&position, index == 0);
        let space = if number.is_empty() { "" } else { " " };
        words.push(format!("{number}{space}{}", to_san(&position, mv)));
        position.play_unchecked(mv);
    }
    words.push(")".to_string());
    Some(words.join(" "))
}

/// `Mistake` from `mistake`.
fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// A tag value with `\` and `"` escaped, and any line break or other control character
/// (which a tag value cannot hold: it ends at the line's end) written as a space.
fn escape(value: &str) -> String {
    value
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
}

/// Appends the non-empty `tokens` to `text` joined by spaces, in lines of at most
/// [`LINE_WIDTH`] characters where the tokens allow.
fn wrap(tokens: &[String], text: &mut String) {
    let mut line_length = 0;
    for token in tokens.iter().filter(|token| !token.is_empty()) {
        if line_length > 0 && line_length + 1 + token.len() > LINE_WIDTH {
            text.push('\n');
            line_length = 0;
        } else if line_length > 0 {
            text.push(' ');
            line_length += 1;
        }
        text.push_str(token);
        line_length += token.len();
    }
    text.push('\n');
}
