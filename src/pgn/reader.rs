//! Games assembled from PGN tokens: the tag section, the start position it sets up, and
//! the main line resolved move by move (variations skipped).

use std::iter::Peekable;

use cozy_chess::Board;

use super::lexer::{Lexer, Located, Token};
use super::{PgnError, PgnErrorKind, PgnGame, PgnMove};
use crate::position::parse_fen;
use crate::san::resolve_san;

/// Tag pairs in file order.
type Tags = Vec<(String, String)>;

/// The games of a PGN text, in order (see [`super::games`]).
pub struct Games<'a> {
    tokens: Peekable<Lexer<'a>>,
    number: usize,
}

impl<'a> Games<'a> {
    pub fn new(text: &'a str) -> Games<'a> {
        Games {
            tokens: Lexer::new(text).peekable(),
            number: 0,
        }
    }

    /// The line of the next token (or of the end of the text).
    fn line(&mut self) -> usize {
        self.tokens.peek().map_or(0, |t| t.line)
    }

    /// Comments before a game's tag pairs, joined.
    fn leading_comments(&mut self) -> Option<String> {
        let mut comment = None;
        while let Some(Located {
            token: Token::Comment(text),
            ..
        }) = self.tokens.peek()
        {
            add_comment(&mut comment, text);
            self.tokens.next();
        }
        comment
    }

    /// The tag pairs of the tag section, and the first malformed one, if any.
    fn tag_section(&mut self) -> (Tags, Option<(usize, String)>) {
        let mut tags = Vec::new();
        let mut bad = None;
        while let Some(located) = self.tokens.peek() {
            let line = located.line;
            match &located.token {
                Token::Tag { name, value } => tags.push((name.to_string(), value.clone())),
                // A malformed tag pair among good ones is no reason to end the section
                // (the game's number would shift): it is remembered. Any other bad text
                // ends it, and is the movetext's to report.
                Token::BadTag(why) => {
                    bad.get_or_insert((line, why.clone()));
                }
                _ => break,
            }
            self.tokens.next();
        }
        (tags, bad)
    }

    /// Skips the rest of a game that could not be read: up to its result token (outside
    /// variations), the next game's tag pairs or the end of the text.
    fn skip_game(&mut self) {
        let mut depth = 0usize;
        while let Some(located) = self.tokens.peek() {
            match located.token {
                Token::Tag { .. } | Token::BadTag(_) => return,
                Token::Open => depth += 1,
                Token::Close => depth = depth.saturating_sub(1),
                Token::Result(_) if depth == 0 => {
                    self.tokens.next();
                    return;
                }
                _ => {}
            }
            self.tokens.next();
        }
    }

    fn read_game(&mut self) -> Result<PgnGame, PgnError> {
        let number = self.number;
        let comment = self.leading_comments();
        let first_line = self.line();
        let (tags, bad_tag) = self.tag_section();
        let setup = match bad_tag {
            Some((line, why)) => Err((line, PgnErrorKind::Syntax(why))),
            None => start_position(&tags).map_err(|kind| (first_line, kind)),
        };
        let (start, chess960) = match setup {
            Ok(setup) => setup,
            Err((line, kind)) => {
                self.skip_game();
                return Err(PgnError {
                    game: number,
                    line,
                    ply: None,
                    token: None,
                    kind,
                    partial: None,
                });
            }
        };
        let game = PgnGame {
            number,
            tags,
            start,
            chess960,
            comment,
            moves: Vec::new(),
            result: None,
        };
        self.movetext(game)
    }

    /// Reads the movetext of `game` to its end.
    fn movetext(&mut self, mut game: PgnGame) -> Result<PgnGame, PgnError> {
        let mut board = game.start.clone();
        let mut depth = 0usize;
        while let Some(peeked) = self.tokens.peek() {
            if matches!(peeked.token, Token::Tag { .. } | Token::BadTag(_)) {
                break; // The next game's tags: this one had no result token.
            }
            let Some(Located { token, line }) = self.tokens.next() else {
                break;
            };
            if depth > 0 {
                match token {
                    Token::Open => depth += 1,
                    Token::Close => depth -= 1,
                    _ => {}
                }
                continue;
            }
            let failure = |game: PgnGame, token: Option<&str>, kind| PgnError {
                game: game.number,
                line,
                ply: token.map(|_| game.moves.len() + 1),
                token: token.map(String::from),
                kind,
                partial: Some(Box::new(game)),
            };
            match token {
                Token::Result(result) => {
                    game.result = Some(result.to_string());
                    break;
                }
                Token::Open => depth = 1,
                Token::Close | Token::MoveNumber | Token::Tag { .. } => {}
                Token::Comment(text) => match game.moves.last_mut() {
                    Some(last) => add_comment(&mut last.comment, text),
                    None => add_comment(&mut game.comment, text),
                },
                Token::Nag(nag) => {
                    if let Some(last) = game.moves.last_mut() {
                        last.nags.push(nag);
                    }
                }
                Token::Symbol(symbol) => {
                    let (san, suffix) = split_suffix(symbol);
                    if san.is_empty() {
                        if let (Some(last), Some(nag)) = (game.moves.last_mut(), suffix) {
                            last.nags.push(nag);
                        }
                        continue;
                    }
                    match resolve_san(&board, san) {
                        Ok(mv) => {
                            board.play_unchecked(mv);
                            game.moves.push(PgnMove {
                                san: san.to_string(),
                                mv,
                                comment: None,
                                nags: suffix.into_iter().collect(),
                            });
                        }
                        Err(why) => {
                            self.skip_game();
                            return Err(failure(game, Some(symbol), why.into()));
                        }
                    }
                }
                Token::Bad(why) | Token::BadTag(why) => {
                    self.skip_game();
                    return Err(failure(game, None, PgnErrorKind::Syntax(why)));
                }
            }
        }
        Ok(game)
    }
}

impl Iterator for Games<'_> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            self.tokens.peek()?;
            self.number += 1;
            let game = self.read_game();
            // Comments after the last game (or between games, with no tags or moves of
            // their own) are no game.
            if let Ok(g) = &game {
                if g.tags.is_empty() && g.moves.is_empty() && g.result.is_none() {
                    self.number -= 1;
                    continue;
                }
            }
            return Some(game);
        }
    }
}

