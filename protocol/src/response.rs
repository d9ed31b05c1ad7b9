//! Lines from the engine to the GUI, as typed values rendered with `Display`.

use std::fmt;

use crate::UciMove;

/// One line of output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Response {
    Id {
        name: String,
        author: String,
    },
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

/// Renders the exact UCI text, without a trailing newline. `Id` is the only
/// response that spans two lines (`id name ...` and `id author ...`).
impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Response::Id { name, author } => write!(f, "id name {name}\nid author {author}"),
            Response::Option(spec) => spec.fmt(f),
            Response::UciOk => f.write_str("uciok"),
            Response::ReadyOk => f.write_str("readyok"),
            Response::Info(info) => info.fmt(f),
            Response::BestMove { best, ponder } => {
                write!(f, "bestmove {best}")?;
                match ponder {
                    Some(ponder) => write!(f, " ponder {ponder}"),
                    None => Ok(()),
                }
            }
        }
    }
}

/// `option name <name> type <kind> ...`, as announced after `uci`.
impl fmt::Display for OptionSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                for var in vars {
                    write!(f, " var {var}")?;
                }
                Ok(())
            }
            OptionKind::Button => f.write_str("button"),
            // Stockfish's convention: an empty default is spelt `<empty>`.
            OptionKind::String { default } if default.is_empty() => {
                f.write_str("string default <empty>")
            }
            OptionKind::String { default } => write!(f, "string default {default}"),
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(moves) => write!(f, "mate {moves}"),
        }
    }
}

/// `info` followed by the fields that are set, in the order depth, seldepth,
/// multipv, score, wdl, nodes, nps, hashfull, tbhits, time, currmove,
/// currmovenumber, pv, string. Line breaks inside the string are rendered as
/// spaces so that the info stays on one line, and trailing whitespace is dropped.
impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        let numbers = [
            ("depth", self.depth.map(u64::from)),
            ("seldepth", self.seldepth.map(u64::from)),
            ("multipv", self.multipv.map(u64::from)),
        ];
        for (name, number) in numbers {
            if let Some(number) = number {
                write!(f, " {name} {number}")?;
            }
        }
        if let Some((score, bound)) = self.score {
            write!(f, " score {score}")?;
            match bound {
                ScoreBound::Exact => {}
                ScoreBound::Lower => f.write_str(" lowerbound")?,
                ScoreBound::Upper => f.write_str(" upperbound")?,
            }
        }
        if let Some(Wdl { win, draw, loss }) = self.wdl {
            write!(f, " wdl {win} {draw} {loss}")?;
        }
        let numbers = [
            ("nodes", self.nodes),
            ("nps", self.nps),
            ("hashfull", self.hashfull.map(u64::from)),
            ("tbhits", self.tbhits),
            ("time", self.time),
        ];
        for (name, number) in numbers {
            if let Some(number) = number {
                write!(f, " {name} {number}")?;
            }
        }
        if let Some(mv) = self.currmove {
            write!(f, " currmove {mv}")?;
        }
        if let Some(number) = self.currmovenumber {
            write!(f, " currmovenumber {number}")?;
        }
        if !self.pv.is_empty() {
            f.write_str(" pv")?;
            for mv in &self.pv {
                write!(f, " {mv}")?;
            }
        }
        if let Some(text) = &self.string {
            f.write_str(" string")?;
            let text = text.trim_end();
            if !text.is_empty() {
                f.write_str(" ")?;
                for c in text.chars() {
                    match c {
                        '\r' | '\n' => f.write_str(" ")?,
                        c => write!(f, "{c}")?,
                    }
                }
            }
        }
        Ok(())
    }
}
