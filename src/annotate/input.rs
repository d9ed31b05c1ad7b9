//! The games `annotate` reviews, from the project's PGN reader (`crate::pgn`): each game's
//! tags, start position and main line; a game with a bad move up to it, with the reader's
//! error (game number, ply, token); a game without a readable start, as an error only.

use crate::pgn::{PgnError, PgnGame};

use super::review::GameInput;

/// One game of the file, as `annotate` sees it.
#[derive(Debug, Clone)]
pub enum Item {
    /// A game to review (maybe only up to a bad move).
    Game(GameInput),
    /// A game that cannot be reviewed at all, and why.
    Unreadable(String),
}

/// The games of PGN `text`, in file order.
pub fn read_games(text: &str) -> Vec<Item> {
    crate::pgn::games(text).map(item).collect()
}

/// One game read, or what is left of it.
fn item(read: Result<PgnGame, PgnError>) -> Item {
    match read {
        Ok(game) => Item::Game(input(game, None)),
        Err(error) => match error.partial.clone() {
            Some(partial) => Item::Game(input(*partial, Some(error.to_string()))),
            None => Item::Unreadable(error.to_string()),
        },
    }
}

/// The review's view of a game: the result token as written, else the `Result` tag's
/// when it is a result (`1-0`, `0-1`, `1/2-1/2` or `*`: the review writes it as the
/// movetext's last token, where other text could run into the next game), else `*`.
fn input(game: PgnGame, error: Option<String>) -> GameInput {
    let result = game
        .result
        .clone()
        .or_else(|| {
            game.tag("Result")
                .filter(|tag| ["1-0", "0-1", "1/2-1/2", "*"].contains(tag))
                .map(str::to_string)
        })
        .unwrap_or_else(|| "*".to_string());
    GameInput {
        number: game.number,
        start: game.start,
        chess960: game.chess960,
        moves: game.moves.iter().map(|m| m.mv).collect(),
        tags: game.tags,
        result,
        error,
    }
}
