//! The nom grammar: one line of text to a [`Command`].
//!
//! Parsing happens in two steps. First nom splits the line into tokens (runs of
//! anything but spaces, tabs, carriage returns and line feeds). Then a small function
//! per command reads that command's arguments from the token list, using nom again
//! for the tokens that have an inner grammar: numbers and moves.
//!
//! A missing number (`go depth` at the end of the line) is reported as
//! [`ParseError::BadNumber`] with an empty `token`.

use nom::bytes::complete::{tag, take_while, take_while1};
use nom::character::complete::{digit1, one_of};
use nom::combinator::{all_consuming, map, opt, value};
use nom::multi::many0;
use nom::sequence::preceded;
use nom::{IResult, Parser};

use crate::{
    Command, GenfensParams, GoParams, ParseError, PositionStart, Promotion, Square, UciMove,
};

/// Parses one line of input. Never panics.
///
/// Unknown tokens before the first command keyword are skipped, as the UCI
/// specification asks (`joho debug on` is `debug on`).
pub fn parse_command(line: &str) -> Result<Command, ParseError> {
    let tokens = tokenize(line);
    let Some(first) = tokens.first() else {
        return Err(ParseError::Empty);
    };
    let from_command = tokens
        .iter()
        .position(|token| is_command(token))
        .and_then(|start| tokens.get(start..));
    match from_command {
        Some([keyword, args @ ..]) => parse_known_command(keyword, args),
        _ => Err(ParseError::UnknownCommand((*first).to_string())),
    }
}

/// The keywords that start a command.
const COMMANDS: &[&str] = &[
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "eval",
    "help",
    "bench",
    "perft",
    "genfens",
];

/// The keywords that may follow `go`.
const GO_KEYWORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

fn is_command(token: &str) -> bool {
    COMMANDS.contains(&token)
}

fn is_go_keyword(token: &str) -> bool {
    GO_KEYWORDS.contains(&token)
}

// ---------------------------------------------------------------------------
// Tokens, numbers and moves: the nom part.
// ---------------------------------------------------------------------------

fn is_separator(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

fn separators(input: &str) -> IResult<&str, &str> {
    take_while(is_separator)(input)
}

fn token(input: &str) -> IResult<&str, &str> {
    take_while1(|c| !is_separator(c))(input)
}

/// Splits a line into its tokens; whitespace anywhere is only a separator.
fn tokenize(line: &str) -> Vec<&str> {
    match many0(preceded(separators, token)).parse(line) {
        Ok((_, tokens)) => tokens,
        // `many0` stops at the first failure and the separators cannot fail, so
        // this is unreachable; an empty list is the safe answer anyway.
        Err(_) => Vec::new(),
    }
}

/// A number: ASCII decimal digits only, that fits `T`.
fn number<T: std::str::FromStr>(parameter: &str, token: &str) -> Result<T, ParseError> {
    all_consuming(digit1::<&str, nom::error::Error<&str>>)
        .parse(token)
        .ok()
        .and_then(|(_, digits)| digits.parse().ok())
        .ok_or_else(|| bad_number(parameter, token))
}

fn file(input: &str) -> IResult<&str, u8> {
    map(one_of("abcdefgh"), |c| c as u8 - b'a').parse(input)
}

fn rank(input: &str) -> IResult<&str, u8> {
    map(one_of("12345678"), |c| c as u8 - b'1').parse(input)
}

fn square(input: &str) -> IResult<&str, Square> {
    let (rest, (f, r)) = (file, rank).parse(input)?;
    match Square::new(f, r) {
        Some(square) => Ok((rest, square)),
        None => Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::Verify,
        ))),
    }
}

fn promotion(input: &str) -> IResult<&str, Promotion> {
    map(one_of("nbrqNBRQ"), |c| match c.to_ascii_lowercase() {
        'n' => Promotion::Knight,
        'b' => Promotion::Bishop,
        'r' => Promotion::Rook,
        _ => Promotion::Queen,
    })
    .parse(input)
}

fn normal_move(input: &str) -> IResult<&str, UciMove> {
    map((square, square, opt(promotion)), |(from, to, promotion)| {
        UciMove::Normal {
            from,
            to,
            promotion,
        }
    })
    .parse(input)
}

