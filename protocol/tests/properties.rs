//! Property tests: the parser never panics, and valid commands survive a trip through
//! their text.

use proptest::prelude::*;
use proptest::sample::select;

use protocol::{
    parse_command, Command, GenfensParams, GoParams, PositionStart, Promotion, Square, UciMove,
};

const WORDS: &[&str] = &[
    // commands
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
    "bench",
    "perft",
    "genfens",
    // their arguments
    "on",
    "off",
    "name",
    "value",
    "startpos",
    "fen",
    "moves",
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
    // near misses
    "0000",
    "e2e4",
    "e7e8q",
    "e7e8Q",
    "e9e5",
    "e2e",
    "-5",
    "+5",
    "",
    "é",
    "€",
    "５",
    "\u{0}",
];

fn square() -> impl Strategy<Value = Square> {
    (0u8..8, 0u8..8).prop_filter_map("square", |(file, rank)| Square::new(file, rank))
}

fn uci_move() -> impl Strategy<Value = UciMove> {
    let promotion = prop_oneof![
        Just(None),
        Just(Some(Promotion::Knight)),
        Just(Some(Promotion::Bishop)),
        Just(Some(Promotion::Rook)),
        Just(Some(Promotion::Queen)),
    ];
    prop_oneof![
        1 => Just(UciMove::Null),
        9 => (square(), square(), promotion).prop_map(|(from, to, promotion)| UciMove::Normal {
            from,
            to,
            promotion
        }),
    ]
}

/// Any token: a keyword, a number (maybe huge or negative), a move, or random text.
fn any_token() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => select(WORDS).prop_map(str::to_string),
        2 => any::<u64>().prop_map(|n| n.to_string()),
        1 => any::<i64>().prop_map(|n| n.to_string()),
        1 => "[0-9]{15,30}",
        2 => uci_move().prop_map(|mv| mv.to_string()),
        1 => "[a-i0-9]{4,5}",
        2 => "\\PC{0,6}",
        1 => any::<String>(),
    ]
}

/// An argument-like token: mostly keywords, small numbers and moves, some junk.
fn argument_token() -> impl Strategy<Value = String> {
    prop_oneof![
        5 => select(&WORDS[15..]).prop_map(str::to_string),
        3 => (0u64..100).prop_map(|n| n.to_string()),
        4 => uci_move().prop_map(|mv| mv.to_string()),
        1 => any_token(),
    ]
}

/// A command keyword followed by plausible arguments: reaches deep into the grammar.
fn command_line() -> impl Strategy<Value = String> {
    (
        select(&WORDS[..15]),
        prop::collection::vec(argument_token(), 0..12),
        prop::collection::vec(separator(), 1..4),
        any::<bool>(),
    )
        .prop_map(|(command, arguments, separators, cr)| {
            let mut tokens = vec![command.to_string()];
            tokens.extend(arguments);
            join_randomly(tokens, separators, cr)
        })
}

/// What to do to one token of a valid command.
#[derive(Debug, Clone)]
enum Mutation {
    Insert(prop::sample::Index, String),
    Replace(prop::sample::Index, String),
    Delete(prop::sample::Index),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<prop::sample::Index>(), argument_token())
            .prop_map(|(at, t)| Mutation::Insert(at, t)),
        (any::<prop::sample::Index>(), argument_token())
            .prop_map(|(at, t)| Mutation::Replace(at, t)),
        any::<prop::sample::Index>().prop_map(Mutation::Delete),
    ]
}

/// A valid command with zero to two tokens inserted, replaced or deleted: the
/// near misses that exercise every branch of the grammar.
fn mutated_command_line() -> impl Strategy<Value = String> {
    (
        any_command(),
        prop::collection::vec(mutation(), 0..3),
        prop::collection::vec(separator(), 1..4),
        any::<bool>(),
    )
        .prop_map(|(command, mutations, separators, cr)| {
            let mut tokens: Vec<String> =
                command.to_string().split(' ').map(str::to_string).collect();
            for mutation in mutations {
                match mutation {
                    Mutation::Insert(at, token) => tokens.insert(at.index(tokens.len() + 1), token),
                    Mutation::Replace(at, token) if !tokens.is_empty() => {
                        let at = at.index(tokens.len());
                        tokens[at] = token;
                    }
                    Mutation::Delete(at) if !tokens.is_empty() => {
                        tokens.remove(at.index(tokens.len()));
                    }
                    _ => {}
                }
            }
            join_randomly(tokens, separators, cr)
        })
}

fn separator() -> impl Strategy<Value = String> {
    "[ \t]{1,3}"
}

