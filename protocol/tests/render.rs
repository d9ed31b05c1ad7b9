//! The exact text of every response, every option type and every info field.

use protocol::{
    Command, GoParams, Info, OptionKind, OptionSpec, PositionStart, Response, Score, ScoreBound,
    UciMove, Wdl,
};

fn mv(text: &str) -> UciMove {
    text.parse()
        .unwrap_or_else(|err| panic!("test move {text:?}: {err}"))
}

fn option(name: &str, kind: OptionKind) -> String {
    Response::Option(OptionSpec {
        name: name.into(),
        kind,
    })
    .to_string()
}

fn info(info: Info) -> String {
    Response::Info(info).to_string()
}

#[test]
fn id_is_two_lines() {
    let id = Response::Id {
        name: "Cutoff 0.1.0".into(),
        author: "The Cutoff developers".into(),
    };
    assert_eq!(
        id.to_string(),
        "id name Cutoff 0.1.0\nid author The Cutoff developers"
    );
}

#[test]
fn simple_responses() {
    assert_eq!(Response::UciOk.to_string(), "uciok");
    assert_eq!(Response::ReadyOk.to_string(), "readyok");
}

#[test]
fn bestmove() {
    let best = Response::BestMove {
        best: mv("e2e4"),
        ponder: None,
    };
    assert_eq!(best.to_string(), "bestmove e2e4");
    let best = Response::BestMove {
        best: mv("e2e4"),
        ponder: Some(mv("e7e5")),
    };
    assert_eq!(best.to_string(), "bestmove e2e4 ponder e7e5");
    let best = Response::BestMove {
        best: mv("a7a8q"),
        ponder: None,
    };
    assert_eq!(best.to_string(), "bestmove a7a8q");
    let null = Response::BestMove {
        best: UciMove::Null,
        ponder: None,
    };
    assert_eq!(null.to_string(), "bestmove 0000");
}

#[test]
fn option_check() {
    assert_eq!(
        option("Ponder", OptionKind::Check { default: true }),
        "option name Ponder type check default true"
    );
    assert_eq!(
        option("UCI_ShowWDL", OptionKind::Check { default: false }),
        "option name UCI_ShowWDL type check default false"
    );
}

#[test]
fn option_spin() {
    assert_eq!(
        option(
            "Hash",
            OptionKind::Spin {
                default: 16,
                min: 1,
                max: 33554432
            }
        ),
        "option name Hash type spin default 16 min 1 max 33554432"
    );
    assert_eq!(
        option(
            "Contempt",
            OptionKind::Spin {
                default: 0,
                min: -100,
                max: 100
            }
        ),
        "option name Contempt type spin default 0 min -100 max 100"
    );
}

#[test]
fn option_combo() {
    assert_eq!(
        option(
            "Style",
            OptionKind::Combo {
                default: "Normal".into(),
                vars: vec!["Solid".into(), "Normal".into(), "Risky".into()]
            }
        ),
        "option name Style type combo default Normal var Solid var Normal var Risky"
    );
}

#[test]
fn option_button() {
    assert_eq!(
        option("Clear Hash", OptionKind::Button),
        "option name Clear Hash type button"
    );
}

#[test]
fn option_string() {
    assert_eq!(
        option(
            "SyzygyPath",
            OptionKind::String {
                default: String::new()
            }
        ),
        "option name SyzygyPath type string default <empty>"
    );
    assert_eq!(
        option(
            "Log File",
            OptionKind::String {
                default: "cutoff.log".into()
            }
        ),
        "option name Log File type string default cutoff.log"
    );
}

#[test]
fn info_each_field() {
    let d = Info::default;
    let cases: Vec<(Info, &str)> = vec![
        (
            Info {
                depth: Some(12),
                ..d()
            },
            "info depth 12",
        ),
        (
            Info {
                seldepth: Some(20),
                ..d()
            },
            "info seldepth 20",
        ),
        (
            Info {
                multipv: Some(2),
                ..d()
            },
            "info multipv 2",
        ),
        (
            Info {
                score: Some((Score::Cp(25), ScoreBound::Exact)),
                ..d()
            },
            "info score cp 25",
        ),
        (
            Info {
                score: Some((Score::Cp(-40), ScoreBound::Lower)),
                ..d()
            },
            "info score cp -40 lowerbound",
        ),
        (
            Info {
                score: Some((Score::Cp(13), ScoreBound::Upper)),
                ..d()
            },
            "info score cp 13 upperbound",
        ),
        (
            Info {
                score: Some((Score::Mate(3), ScoreBound::Exact)),
                ..d()
            },
            "info score mate 3",
        ),
        (
            Info {
                score: Some((Score::Mate(-2), ScoreBound::Exact)),
                ..d()
            },
            "info score mate -2",
        ),
        (
            Info {
                score: Some((Score::Mate(1), ScoreBound::Lower)),
                ..d()
            },
            "info score mate 1 lowerbound",
        ),
        (
            Info {
                wdl: Some(Wdl {
                    win: 500,
                    draw: 400,
                    loss: 100,
                }),
                ..d()
            },
            "info wdl 500 400 100",
        ),
        (
            Info {
                nodes: Some(123_456),
                ..d()
            },
            "info nodes 123456",
        ),
        (
            Info {
                nps: Some(1_000_000),
                ..d()
            },
            "info nps 1000000",
        ),
        (
            Info {
                hashfull: Some(512),
                ..d()
            },
            "info hashfull 512",
        ),
        (
            Info {
                tbhits: Some(7),
                ..d()
            },
            "info tbhits 7",
        ),
        (
            Info {
                time: Some(1500),
                ..d()
            },
            "info time 1500",
        ),
        (
            Info {
                currmove: Some(mv("e2e4")),
                ..d()
            },
            "info currmove e2e4",
        ),
        (
            Info {
                currmovenumber: Some(3),
                ..d()
            },
            "info currmovenumber 3",
        ),
        (
            Info {
                pv: vec![mv("e2e4"), mv("e7e5"), mv("g1f3")],
                ..d()
            },
            "info pv e2e4 e7e5 g1f3",
        ),
        (Info::string("hello world"), "info string hello world"),
    ];
    for (fields, expected) in cases {
        assert_eq!(info(fields), expected);
    }
}

