//! Why a line of input was not understood.

use std::fmt;

/// A line that is not a valid command. Every variant names the offending token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// The line holds no command at all (empty or only whitespace).
    Empty,
    /// The first word is not a command.
    UnknownCommand(String),
    /// A command's keyword or argument is missing: (command, what is missing).
    Missing { command: String, what: String },
    /// A token appears where it does not belong: (command, token).
    UnexpectedToken { command: String, token: String },
    /// A number is malformed, negative or out of range: (parameter, token).
    /// A number that is missing altogether (`go depth` at the end of the line) has an
    /// empty `token`.
    BadNumber { parameter: String, token: String },
    /// A token is not a move in UCI notation.
    BadMove(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => f.write_str("empty command"),
            ParseError::UnknownCommand(token) => write!(f, "unknown command '{token}'"),
            ParseError::Missing { command, what } => write!(f, "{command}: missing {what}"),
            ParseError::UnexpectedToken { command, token } => {
                write!(f, "{command}: unexpected token '{token}'")
            }
            ParseError::BadNumber { parameter, token } if token.is_empty() => {
                write!(f, "{parameter}: missing number")
            }
            ParseError::BadNumber { parameter, token } => {
                write!(f, "{parameter}: '{token}' is not a valid number")
            }
            ParseError::BadMove(token) => write!(f, "'{token}' is not a move in UCI notation"),
        }
    }
}

impl std::error::Error for ParseError {}