/// Joins tokens with random runs of spaces and tabs, maybe with a trailing `\r`.
fn join_randomly(tokens: Vec<String>, separators: Vec<String>, cr: bool) -> String {
    let mut line = String::new();
    for (index, token) in tokens.iter().enumerate() {
        if index > 0 {
            line.push_str(
                separators
                    .get(index % separators.len().max(1))
                    .map_or(" ", |s| s),
            );
        }
        line.push_str(token);
    }
    if cr {
        line.push('\r');
    }
    line
}

fn token_line() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(any_token(), 0..14),
        prop::collection::vec(separator(), 1..4),
        any::<bool>(),
    )
        .prop_map(|(tokens, separators, cr)| join_randomly(tokens, separators, cr))
}

/// A FEN-like token: anything without whitespace that is not the `moves` keyword.
fn fen_token() -> impl Strategy<Value = String> {
    prop_oneof![
        "[1-8pnbrqkPNBRQK/]{1,20}",
        "[wb-]",
        "[0-9]{1,3}",
        "[^ \t\r\n]{1,5}",
    ]
    .prop_filter("not the moves keyword", |token| token != "moves")
}

fn position() -> impl Strategy<Value = Command> {
    let start = prop_oneof![
        Just(PositionStart::StartPos),
        prop::collection::vec(fen_token(), 1..8)
            .prop_map(|fields| PositionStart::Fen(fields.join(" "))),
    ];
    (start, prop::collection::vec(uci_move(), 0..10))
        .prop_map(|(start, moves)| Command::Position { start, moves })
}

fn go_params() -> impl Strategy<Value = GoParams> {
    (
        prop::collection::vec(uci_move(), 0..5),
        any::<bool>(),
        any::<bool>(),
        prop::array::uniform5(any::<Option<u64>>()),
        prop::array::uniform3(any::<Option<u32>>()),
    )
        .prop_map(
            |(
                searchmoves,
                ponder,
                infinite,
                [wtime, btime, winc, binc, nodes],
                [movestogo, depth, mate],
            )| GoParams {
                searchmoves,
                ponder,
                wtime,
                btime,
                winc,
                binc,
                movestogo,
                depth,
                nodes,
                mate,
                movetime: wtime.map(|t| t / 7),
                infinite,
                problems: Vec::new(),
            },
        )
}

/// The `go` parameters as groups of tokens, one group per parameter.
fn go_groups(params: &GoParams) -> Vec<Vec<String>> {
    let mut groups: Vec<Vec<String>> = Vec::new();
    if !params.searchmoves.is_empty() {
        let mut group = vec!["searchmoves".to_string()];
        group.extend(params.searchmoves.iter().map(UciMove::to_string));
        groups.push(group);
    }
    if params.ponder {
        groups.push(vec!["ponder".into()]);
    }
    if params.infinite {
        groups.push(vec!["infinite".into()]);
    }
    let numbers = [
        ("wtime", params.wtime),
        ("btime", params.btime),
        ("winc", params.winc),
        ("binc", params.binc),
        ("movestogo", params.movestogo.map(u64::from)),
        ("depth", params.depth.map(u64::from)),
        ("nodes", params.nodes),
        ("mate", params.mate.map(u64::from)),
        ("movetime", params.movetime),
    ];
    for (keyword, number) in numbers {
        if let Some(number) = number {
            groups.push(vec![keyword.to_string(), number.to_string()]);
        }
    }
    groups
}

fn any_command() -> impl Strategy<Value = Command> {
    let name = prop::collection::vec("[A-Za-z_]{1,8}", 1..4)
        .prop_filter("no value keyword", |words| {
            words.iter().all(|w| w != "value")
        })
        .prop_map(|words| words.join(" "));
    let option_value = prop::option::of(
        prop::collection::vec("[^ \t\r\n]{1,6}", 0..4).prop_map(|words| words.join(" ")),
    );
    prop_oneof![
        Just(Command::Uci),
        any::<bool>().prop_map(Command::Debug),
        Just(Command::IsReady),
        (name, option_value).prop_map(|(name, value)| Command::SetOption { name, value }),
        prop::collection::vec("[^ \t\r\n]{1,6}", 0..4)
            .prop_map(|words| Command::Register(words.join(" "))),
        Just(Command::UciNewGame),
        position(),
        go_params().prop_map(Command::Go),
        Just(Command::Stop),
        Just(Command::PonderHit),
        Just(Command::Quit),
        Just(Command::Display),
        Just(Command::Eval),
        Just(Command::Help),
        any::<Option<u32>>().prop_map(|depth| Command::Bench { depth }),
        any::<u32>().prop_map(|depth| Command::Perft { depth }),
        genfens(),
    ]
}