#[test]
fn info_all_fields_in_order() {
    let all = Info {
        depth: Some(10),
        seldepth: Some(15),
        multipv: Some(1),
        score: Some((Score::Cp(31), ScoreBound::Upper)),
        wdl: Some(Wdl {
            win: 300,
            draw: 600,
            loss: 100,
        }),
        nodes: Some(50_000),
        nps: Some(250_000),
        hashfull: Some(12),
        tbhits: Some(0),
        time: Some(200),
        currmove: Some(mv("d2d4")),
        currmovenumber: Some(1),
        pv: vec![mv("d2d4"), mv("d7d5")],
        string: Some("last words".into()),
    };
    assert_eq!(
        info(all),
        "info depth 10 seldepth 15 multipv 1 score cp 31 upperbound wdl 300 600 100 \
         nodes 50000 nps 250000 hashfull 12 tbhits 0 time 200 currmove d2d4 \
         currmovenumber 1 pv d2d4 d7d5 string last words"
    );
}

#[test]
fn info_string_edge_cases() {
    assert_eq!(info(Info::string("")), "info string");
    assert_eq!(info(Info::string("trailing   ")), "info string trailing");
    assert_eq!(info(Info::string("two\nlines\r")), "info string two lines");
    // Control characters echoed from a bad input line never reach the GUI raw.
    assert_eq!(
        info(Info::string("error: unknown command 'isready\0'")),
        "info string error: unknown command 'isready\\u{0}'"
    );
    assert_eq!(
        info(Info::string("\u{1b}[31mred\ttab")),
        "info string \\u{1b}[31mred tab"
    );
    assert_eq!(
        info(Info::string("error: unknown command 'ü'")),
        "info string error: unknown command 'ü'"
    );
    assert_eq!(info(Info::default()), "info");
}

#[test]
fn no_trailing_spaces_or_newlines() {
    let lines = [
        Response::UciOk.to_string(),
        option("Clear Hash", OptionKind::Button),
        info(Info {
            depth: Some(1),
            pv: vec![mv("e2e4")],
            ..Info::default()
        }),
        Response::BestMove {
            best: mv("e2e4"),
            ponder: None,
        }
        .to_string(),
    ];
    for line in lines {
        assert!(!line.ends_with(' ') && !line.ends_with('\n'), "{line:?}");
    }
}

#[test]
fn commands_render_canonically() {
    let cases: Vec<(Command, &str)> = vec![
        (Command::Uci, "uci"),
        (Command::Debug(true), "debug on"),
        (Command::Debug(false), "debug off"),
        (Command::IsReady, "isready"),
        (
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None,
            },
            "setoption name Clear Hash",
        ),
        (
            Command::SetOption {
                name: "Hash".into(),
                value: Some("64".into()),
            },
            "setoption name Hash value 64",
        ),
        (
            Command::SetOption {
                name: "SyzygyPath".into(),
                value: Some(String::new()),
            },
            "setoption name SyzygyPath value",
        ),
        (Command::Register("later".into()), "register later"),
        (Command::Register(String::new()), "register"),
        (Command::UciNewGame, "ucinewgame"),
        (
            Command::Position {
                start: PositionStart::StartPos,
                moves: vec![],
            },
            "position startpos",
        ),
        (
            Command::Position {
                start: PositionStart::Fen("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
                moves: vec![mv("a1a2")],
            },
            "position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2",
        ),
        (Command::Go(GoParams::default()), "go"),
        (
            Command::Go(GoParams {
                searchmoves: vec![mv("e2e4")],
                wtime: Some(1),
                infinite: true,
                ..GoParams::default()
            }),
            "go searchmoves e2e4 wtime 1 infinite",
        ),
        (Command::Stop, "stop"),
        (Command::PonderHit, "ponderhit"),
        (Command::Quit, "quit"),
        (Command::Display, "d"),
        (Command::Eval, "eval"),
        (Command::Help, "help"),
        (Command::Bench { depth: None }, "bench"),
        (Command::Bench { depth: Some(8) }, "bench 8"),
        (Command::Perft { depth: 5 }, "perft 5"),
    ];
    for (command, expected) in cases {
        assert_eq!(command.to_string(), expected);
        assert_eq!(protocol::parse_command(expected), Ok(command));
    }
}
