//! The nom grammar: one line of text to a [`Command`].

use crate::{Command, ParseError};

/// Parses one line of input. Never panics.
pub fn parse_command(line: &str) -> Result<Command, ParseError> {
    todo!("{line}")
}
