//! Lines from the engine to the GUI, as typed values rendered with `Display`.

use std::fmt;

use crate::UciMove;

/// One line of output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Response {
    /// `id name ...` and `id author ...`, after `uci`.
    Id {
        /// The engine's name and version.
        name: String,
        /// Its authors.
        author: String,
    },
    /// `option name ... type ...`: one option the engine offers, after `uci`.
    Option(OptionSpec),
    /// `uciok`: the end of the answer to `uci`.
    UciOk,
    /// `readyok`: the answer to `isready`.
    ReadyOk,
    /// `info ...`: search progress or a message.
    Info(Info),
    /// `bestmove <move> [ponder <move>]`: the end of a search.
    BestMove {
        /// The move the engine plays (`0000` when there is no legal move).
        best: UciMove,
        /// The reply it expects, to ponder on.
        ponder: Option<UciMove>,
    },
}

/// An option the engine offers, as announced after `uci`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionSpec {
    /// The name `setoption name` uses.
    pub name: String,
    /// Its type, default and limits.
    pub kind: OptionKind,
}

/// The type of an option with its default and limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionKind {
    /// `check`: true or false.
    Check {
        /// The value at start.
        default: bool,
    },
    /// `spin`: an integer in `min..=max`.
    Spin {
        /// The value at start.
        default: i64,
        /// The smallest value allowed.
        min: i64,
        /// The largest value allowed.
        max: i64,
    },
    /// `combo`: one of a list of strings.
    Combo {
        /// The value at start.
        default: String,
        /// The values allowed, each announced as `var <value>`.
        vars: Vec<String>,
    },
    /// `button`: an action, set without a value.
    Button,
    /// `string`: free text (`<empty>` for an empty default).
    String {
        /// The value at start.
        default: String,
    },
}

/// A score: centipawns or moves to mate (negative when the engine is mated).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// `cp <x>`: centipawns, from the side to move's view.
    Cp(i32),
    /// `mate <y>`: mate in `y` moves (not plies); negative when the side to move is mated.
    Mate(i32),
}

/// Whether a score is exact or only a bound (aspiration window failure).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ScoreBound {
    /// The score is exact (nothing is printed after it).
    #[default]
    Exact,
    /// `lowerbound`: the true score is at least this.
    Lower,
    /// `upperbound`: the true score is at most this.
    Upper,
}

/// Win/draw/loss expectation in per mille.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wdl {
    /// Chances of a win for the side to move, per mille.
    pub win: u32,
    /// Chances of a draw, per mille.
    pub draw: u32,
    /// Chances of a loss for the side to move, per mille.
    pub loss: u32,
}

/// An `info` line; fields left `None` (or empty) are not printed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Info {
    /// `depth`: the search depth in plies.
    pub depth: Option<u32>,
    /// `seldepth`: the deepest ply reached (selective depth).
    pub seldepth: Option<u32>,
    /// `multipv`: the rank of this line when several are searched (1 is the best).
    pub multipv: Option<u32>,
    /// `score`: the line's score and whether it is exact or a bound.
    pub score: Option<(Score, ScoreBound)>,
    /// `wdl`: win/draw/loss chances (with `UCI_ShowWDL`).
    pub wdl: Option<Wdl>,
    /// `nodes`: nodes searched so far.
    pub nodes: Option<u64>,
    /// `nps`: nodes searched per second.
    pub nps: Option<u64>,
    /// `hashfull`: how full the hash table is, per mille.
    pub hashfull: Option<u32>,
    /// `tbhits`: endgame tablebase hits.
    pub tbhits: Option<u64>,
    /// `time`: milliseconds searched so far.
    pub time: Option<u64>,
    /// `currmove`: the root move being searched.
    pub currmove: Option<UciMove>,
    /// `currmovenumber`: its number among the root moves, from 1.
    pub currmovenumber: Option<u32>,
    /// `pv`: the principal variation, the best line found.
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
/// currmovenumber, pv, string. Line breaks and tabs inside the string are rendered as
/// spaces so that the info stays on one line, other control characters (a NUL or an
/// escape sequence echoed from a bad input line) as `\u{..}` escapes so that they
/// never reach the GUI raw, and trailing whitespace is dropped.
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
                        '\r' | '\n' | '\t' => f.write_str(" ")?,
                        c if c.is_control() => write!(f, "{}", c.escape_unicode())?,
                        c => write!(f, "{c}")?,
                    }
                }
            }
        }
        Ok(())
    }
}