fn null_move(input: &str) -> IResult<&str, UciMove> {
    value(UciMove::Null, tag("0000")).parse(input)
}

/// A move in UCI notation: `e2e4`, `e7e8q` (or `e7e8Q`), or the null move `0000`.
pub(crate) fn parse_move(token: &str) -> Result<UciMove, ParseError> {
    all_consuming(nom::branch::alt((null_move, normal_move)))
        .parse(token)
        .map(|(_, mv)| mv)
        .map_err(|_| ParseError::BadMove(token.to_string()))
}

fn parse_moves(tokens: &[&str]) -> Result<Vec<UciMove>, ParseError> {
    tokens.iter().map(|token| parse_move(token)).collect()
}

// ---------------------------------------------------------------------------
// Errors.
// ---------------------------------------------------------------------------

fn bad_number(parameter: &str, token: &str) -> ParseError {
    ParseError::BadNumber {
        parameter: parameter.to_string(),
        token: token.to_string(),
    }
}

fn unexpected(command: &str, token: &str) -> ParseError {
    ParseError::UnexpectedToken {
        command: command.to_string(),
        token: token.to_string(),
    }
}

fn missing(command: &str, what: &str) -> ParseError {
    ParseError::Missing {
        command: command.to_string(),
        what: what.to_string(),
    }
}

/// Fails on the first of `args`, if any: for commands that take no (more) arguments.
fn no_more(command: &str, args: &[&str]) -> Result<(), ParseError> {
    match args.first() {
        Some(token) => Err(unexpected(command, token)),
        None => Ok(()),
    }
}

/// Takes the number that follows `parameter`; an absent one is reported with an
/// empty token.
fn take_number<T: std::str::FromStr>(parameter: &str, args: &mut &[&str]) -> Result<T, ParseError> {
    match args.split_first() {
        Some((token, rest)) => {
            *args = rest;
            number(parameter, token)
        }
        None => Err(bad_number(parameter, "")),
    }
}

/// A time in milliseconds (`wtime`, `btime`, `winc`, `binc`, `movetime`). Some GUIs send
/// a negative remaining time once a clock has run past zero; refusing it would forfeit the
/// game, so a negative time counts as zero. Anything else malformed is an error.
fn take_time(parameter: &str, args: &mut &[&str]) -> Result<u64, ParseError> {
    match args.first().and_then(|token| token.strip_prefix('-')) {
        Some(magnitude) => {
            let token = args[0];
            *args = &args[1..];
            number::<u64>(parameter, magnitude)
                .map(|_| 0)
                .map_err(|_| bad_number(parameter, token))
        }
        None => take_number(parameter, args),
    }
}

// ---------------------------------------------------------------------------
// Commands.
// ---------------------------------------------------------------------------

fn parse_known_command(keyword: &str, args: &[&str]) -> Result<Command, ParseError> {
    let simple = |command: Command| no_more(keyword, args).map(|()| command);
    // A command a GUI waits on is carried out whatever follows it.
    let urgent = |command: Command| {
        Ok(match args.first() {
            Some(token) => Command::Ignoring {
                command: Box::new(command),
                token: (*token).to_string(),
            },
            None => command,
        })
    };
    match keyword {
        "uci" => urgent(Command::Uci),
        "isready" => urgent(Command::IsReady),
        "ucinewgame" => simple(Command::UciNewGame),
        "stop" => urgent(Command::Stop),
        "ponderhit" => urgent(Command::PonderHit),
        "quit" => urgent(Command::Quit),
        "d" => simple(Command::Display),
        "eval" => simple(Command::Eval),
        "help" => simple(Command::Help),
        "debug" => parse_debug(args),
        "setoption" => parse_setoption(args),
        "register" => Ok(Command::Register(args.join(" "))),
        "position" => parse_position(args),
        "go" => parse_go(args),
        "bench" => parse_bench(args),
        "perft" => parse_perft(args),
        "genfens" => parse_genfens(args),
        other => Err(ParseError::UnknownCommand(other.to_string())),
    }
}

