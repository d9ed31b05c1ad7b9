//! Every command, every `go` parameter and the malformed inputs, through the public API.

use protocol::{
    parse_command, Command, GoParams, ParseError, PositionStart, Promotion, Square, UciMove,
};

fn mv(text: &str) -> UciMove {
    match text.parse() {
        Ok(mv) => mv,
        Err(err) => panic!("test move {text:?} should parse: {err}"),
    }
}

fn ok(line: &str) -> Command {
    match parse_command(line) {
        Ok(command) => command,
        Err(err) => panic!("{line:?} should parse, got error: {err}"),
    }
}

fn err(line: &str) -> ParseError {
    match parse_command(line) {
        Ok(command) => panic!("{line:?} should be rejected, got {command:?}"),
        Err(err) => err,
    }
}

fn go(line: &str) -> GoParams {
    match ok(line) {
        Command::Go(params) => params,
        other => panic!("{line:?} should be a go command, got {other:?}"),
    }
}

/// The one refused part of a `go` line (which parses: a `go` is never refused whole).
fn go_err(line: &str) -> ParseError {
    let params = go(line);
    match params.problems.as_slice() {
        [problem] => problem.clone(),
        problems => panic!("{line:?} should have one problem, got {problems:?}"),
    }
}

fn unexpected(command: &str, token: &str) -> ParseError {
    ParseError::UnexpectedToken {
        command: command.into(),
        token: token.into(),
    }
}

fn bad_number(parameter: &str, token: &str) -> ParseError {
    ParseError::BadNumber {
        parameter: parameter.into(),
        token: token.into(),
    }
}

fn missing(command: &str, what: &str) -> ParseError {
    ParseError::Missing {
        command: command.into(),
        what: what.into(),
    }
}

// --- Commands without arguments --------------------------------------------------

#[test]
fn simple_commands() {
    assert_eq!(ok("uci"), Command::Uci);
    assert_eq!(ok("isready"), Command::IsReady);
    assert_eq!(ok("ucinewgame"), Command::UciNewGame);
    assert_eq!(ok("stop"), Command::Stop);
    assert_eq!(ok("ponderhit"), Command::PonderHit);
    assert_eq!(ok("quit"), Command::Quit);
    assert_eq!(ok("d"), Command::Display);
    assert_eq!(ok("eval"), Command::Eval);
    assert_eq!(ok("help"), Command::Help);
}

#[test]
fn trailing_garbage_after_argumentless_commands() {
    assert_eq!(err("ucinewgame 1"), unexpected("ucinewgame", "1"));
    // The commands a GUI waits on (for `uciok`, `readyok`, `bestmove`, the exit) still
    // hold, their first stray token reported.
    let ignoring = |command: Command, token: &str| Command::Ignoring {
        command: Box::new(command),
        token: token.to_string(),
    };
    assert_eq!(ok("uci please"), ignoring(Command::Uci, "please"));
    assert_eq!(ok("isready now"), ignoring(Command::IsReady, "now"));
    assert_eq!(ok("stop stop"), ignoring(Command::Stop, "stop"));
    assert_eq!(ok("ponderhit x y"), ignoring(Command::PonderHit, "x"));
    assert_eq!(ok("quit now"), ignoring(Command::Quit, "now"));
    assert_eq!(ok("isready now").to_string(), "isready now");
    assert_eq!(err("d board"), unexpected("d", "board"));
    assert_eq!(err("eval x"), unexpected("eval", "x"));
}

#[test]
fn keywords_are_case_sensitive() {
    assert_eq!(err("UCI"), ParseError::UnknownCommand("UCI".into()));
    assert_eq!(err("IsReady"), ParseError::UnknownCommand("IsReady".into()));
    assert_eq!(err("position STARTPOS"), unexpected("position", "STARTPOS"));
    assert_eq!(go_err("go Depth 3"), unexpected("go", "Depth"));
}

// --- Whitespace, empty lines, unknown and leading junk ----------------------------