fn genfens() -> impl Strategy<Value = Command> {
    let book = prop::option::of(
        "[A-Za-z0-9_./-]{1,12}".prop_filter("not None", |path| !path.eq_ignore_ascii_case("none")),
    );
    (
        any::<u64>(),
        any::<u64>(),
        book,
        prop::collection::vec("[a-z0-9]{1,6}", 0..4),
    )
        .prop_map(|(count, seed, book, extra)| {
            Command::Genfens(GenfensParams {
                count,
                seed,
                book,
                extra,
            })
        })
}

/// An error message becomes one `info string error: ...` line: it must not break the line
/// (a line break would let input forge a protocol line), and quoting keeps it short
/// (tokens are cut at 40 characters) whatever the input's length.
fn error_is_one_short_line(message: &str) -> Result<(), TestCaseError> {
    prop_assert!(!message.contains(['\n', '\r']), "{:?}", message);
    prop_assert!(message.chars().count() <= 200, "{:?}", message);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn never_panics_on_arbitrary_strings(line in any::<String>()) {
        if let Err(err) = parse_command(&line) {
            error_is_one_short_line(&err.to_string())?;
        }
    }

    #[test]
    fn never_panics_on_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        let line = String::from_utf8_lossy(&bytes);
        if let Err(err) = parse_command(&line) {
            error_is_one_short_line(&err.to_string())?;
        }
    }

    /// Random sentences of keywords, numbers, moves and junk reach deep into the
    /// grammar. Whatever parses renders to text that parses back to the same command.
    #[test]
    fn keyword_soup_never_panics_and_reparses(
        line in prop_oneof![token_line(), command_line(), mutated_command_line()]
    ) {
        match parse_command(&line) {
            Ok(mut command) => {
                let text = command.to_string();
                // The refused parts of a `go` are not rendered.
                if let Command::Go(params) = &mut command {
                    params.problems.clear();
                }
                prop_assert_eq!(parse_command(&text), Ok(command), "{:?} -> {:?}", line, text);
            }
            Err(err) => error_is_one_short_line(&err.to_string())?,
        }
    }

    /// Commands prefixed with junk tokens (that are not commands) parse as if the
    /// junk were not there.
    #[test]
    fn leading_junk_is_skipped(
        junk in prop::collection::vec("[A-Zxyz]{1,6}|[0-9]{1,3}|\\PC{1,3}", 1..4)
            .prop_filter("no command keywords or whitespace", |words| words.iter().all(|w| {
                !WORDS[..15].contains(&w.as_str()) && !w.contains([' ', '\t', '\r', '\n'])
            })),
        command in any_command(),
    ) {
        let line = format!("{} {}", junk.join(" "), command);
        prop_assert_eq!(parse_command(&line), Ok(command));
    }

    #[test]
    fn commands_round_trip(command in any_command()) {
        prop_assert_eq!(parse_command(&command.to_string()), Ok(command));
    }

    /// `go` parameters in any order and with any spacing parse to the same value.
    #[test]
    fn go_round_trips_in_any_order(
        params in go_params(),
        order in any::<prop::sample::Index>(),
        rotate in any::<prop::sample::Index>(),
        separators in prop::collection::vec(separator(), 1..4),
        cr in any::<bool>(),
    ) {
        let mut groups = go_groups(&params);
        if !groups.is_empty() {
            // A cheap shuffle: swap one pair, then rotate.
            let len = groups.len();
            groups.swap(0, order.index(len));
            groups.rotate_left(rotate.index(len));
        }
        let mut tokens = vec!["go".to_string()];
        tokens.extend(groups.into_iter().flatten());
        let line = join_randomly(tokens, separators, cr);
        prop_assert_eq!(parse_command(&line), Ok(Command::Go(params)), "{:?}", line);
    }

    #[test]
    fn positions_round_trip(
        command in position(),
        separators in prop::collection::vec(separator(), 1..4),
        cr in any::<bool>(),
    ) {
        let tokens = command.to_string().split(' ').map(str::to_string).collect();
        let line = join_randomly(tokens, separators, cr);
        prop_assert_eq!(parse_command(&line), Ok(command), "{:?}", line);
    }

    #[test]
    fn numbers_round_trip(n in any::<u64>(), m in any::<u32>()) {
        let line = format!("go nodes {n} depth {m}");
        let expected = GoParams { nodes: Some(n), depth: Some(m), ..GoParams::default() };
        prop_assert_eq!(parse_command(&line), Ok(Command::Go(expected)));
        let too_big = u128::from(u64::MAX) + u128::from(n) + 1;
        let line = format!("go wtime {too_big}");
        let Ok(Command::Go(params)) = parse_command(&line) else {
            return Err(TestCaseError::fail(format!("{line:?} is not a go")));
        };
        prop_assert_eq!(params.wtime, None);
        prop_assert_eq!(params.problems.len(), 1);
    }

    #[test]
    fn moves_round_trip(mv in uci_move()) {
        prop_assert_eq!(mv.to_string().parse::<UciMove>(), Ok(mv));
    }
}
