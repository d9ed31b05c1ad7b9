//! Lines from the engine to the GUI, as typed values rendered with `Display`.

use std::fmt;

use crate::UciMove;

/// One line of output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Response {
    Id { name: String, author: String },
    Option(OptionSpec),
    UciOk,
    ReadyOk,
    Info(Info),
    BestMove {
        best: UciMove,
        ponder: Option<UciMove>,
    },
}

/// An option the engine offers, as announced after `uci`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: String,
    pub kind: OptionKind,
}

/// The type of an option with its default and limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionKind {
    Check { default: bool },
    Spin { default: i64, min: i64, max: i64 },
    Combo { default: String, vars: Vec<String> },
    Button,
    String { default: String },
}

/// A score: centipawns or moves to mate (negative when the engine is mated).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    Mate(i32),
}

/// Whether a score is exact or only a bound (aspiration window failure).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ScoreBound {
    #[default]
    Exact,
    Lower,
    Upper,
}

/// Win/draw/loss expectation in per mille.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wdl {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
}

/// An `info` line; fields left `None` (or empty) are not printed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub multipv: Option<u32>,
    pub score: Option<(Score, ScoreBound)>,
    pub wdl: Option<Wdl>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub hashfull: Option<u32>,
    pub tbhits: Option<u64>,
    pub time: Option<u64>,
    pub currmove: Option<UciMove>,
    pub currmovenumber: Option<u32>,
    pub pv: Vec<UciMove>,
    /// Free text; always printed last, as UCI requires.
    pub string: Option<String>,
}

impl Info {
    /// An `info string <text>` line.
    pub fn string(text: impl Into<String>) -> Info {
        Info {
            string: Some(text.into()),
            ..Info::default()
        }
    }
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        todo!("rendering")
    }
}
