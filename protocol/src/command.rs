//! Commands from the GUI (or a script) to the engine.

use crate::UciMove;

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
    Bench { depth: Option<u32> },
    /// `go perft <n>` or `perft <n>`.
    Perft { depth: u32 },
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
}