#[test]
fn empty_lines() {
    assert_eq!(err(""), ParseError::Empty);
    assert_eq!(err("   "), ParseError::Empty);
    assert_eq!(err("\t \t"), ParseError::Empty);
    assert_eq!(err("\r"), ParseError::Empty);
    assert_eq!(err(" \r\n"), ParseError::Empty);
}

#[test]
fn tabs_multiple_spaces_and_carriage_returns() {
    assert_eq!(ok("  uci  "), Command::Uci);
    assert_eq!(ok("isready\r"), Command::IsReady);
    assert_eq!(ok("\tisready\t\r"), Command::IsReady);
    assert_eq!(ok("debug\t \toff"), Command::Debug(false));
    assert_eq!(
        go("go \t wtime   1000\t\tbtime 2000   \r"),
        GoParams {
            wtime: Some(1000),
            btime: Some(2000),
            ..GoParams::default()
        }
    );
    assert_eq!(
        ok("setoption   name\tClear    Hash"),
        Command::SetOption {
            name: "Clear Hash".into(),
            value: None
        }
    );
    assert_eq!(
        ok("position\tfen  8/8/8/8/8/8/8/K6k   w - -  0 1\tmoves  a1a2\r"),
        Command::Position {
            start: PositionStart::Fen("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
            moves: vec![mv("a1a2")],
        }
    );
}

#[test]
fn unknown_command() {
    assert_eq!(err("hello"), ParseError::UnknownCommand("hello".into()));
    assert_eq!(
        err("hello world"),
        ParseError::UnknownCommand("hello".into())
    );
    assert_eq!(err("  xyzzy  "), ParseError::UnknownCommand("xyzzy".into()));
    assert_eq!(err("é"), ParseError::UnknownCommand("é".into()));
}

#[test]
fn leading_junk_tokens_are_skipped() {
    assert_eq!(ok("joho debug on"), Command::Debug(true));
    assert_eq!(ok("joho joho isready"), Command::IsReady);
    assert_eq!(ok("1 2 3 go depth 4"), go_depth(4));
    assert_eq!(ok("ÿ€ uci"), Command::Uci);
    // Only tokens before the command are skipped; its own arguments are checked.
    assert_eq!(err("joho eval now"), unexpected("eval", "now"));
}

fn go_depth(depth: u32) -> Command {
    Command::Go(GoParams {
        depth: Some(depth),
        ..GoParams::default()
    })
}

// --- debug ------------------------------------------------------------------------

#[test]
fn debug() {
    assert_eq!(ok("debug on"), Command::Debug(true));
    assert_eq!(ok("debug off"), Command::Debug(false));
    assert_eq!(ok("debug"), Command::Debug(true));
    assert_eq!(err("debug maybe"), unexpected("debug", "maybe"));
    assert_eq!(err("debug ON"), unexpected("debug", "ON"));
    assert_eq!(err("debug on off"), unexpected("debug", "off"));
}

// --- setoption ----------------------------------------------------------------------

#[test]
fn setoption_with_value() {
    assert_eq!(
        ok("setoption name Hash value 64"),
        Command::SetOption {
            name: "Hash".into(),
            value: Some("64".into())
        }
    );
}

#[test]
fn setoption_names_and_values_with_spaces() {
    assert_eq!(
        ok("setoption name Syzygy  Path value /a b/c   d"),
        Command::SetOption {
            name: "Syzygy Path".into(),
            value: Some("/a b/c d".into())
        }
    );
}

#[test]
fn setoption_without_value_is_a_button() {
    assert_eq!(
        ok("setoption name Clear Hash"),
        Command::SetOption {
            name: "Clear Hash".into(),
            value: None
        }
    );
}

#[test]
fn setoption_with_empty_value() {
    assert_eq!(
        ok("setoption name SyzygyPath value"),
        Command::SetOption {
            name: "SyzygyPath".into(),
            value: Some(String::new())
        }
    );
}

#[test]
fn setoption_value_may_contain_the_word_value() {
    assert_eq!(
        ok("setoption name X value a value b"),
        Command::SetOption {
            name: "X".into(),
            value: Some("a value b".into())
        }
    );
}

#[test]
fn setoption_without_name() {
    assert_eq!(err("setoption"), missing("setoption", "name"));
    assert_eq!(err("setoption name"), missing("setoption", "name"));
    assert_eq!(err("setoption name value 3"), missing("setoption", "name"));
    assert_eq!(err("setoption value 3"), missing("setoption", "name"));
    assert_eq!(err("setoption Hash 3"), unexpected("setoption", "Hash"));
}

// --- register -------------------------------------------------------------------------

#[test]
fn register() {
    assert_eq!(ok("register later"), Command::Register("later".into()));
    assert_eq!(
        ok("register name  Stefan MK   code 4359874324"),
        Command::Register("name Stefan MK code 4359874324".into())
    );
    assert_eq!(ok("register"), Command::Register(String::new()));
}

// --- position -------------------------------------------------------------------------

#[test]
fn position_startpos() {
    assert_eq!(
        ok("position startpos"),
        Command::Position {
            start: PositionStart::StartPos,
            moves: vec![]
        }
    );
    assert_eq!(
        ok("position startpos moves"),
        Command::Position {
            start: PositionStart::StartPos,
            moves: vec![]
        }
    );
    assert_eq!(
        ok("position startpos moves e2e4 e7e5 g1f3"),
        Command::Position {
            start: PositionStart::StartPos,
            moves: vec![mv("e2e4"), mv("e7e5"), mv("g1f3")]
        }
    );
}

#[test]
fn position_fen() {
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    assert_eq!(
        ok(&format!("position fen {fen}")),
        Command::Position {
            start: PositionStart::Fen(fen.into()),
            moves: vec![]
        }
    );
    assert_eq!(
        ok(&format!("position fen {fen} moves e7e5 0000")),
        Command::Position {
            start: PositionStart::Fen(fen.into()),
            moves: vec![mv("e7e5"), UciMove::Null]
        }
    );
    // The FEN is not validated here.
    assert_eq!(
        ok("position fen not a fen"),
        Command::Position {
            start: PositionStart::Fen("not a fen".into()),
            moves: vec![]
        }
    );
}

#[test]
fn malformed_positions() {
    assert_eq!(err("position"), missing("position", "startpos or fen"));
    assert_eq!(err("position fen"), missing("position", "FEN"));
    assert_eq!(err("position fen moves e2e4"), missing("position", "FEN"));
    assert_eq!(
        err("position middlegame"),
        unexpected("position", "middlegame")
    );
    assert_eq!(
        err("position startpos e2e4"),
        unexpected("position", "e2e4")
    );
    assert_eq!(
        err("position startpos moves e2e4 e9e5"),
        ParseError::BadMove("e9e5".into())
    );
    assert_eq!(
        err("position startpos moves e2e4 moves e7e5"),
        ParseError::BadMove("moves".into())
    );
}

// --- moves ------------------------------------------------------------------------

#[test]
fn move_syntax() {
    let sq = |file, rank| Square::new(file, rank).unwrap_or_else(|| panic!("square"));
    assert_eq!(
        mv("a1h8"),
        UciMove::Normal {
            from: sq(0, 0),
            to: sq(7, 7),
            promotion: None
        }
    );
    assert_eq!(
        mv("e7e8q"),
        UciMove::Normal {
            from: sq(4, 6),
            to: sq(4, 7),
            promotion: Some(Promotion::Queen)
        }
    );
    assert_eq!(mv("e7e8Q"), mv("e7e8q"));
    assert_eq!(mv("b2b1N"), mv("b2b1n"));
    for (text, promotion) in [
        ("a7a8n", Promotion::Knight),
        ("a7a8b", Promotion::Bishop),
        ("a7a8r", Promotion::Rook),
        ("a7a8q", Promotion::Queen),
    ] {
        assert_eq!(
            mv(text),
            UciMove::Normal {
                from: sq(0, 6),
                to: sq(0, 7),
                promotion: Some(promotion)
            }
        );
    }
    assert_eq!(mv("0000"), UciMove::Null);
    for bad in [
        "e9e5", "i2i4", "e2e", "e2e4k", "e2e4qq", "E2E4", "e2-e4", "000", "00000", "e2e4 ", "e0e1",
        "é2e4", "",
    ] {
        assert_eq!(
            bad.parse::<UciMove>(),
            Err(ParseError::BadMove(bad.into())),
            "{bad:?}"
        );
    }
}

#[test]
fn moves_render_back() {
    for text in ["e2e4", "e7e8q", "a1h8", "h7h8n", "0000"] {
        assert_eq!(mv(text).to_string(), text);
    }
    assert_eq!(mv("e7e8Q").to_string(), "e7e8q");
}

// --- go ---------------------------------------------------------------------------

#[test]
fn bare_go() {
    assert_eq!(go("go"), GoParams::default());
}

#[test]
fn go_each_parameter() {
    let d = GoParams::default;
    let cases: Vec<(&str, GoParams)> = vec![
        (
            "go searchmoves e2e4 d2d4",
            GoParams {
                searchmoves: vec![mv("e2e4"), mv("d2d4")],
                ..d()
            },
        ),
        (
            "go ponder",
            GoParams {
                ponder: true,
                ..d()
            },
        ),
        (
            "go wtime 300000",
            GoParams {
                wtime: Some(300_000),
                ..d()
            },
        ),
        (
            "go btime 299000",
            GoParams {
                btime: Some(299_000),
                ..d()
            },
        ),
        (
            "go winc 2000",
            GoParams {
                winc: Some(2000),
                ..d()
            },
        ),
        (
            "go binc 1000",
            GoParams {
                binc: Some(1000),
                ..d()
            },
        ),
        (
            "go movestogo 40",
            GoParams {
                movestogo: Some(40),
                ..d()
            },
        ),
        (
            "go depth 12",
            GoParams {
                depth: Some(12),
                ..d()
            },
        ),
        (
            "go nodes 1000000",
            GoParams {
                nodes: Some(1_000_000),
                ..d()
            },
        ),
        (
            "go mate 3",
            GoParams {
                mate: Some(3),
                ..d()
            },
        ),
        (
            "go movetime 5000",
            GoParams {
                movetime: Some(5000),
                ..d()
            },
        ),
        (
            "go infinite",
            GoParams {
                infinite: true,
                ..d()
            },
        ),
    ];
    for (line, expected) in cases {
        assert_eq!(go(line), expected, "{line:?}");
    }
}

#[test]
fn go_mixed_parameters_in_any_order() {
    let expected = GoParams {
        problems: Vec::new(),
        searchmoves: vec![mv("e2e4"), mv("g1f3")],
        ponder: true,
        wtime: Some(1000),
        btime: Some(2000),
        winc: Some(10),
        binc: Some(20),
        movestogo: Some(5),
        depth: Some(7),
        nodes: Some(12345),
        mate: Some(2),
        movetime: Some(300),
        infinite: true,
    };
    assert_eq!(
        go("go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5 depth 7 nodes 12345 mate 2 movetime 300 infinite ponder searchmoves e2e4 g1f3"),
        expected
    );
    assert_eq!(
        go("go infinite searchmoves e2e4 g1f3 movetime 300 ponder mate 2 binc 20 nodes 12345 winc 10 depth 7 btime 2000 movestogo 5 wtime 1000"),
        expected
    );
}

#[test]
fn go_searchmoves_stops_at_the_next_keyword() {
    assert_eq!(
        go("go searchmoves e2e4 e7e8q depth 3"),
        GoParams {
            searchmoves: vec![mv("e2e4"), mv("e7e8q")],
            depth: Some(3),
            ..GoParams::default()
        }
    );
    assert_eq!(
        go("go searchmoves depth 3"),
        GoParams {
            depth: Some(3),
            ..GoParams::default()
        }
    );
    assert_eq!(
        go_err("go searchmoves e2e4 e2e9 depth 3"),
        ParseError::BadMove("e2e9".into())
    );
    assert_eq!(
        go_err("go searchmoves e2e4 fast"),
        ParseError::BadMove("fast".into())
    );
}

#[test]
fn go_limits_at_their_maximum() {
    assert_eq!(
        go("go nodes 18446744073709551615 depth 4294967295"),
        GoParams {
            nodes: Some(u64::MAX),
            depth: Some(u32::MAX),
            ..GoParams::default()
        }
    );
    assert_eq!(go("go depth 0007").depth, Some(7));
}

#[test]
fn go_perft() {
    assert_eq!(ok("go perft 5"), Command::Perft { depth: 5 });
    assert_eq!(ok("go perft 0"), Command::Perft { depth: 0 });
    assert_eq!(err("go perft"), bad_number("perft", ""));
    assert_eq!(err("go perft x"), bad_number("perft", "x"));
    assert_eq!(err("go perft 5 depth 3"), unexpected("perft", "depth"));
    assert_eq!(go_err("go depth 3 perft 5"), unexpected("go", "perft"));
}

#[test]
fn go_bad_numbers() {
    assert_eq!(go_err("go depth abc"), bad_number("depth", "abc"));
    assert_eq!(go_err("go depth -5"), bad_number("depth", "-5"));
    assert_eq!(go_err("go wtime -abc"), bad_number("wtime", "-abc"));
    assert_eq!(go_err("go wtime --5"), bad_number("wtime", "--5"));
    assert_eq!(go_err("go wtime +5"), bad_number("wtime", "+5"));
    assert_eq!(go_err("go movetime 1.5"), bad_number("movetime", "1.5"));
    assert_eq!(go_err("go movetime ５"), bad_number("movetime", "５"));
    assert_eq!(
        go_err("go nodes 99999999999999999999999"),
        bad_number("nodes", "99999999999999999999999")
    );
    // Out of range for a u32 field, though fine for a u64 one.
    assert_eq!(
        go_err("go depth 4294967296"),
        bad_number("depth", "4294967296")
    );
    assert_eq!(
        go_err("go movestogo 4294967296"),
        bad_number("movestogo", "4294967296")
    );
    assert_eq!(
        go_err("go mate 4294967296"),
        bad_number("mate", "4294967296")
    );
    assert_eq!(
        go_err("go btime 18446744073709551616"),
        bad_number("btime", "18446744073709551616")
    );
    for keyword in [
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "depth",
        "nodes",
        "mate",
        "movetime",
    ] {
        assert_eq!(
            go_err(&format!("go {keyword}")),
            bad_number(keyword, ""),
            "{keyword}"
        );
        assert_eq!(
            go_err(&format!("go {keyword} x")),
            bad_number(keyword, "x"),
            "{keyword}"
        );
    }
    // The value slot takes the next token even when it is a keyword.
    assert_eq!(go_err("go depth infinite"), bad_number("depth", "infinite"));
}

#[test]
fn go_unknown_token() {
    assert_eq!(go_err("go fast"), unexpected("go", "fast"));
    assert_eq!(go_err("go depth 3 please"), unexpected("go", "please"));
    assert_eq!(go_err("go 5"), unexpected("go", "5"));
}

/// A `go` is never refused whole: each faulty part is left out and reported, the rest kept.
#[test]
fn go_keeps_what_is_valid_and_reports_the_rest() {
    let params = go(
        "go wtime abc btime 1000 bogus 7 depth x nodes 5 searchmoves e2e4 zz a1a1 movetime -5 infinite",
    );
    assert_eq!(
        params.problems,
        vec![
            bad_number("wtime", "abc"),
            unexpected("go", "bogus"),
            bad_number("depth", "x"),
            ParseError::BadMove("zz".into()),
        ]
    );
    assert_eq!(params.wtime, None);
    assert_eq!(params.btime, Some(1000));
    assert_eq!(params.depth, None);
    assert_eq!(params.nodes, Some(5));
    assert_eq!(params.searchmoves, vec![mv("e2e4"), mv("a1a1")]);
    // A negative time counts as zero, movetime included.
    assert_eq!(params.movetime, Some(0));
    assert!(params.infinite);
    // A bad repeated value leaves the earlier one in place.
    assert_eq!(go("go depth 4 depth x").depth, Some(4));
    // `go perft` is not a search: it is still refused whole.
    assert_eq!(err("go perft x"), bad_number("perft", "x"));
}

#[test]
fn go_repeated_parameter_keeps_the_last() {
    assert_eq!(go("go depth 3 depth 5").depth, Some(5));
}

// --- perft and bench ----------------------------------------------------------------

#[test]
fn perft() {
    assert_eq!(ok("perft 6"), Command::Perft { depth: 6 });
    assert_eq!(ok("perft 4294967295"), Command::Perft { depth: u32::MAX });
    assert_eq!(err("perft"), bad_number("perft", ""));
    assert_eq!(err("perft -1"), bad_number("perft", "-1"));
    assert_eq!(err("perft 4294967296"), bad_number("perft", "4294967296"));
    assert_eq!(err("perft 3 4"), unexpected("perft", "4"));
}

#[test]
fn bench() {
    assert_eq!(ok("bench"), Command::Bench { depth: None });
    assert_eq!(ok("bench 9"), Command::Bench { depth: Some(9) });
    assert_eq!(err("bench deep"), bad_number("bench", "deep"));
    assert_eq!(err("bench 9 10"), unexpected("bench", "10"));
}

#[test]
fn genfens() {
    let params = |line: &str| match ok(line) {
        Command::Genfens(params) => params,
        other => panic!("{line}: {other:?}"),
    };
    let none = params("genfens 16 seed 7 book None");
    assert_eq!(
        (none.count, none.seed, none.book, none.extra.len()),
        (16, 7, None, 0)
    );
    assert_eq!(params("genfens 1 seed 2 book NONE ").book, None);
    let book = params("genfens 3 seed 18446744073709551615 book Books/a.epd plies 4 nodes 9");
    assert_eq!(book.seed, u64::MAX);
    assert_eq!(book.book.as_deref(), Some("Books/a.epd"));
    assert_eq!(book.extra, ["plies", "4", "nodes", "9"]);
    assert_eq!(err("genfens"), bad_number("genfens", ""));
    assert_eq!(
        err("genfens -5 seed 1 book None"),
        bad_number("genfens", "-5")
    );
    assert_eq!(
        err("genfens x seed 1 book None"),
        bad_number("genfens", "x")
    );
    assert_eq!(err("genfens 5 seed -1 book None"), bad_number("seed", "-1"));
    assert_eq!(err("genfens 5 book None"), unexpected("genfens", "book"));
    assert_eq!(err("genfens 5 seed 1"), missing("genfens", "book"));
    assert_eq!(
        err("genfens 5 seed 1 book"),
        missing("genfens", "book path or None")
    );
}

// --- error messages ------------------------------------------------------------------

#[test]
fn error_messages() {
    assert_eq!(err("").to_string(), "empty command");
    assert_eq!(err("hello").to_string(), "unknown command 'hello'");
    assert_eq!(err("setoption").to_string(), "setoption: missing name");
    assert_eq!(err("eval now").to_string(), "eval: unexpected token 'now'");
    assert_eq!(
        go_err("go depth abc").to_string(),
        "depth: 'abc' is not a valid number"
    );
    assert_eq!(go_err("go depth").to_string(), "depth: missing number");
    assert_eq!(
        err("position startpos moves e9e5").to_string(),
        "'e9e5' is not a move in UCI notation"
    );
}

#[test]
fn negative_clock_readings_count_as_zero() {
    // GUIs send these once a clock has run past zero; refusing `go` would lose the game.
    let Ok(Command::Go(params)) = parse_command("go wtime -150 btime 1000 winc -1 binc 0") else {
        panic!("a negative clock reading must parse");
    };
    assert_eq!(params.wtime, Some(0));
    assert_eq!(params.btime, Some(1000));
    assert_eq!(params.winc, Some(0));
}
