#![warn(missing_docs)]

//! The UCI dialect spoken by Cutoff: typed commands (GUI to engine), typed responses
//! (engine to GUI), a nom grammar that turns a line of text into a [`Command`], and
//! renderers that turn a [`Response`] into a line of text.
//!
//! The crate knows no chess rules: a move is only checked for its syntax.

mod command;
mod error;
mod parse;
mod response;
mod uci_move;

pub use command::{Command, GenfensParams, GoParams, PositionStart};
pub use error::{quote, quote_up_to, ParseError, Quoted, QUOTE_LIMIT};
pub use parse::parse_command;
pub use response::{Info, OptionKind, OptionSpec, Response, Score, ScoreBound, Wdl};
pub use uci_move::{Promotion, Square, UciMove};
