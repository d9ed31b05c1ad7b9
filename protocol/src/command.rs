//! Commands from the GUI (or a script) to the engine.

use std::fmt;

use crate::{ParseError, UciMove};

/// One line of input, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Uci,
    Debug(bool),
    IsReady,
    /// `setoption name <name> [value <value>]`; both may contain spaces.
    SetOption {
        name: String,
        value: Option<String>,
    },
    /// `register ...`, with whatever follows (Cutoff needs no registration).
    Register(String),
    UciNewGame,
    Position {
        start: PositionStart,
        moves: Vec<UciMove>,
    },
    Go(GoParams),
    Stop,
    PonderHit,
    Quit,
    /// `d`: show the board.
    Display,
    /// `eval`: show the static evaluation.
    Eval,
    /// `bench [depth]`.
    Bench {
        depth: Option<u32>,
    },
    /// `go perft <n>` or `perft <n>`.
    Perft {
        depth: u32,
    },
}

/// Where a `position` command starts from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionStart {
    StartPos,
    /// The FEN text, fields joined by single spaces, not yet validated.
    Fen(String),
}

/// The parameters of `go`. Times are in milliseconds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoParams {
    pub searchmoves: Vec<UciMove>,
    pub ponder: bool,
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub movetime: Option<u64>,
    pub infinite: bool,
    /// The parts of the line that were refused, one error each, in line order (an
    /// unreadable number, a token that is not a move, an unexpected token); the fields
    /// above hold the rest. The engine reports them and searches anyway. Not rendered.
    pub problems: Vec<ParseError>,
}

/// Renders the command as the canonical line of text that parses back to it
/// (useful for logging and for the round-trip tests). No trailing newline.
impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Uci => f.write_str("uci"),
            Command::Debug(on) => write!(f, "debug {}", if *on { "on" } else { "off" }),
            Command::IsReady => f.write_str("isready"),
            Command::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                match value.as_deref() {
                    None => Ok(()),
                    Some("") => f.write_str(" value"),
                    Some(value) => write!(f, " value {value}"),
                }
            }
            Command::Register(text) if text.is_empty() => f.write_str("register"),
            Command::Register(text) => write!(f, "register {text}"),
            Command::UciNewGame => f.write_str("ucinewgame"),
            Command::Position { start, moves } => {
                f.write_str("position ")?;
                match start {
                    PositionStart::StartPos => f.write_str("startpos")?,
                    PositionStart::Fen(fen) => write!(f, "fen {fen}")?,
                }
                if !moves.is_empty() {
                    f.write_str(" moves")?;
                    for mv in moves {
                        write!(f, " {mv}")?;
                    }
                }
                Ok(())
            }
            Command::Go(params) => {
                f.write_str("go")?;
                let params = params.to_string();
                if params.is_empty() {
                    Ok(())
                } else {
                    write!(f, " {params}")
                }
            }
            Command::Stop => f.write_str("stop"),
            Command::PonderHit => f.write_str("ponderhit"),
            Command::Quit => f.write_str("quit"),
            Command::Display => f.write_str("d"),
            Command::Eval => f.write_str("eval"),
            Command::Bench { depth: None } => f.write_str("bench"),
            Command::Bench { depth: Some(depth) } => write!(f, "bench {depth}"),
            Command::Perft { depth } => write!(f, "perft {depth}"),
        }
    }
}

/// Renders the parameters as they follow `go` (without the `go` itself), separated
/// by single spaces; empty when no parameter is set. The refused parts (`problems`) are
/// not rendered.
impl fmt::Display for GoParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut words: Vec<String> = Vec::new();
        if !self.searchmoves.is_empty() {
            words.push("searchmoves".to_string());
            words.extend(self.searchmoves.iter().map(UciMove::to_string));
        }
        if self.ponder {
            words.push("ponder".to_string());
        }
        let numbers = [
            ("wtime", self.wtime),
            ("btime", self.btime),
            ("winc", self.winc),
            ("binc", self.binc),
            ("movestogo", self.movestogo.map(u64::from)),
            ("depth", self.depth.map(u64::from)),
            ("nodes", self.nodes),
            ("mate", self.mate.map(u64::from)),
            ("movetime", self.movetime),
        ];
        for (keyword, number) in numbers {
            if let Some(number) = number {
                words.push(format!("{keyword} {number}"));
            }
        }
        if self.infinite {
            words.push("infinite".to_string());
        }
        f.write_str(&words.join(" "))
    }
}
