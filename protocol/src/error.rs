//! Why a line of input was not understood.

use std::fmt;

/// A line that is not a valid command. Every variant names the offending token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// The line holds no command at all (empty or only whitespace).
    Empty,
    /// The first word is not a command.
    UnknownCommand(String),
    /// A command's keyword or argument is missing.
    Missing {
        /// The command that lacks it (`setoption`, `position`).
        command: String,
        /// What is missing (`name`, `FEN`, `startpos or fen`).
        what: String,
    },
    /// A token appears where it does not belong.
    UnexpectedToken {
        /// The command whose arguments hold the token.
        command: String,
        /// The token, as received.
        token: String,
    },
    /// A number is malformed, negative or out of range: (parameter, token).
    /// A number that is missing altogether (`go depth` at the end of the line) has an
    /// empty `token`.
    BadNumber {
        /// The keyword the number belongs to (`depth`, `wtime`, `perft`, `bench`...).
        parameter: String,
        /// The offending text, empty when the number is missing.
        token: String,
    },
    /// A token is not a move in UCI notation.
    BadMove(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => f.write_str("empty command"),
            ParseError::UnknownCommand(token) => write!(f, "unknown command {}", quote(token)),
            ParseError::Missing { command, what } => write!(f, "{command}: missing {what}"),
            ParseError::UnexpectedToken { command, token } => {
                write!(f, "{command}: unexpected token {}", quote(token))
            }
            ParseError::BadNumber { parameter, token } if token.is_empty() => {
                write!(f, "{parameter}: missing number")
            }
            ParseError::BadNumber { parameter, token } => {
                write!(f, "{parameter}: {} is not a valid number", quote(token))
            }
            ParseError::BadMove(token) => {
                write!(f, "{} is not a move in UCI notation", quote(token))
            }
        }
    }
}

impl std::error::Error for ParseError {}

/// The most characters of a token that an error message quotes.
pub const QUOTE_LIMIT: usize = 40;

/// A piece of input as an error message shows it: between single quotes, and cut to its
/// first [`QUOTE_LIMIT`] characters, with its length, when it is longer, so that an error
/// line stays short whatever the input: `'e9e5'`, or
/// `'xxxxxxxx…' (5,000,000 characters)`. Made by [`quote`].
#[derive(Debug, Clone, Copy)]
pub struct Quoted<'a> {
    token: &'a str,
    limit: usize,
}

/// Quotes `token` for an error message (see [`Quoted`]). Every error that names a piece of
/// input, here and in the engine, quotes it with this.
pub fn quote(token: &str) -> Quoted<'_> {
    quote_up_to(token, QUOTE_LIMIT)
}

/// [`quote`] with another limit than [`QUOTE_LIMIT`], for input that is usefully longer,
/// such as a file path.
pub fn quote_up_to(token: &str, limit: usize) -> Quoted<'_> {
    Quoted { token, limit }
}

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let token = self.token;
        match token.char_indices().nth(self.limit) {
            None => write!(f, "'{token}'"),
            Some((cut, _)) => {
                let count = token.chars().count();
                write!(f, "'{}…' ({} characters)", &token[..cut], thousands(count))
            }
        }
    }
}

/// `n` with a comma between groups of three digits: `5,000,000`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_tokens_are_quoted_whole() {
        assert_eq!(quote("").to_string(), "''");
        assert_eq!(quote("e9e5").to_string(), "'e9e5'");
        let forty = "é".repeat(QUOTE_LIMIT);
        assert_eq!(quote(&forty).to_string(), format!("'{forty}'"));
    }

    #[test]
    fn long_tokens_are_cut_and_counted() {
        let long = "x".repeat(5_000_000);
        assert_eq!(
            quote(&long).to_string(),
            format!("'{}…' (5,000,000 characters)", "x".repeat(QUOTE_LIMIT))
        );
        // Cut on a character boundary, counted in characters.
        let wide = "日".repeat(QUOTE_LIMIT + 1);
        assert_eq!(
            quote(&wide).to_string(),
            format!("'{}…' (41 characters)", "日".repeat(QUOTE_LIMIT))
        );
        assert_eq!(
            quote_up_to("abcdef", 3).to_string(),
            "'abc…' (6 characters)"
        );
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(123_456_789), "123,456,789");
    }
}