/// Appends `text` (when not empty) to a comment, a space between.
fn add_comment(comment: &mut Option<String>, text: &str) {
    if text.is_empty() {
        return;
    }
    match comment {
        Some(existing) => {
            existing.push(' ');
            existing.push_str(text);
        }
        None => *comment = Some(text.to_string()),
    }
}

/// A move symbol without its `!`/`?` suffix, and the NAG the suffix stands for.
fn split_suffix(symbol: &str) -> (&str, Option<u8>) {
    let san = symbol.trim_end_matches(['!', '?']);
    let nag = match &symbol[san.len()..] {
        "!" => Some(1),
        "?" => Some(2),
        "!!" => Some(3),
        "??" => Some(4),
        "!?" => Some(5),
        "?!" => Some(6),
        _ => None,
    };
    (san, nag)
}

/// The value of the first tag called `name`.
fn tag<'t>(tags: &'t [(String, String)], name: &str) -> Option<&'t str> {
    tags.iter()
        .find(|(tag, _)| tag == name)
        .map(|(_, value)| value.as_str())
}

/// Whether a `Variant` tag names Chess960 (`Some(true)`), standard chess (`Some(false)`),
/// or something else (`None`).
fn variant_is_chess960(variant: &str) -> Option<bool> {
    let name: String = variant
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_ascii_lowercase();
    match name.as_str() {
        "" | "standard" | "chess" | "normal" | "fromposition" => Some(false),
        "fischerandom" | "fischerrandom" | "chess960" | "960" => Some(true),
        _ => None,
    }
}

/// The start position the tags set up, and whether the game is Chess960. A `FEN` whose
/// castling field only Chess960 can have (a Shredder-FEN file letter, a rook off its
/// corner) makes the game Chess960 even without a `Variant` tag.
fn start_position(tags: &[(String, String)]) -> Result<(Board, bool), PgnErrorKind> {
    let chess960 = match tag(tags, "Variant") {
        None => false,
        Some(variant) => variant_is_chess960(variant)
            .ok_or_else(|| PgnErrorKind::Variant(variant.to_string()))?,
    };
    let Some(fen) = tag(tags, "FEN") else {
        return Ok((Board::default(), chess960));
    };
    match parse_fen(fen, chess960) {
        Ok(board) => Ok((board, chess960)),
        Err(error) => match parse_fen(fen, true) {
            Ok(board) if !chess960 => Ok((board, true)),
            _ => Err(PgnErrorKind::Fen {
                fen: fen.to_string(),
                why: error.to_string(),
            }),
        },
    }
}
