//! Commands from the GUI (or a script) to the engine.

use std::fmt;

use crate::{ParseError, UciMove};

/// One line of input, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `uci`: the engine identifies itself, lists its options and answers `uciok`.
    Uci,
    /// `debug on|off` (a bare `debug` is `on`): extra diagnostics on or off.
    Debug(bool),
    /// `isready`: answered with `readyok`, even during a search.
    IsReady,
    /// `setoption name <name> [value <value>]`; both may contain spaces.
    SetOption {
        /// The option's name, words joined by single spaces.
        name: String,
        /// The value after `value`, if any (possibly empty); `None` for a button.
        value: Option<String>,
    },
    /// `register ...`, with whatever follows (Cutoff needs no registration).
    Register(String),
    /// `ucinewgame`: the next position is from a new game.
    UciNewGame,
    /// `position startpos|fen <FEN> [moves ...]`: set up a position.
    Position {
        /// The position the moves start from.
        start: PositionStart,
        /// The moves played from it, in order (checked for syntax only).
        moves: Vec<UciMove>,
    },
    /// `go ...`: start a search with these parameters.
    Go(GoParams),
    /// `stop`: end the search now and answer with its `bestmove`.
    Stop,
    /// `ponderhit`: the opponent played the expected move; the ponder search goes on as
    /// a normal one.
    PonderHit,
    /// `quit`: exit as soon as possible.
    Quit,
    /// `uci`, `isready`, `stop`, `ponderhit` or `quit` followed by tokens it does not take:
    /// the command still holds (a GUI waits for its answer, and the UCI specification says
    /// to ignore unknown tokens), and the first stray token is reported.
    Ignoring {
        /// The command, without the stray tokens.
        command: Box<Command>,
        /// The first token it does not take.
        token: String,
    },
    /// `d`: show the board.
    Display,
    /// `eval`: show the static evaluation.
    Eval,
    /// `help`: say what the engine is and list its commands.
    Help,
    /// `bench [depth]`.
    Bench {
        /// The search depth per position; `None` for the engine's default.
        depth: Option<u32>,
    },
    /// `go perft <n>` or `perft <n>`.
    Perft {
        /// The number of plies to count.
        depth: u32,
    },
    /// `genfens <n> seed <s> book <None|path> [extra ...]`: opening positions for
    /// OpenBench's data generation.
    Genfens(GenfensParams),
}

/// The arguments of `genfens`, as OpenBench's client sends them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenfensParams {
    /// How many positions to print.
    pub count: u64,
    /// The seed of the random choices.
    pub seed: u64,
    /// The book's path; `None` for `book None` (any case).
    pub book: Option<String>,
    /// The words after the book, for the engine to interpret (not checked here).
    pub extra: Vec<String>,
}

/// Where a `position` command starts from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionStart {
    /// `startpos`: the standard initial position.
    StartPos,
    /// The FEN text, fields joined by single spaces, not yet validated.
    Fen(String),
}

/// The parameters of `go`. Times are in milliseconds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `searchmoves`: search only these root moves (empty: all moves).
    pub searchmoves: Vec<UciMove>,
    /// `ponder`: search in the opponent's time, on the expected move, until `ponderhit`
    /// or `stop`.
    pub ponder: bool,
    /// `wtime`: White's remaining time.
    pub wtime: Option<u64>,
    /// `btime`: Black's remaining time.
    pub btime: Option<u64>,
    /// `winc`: White's increment per move.
    pub winc: Option<u64>,
    /// `binc`: Black's increment per move.
    pub binc: Option<u64>,
    /// `movestogo`: moves until the next time control (none: sudden death).
    pub movestogo: Option<u32>,
    /// `depth`: search this many plies at most.
    pub depth: Option<u32>,
    /// `nodes`: search this many nodes at most.
    pub nodes: Option<u64>,
    /// `mate`: look for a mate in this many moves.
    pub mate: Option<u32>,
    /// `movetime`: search exactly this long.
    pub movetime: Option<u64>,
    /// `infinite`: search until `stop`.
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
            Command::Ignoring { command, token } => write!(f, "{command} {token}"),
            Command::Display => f.write_str("d"),
            Command::Eval => f.write_str("eval"),
            Command::Help => f.write_str("help"),
            Command::Bench { depth: None } => f.write_str("bench"),
            Command::Bench { depth: Some(depth) } => write!(f, "bench {depth}"),
            Command::Perft { depth } => write!(f, "perft {depth}"),
            Command::Genfens(params) => {
                write!(
                    f,
                    "genfens {} seed {} book {}",
                    params.count,
                    params.seed,
                    params.book.as_deref().unwrap_or("None")
                )?;
                params
                    .extra
                    .iter()
                    .try_for_each(|word| write!(f, " {word}"))
            }
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