/// `debug [on|off]`; a bare `debug` turns debugging on.
fn parse_debug(args: &[&str]) -> Result<Command, ParseError> {
    let (on, rest) = match args.split_first() {
        None => (true, args),
        Some((&"on", rest)) => (true, rest),
        Some((&"off", rest)) => (false, rest),
        Some((token, _)) => return Err(unexpected("debug", token)),
    };
    no_more("debug", rest).map(|()| Command::Debug(on))
}

/// `setoption name <id> [value <x>]`: the name runs up to the first `value` token.
fn parse_setoption(args: &[&str]) -> Result<Command, ParseError> {
    let rest = match args.split_first() {
        Some((&"name", rest)) => rest,
        None | Some((&"value", _)) => return Err(missing("setoption", "name")),
        Some((token, _)) => return Err(unexpected("setoption", token)),
    };
    let (name, value) = match rest.iter().position(|token| *token == "value") {
        Some(at) => {
            let (name, value) = rest.split_at(at);
            (name, value.get(1..).map(|value| value.join(" ")))
        }
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(missing("setoption", "name"));
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

/// `position startpos [moves ...]` or `position fen <fields> [moves ...]`.
fn parse_position(args: &[&str]) -> Result<Command, ParseError> {
    let (start, rest) = match args.split_first() {
        Some((&"startpos", rest)) => (PositionStart::StartPos, rest),
        Some((&"fen", rest)) => {
            let end = rest
                .iter()
                .position(|token| *token == "moves")
                .unwrap_or(rest.len());
            let (fen, rest) = rest.split_at(end);
            if fen.is_empty() {
                return Err(missing("position", "FEN"));
            }
            (PositionStart::Fen(fen.join(" ")), rest)
        }
        Some((token, _)) => return Err(unexpected("position", token)),
        None => return Err(missing("position", "startpos or fen")),
    };
    let moves = match rest.split_first() {
        Some((&"moves", moves)) => parse_moves(moves)?,
        Some((token, _)) => return Err(unexpected("position", token)),
        None => Vec::new(),
    };
    Ok(Command::Position { start, moves })
}

/// `go` with its parameters in any order, or `go perft <depth>`.
///
/// A `go` search is never refused as a whole, since a GUI waits for its `bestmove`: each
/// faulty part is left out and reported in [`GoParams::problems`], and the rest is kept.
/// An unreadable number leaves its parameter out; a token that is not a move leaves
/// `searchmoves`; an unexpected token is skipped together with the tokens after it up to
/// the next `go` keyword (one problem for the run). Only `go perft` can fail.
fn parse_go(args: &[&str]) -> Result<Command, ParseError> {
    if let Some((&"perft", rest)) = args.split_first() {
        return parse_perft(rest);
    }
    let mut params = GoParams::default();
    let mut problems = Vec::new();
    let mut args = args;
    while let Some((keyword, rest)) = args.split_first() {
        args = rest;
        match *keyword {
            "searchmoves" => {
                let count = args.iter().take_while(|t| !is_go_keyword(t)).count();
                let (moves, rest) = args.split_at(count);
                for token in moves {
                    match parse_move(token) {
                        Ok(mv) => params.searchmoves.push(mv),
                        Err(problem) => problems.push(problem),
                    }
                }
                args = rest;
            }
            "ponder" => params.ponder = true,
            "infinite" => params.infinite = true,
            "wtime" => keep(
                &mut params.wtime,
                take_time(keyword, &mut args),
                &mut problems,
            ),
            "btime" => keep(
                &mut params.btime,
                take_time(keyword, &mut args),
                &mut problems,
            ),
            "winc" => keep(
                &mut params.winc,
                take_time(keyword, &mut args),
                &mut problems,
            ),
            "binc" => keep(
                &mut params.binc,
                take_time(keyword, &mut args),
                &mut problems,
            ),
            "movetime" => keep(
                &mut params.movetime,
                take_time(keyword, &mut args),
                &mut problems,
            ),
            "movestogo" => keep(
                &mut params.movestogo,
                take_number(keyword, &mut args),
                &mut problems,
            ),
            "depth" => keep(
                &mut params.depth,
                take_number(keyword, &mut args),
                &mut problems,
            ),
            "nodes" => keep(
                &mut params.nodes,
                take_number(keyword, &mut args),
                &mut problems,
            ),
            "mate" => keep(
                &mut params.mate,
                take_number(keyword, &mut args),
                &mut problems,
            ),
            other => {
                problems.push(unexpected("go", other));
                let skipped = args.iter().take_while(|t| !is_go_keyword(t)).count();
                args = &args[skipped..];
            }
        }
    }
    params.problems = problems;
    Ok(Command::Go(params))
}

/// Stores a parameter's value, or records why it was left out.
fn keep<T>(slot: &mut Option<T>, value: Result<T, ParseError>, problems: &mut Vec<ParseError>) {
    match value {
        Ok(value) => *slot = Some(value),
        Err(problem) => problems.push(problem),
    }
}

/// `perft <depth>` (also reached from `go perft <depth>`).
fn parse_perft(args: &[&str]) -> Result<Command, ParseError> {
    let mut args = args;
    let depth = take_number("perft", &mut args)?;
    no_more("perft", args).map(|()| Command::Perft { depth })
}

/// `genfens <count> seed <seed> book <None|path> [extra ...]`, OpenBench's request for
/// opening positions. A book named `None` in any case means no book (as OpenBench's
/// client spells it); the extra words are left to the engine.
fn parse_genfens(args: &[&str]) -> Result<Command, ParseError> {
    let mut args = args;
    let count = take_number("genfens", &mut args)?;
    take_keyword("genfens", "seed", &mut args)?;
    let seed = take_number("seed", &mut args)?;
    take_keyword("genfens", "book", &mut args)?;
    let (book, extra) = args
        .split_first()
        .ok_or_else(|| missing("genfens", "book path or None"))?;
    Ok(Command::Genfens(GenfensParams {
        count,
        seed,
        book: (!book.eq_ignore_ascii_case("none")).then(|| (*book).to_string()),
        extra: extra.iter().map(|word| (*word).to_string()).collect(),
    }))
}

/// Takes `keyword`, which must come next.
fn take_keyword(command: &str, keyword: &str, args: &mut &[&str]) -> Result<(), ParseError> {
    match args.split_first() {
        Some((token, rest)) if *token == keyword => {
            *args = rest;
            Ok(())
        }
        Some((token, _)) => Err(unexpected(command, token)),
        None => Err(missing(command, keyword)),
    }
}

/// `bench [depth]`.
fn parse_bench(args: &[&str]) -> Result<Command, ParseError> {
    let mut args = args;
    let depth = if args.is_empty() {
        None
    } else {
        Some(take_number("bench", &mut args)?)
    };
    no_more("bench", args).map(|()| Command::Bench { depth })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokenize_splits_on_any_whitespace_run() {
        assert_eq!(tokenize(""), Vec::<&str>::new());
        assert_eq!(tokenize(" \t\r\n"), Vec::<&str>::new());
        assert_eq!(tokenize("a  b\tc\r"), vec!["a", "b", "c"]);
        assert_eq!(tokenize("\tgo\t\tdepth 5 \r\n"), vec!["go", "depth", "5"]);
        // Multi-byte characters stay inside their token.
        assert_eq!(tokenize("é€ ü\t日本"), vec!["é€", "ü", "日本"]);
    }

    #[test]
    fn numbers_are_plain_decimal_digits() {
        assert_eq!(number::<u32>("depth", "42"), Ok(42));
        assert_eq!(number::<u64>("nodes", "0"), Ok(0));
        for bad in ["", "-1", "+1", "1e3", "0x10", " 1", "١", "4294967296"] {
            assert_eq!(number::<u32>("depth", bad), Err(bad_number("depth", bad)));
        }
    }

    #[test]
    fn every_command_keyword_is_dispatched() {
        for keyword in COMMANDS {
            assert!(
                !matches!(
                    parse_known_command(keyword, &[]),
                    Err(ParseError::UnknownCommand(_))
                ),
                "{keyword}"
            );
        }
    }

    #[test]
    fn go_keywords_are_all_understood_by_go() {
        for keyword in GO_KEYWORDS {
            let understood = match parse_go(&[keyword, "1"]) {
                Ok(Command::Go(params)) => !params.problems.iter().any(
                    |p| matches!(p, ParseError::UnexpectedToken { token, .. } if token == keyword),
                ),
                Ok(_) => true,
                Err(_) => false,
            };
            assert!(understood, "{keyword}");
        }
    }
}
