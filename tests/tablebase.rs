//! Syzygy tablebases: Cutoff's probes agree with python-chess's independent reader on
//! every position of `tests/data/syzygy-positions.txt`; the engine converts won endings
//! within the fifty-move rule, holds a drawn one and never throws away a win at depth 1;
//! and the `Syzygy*` options behave over UCI. The tables are the few in
//! `tests/data/syzygy/` (see `SOURCES.md` there).

mod common;

use std::time::Duration;

use common::{is_error, EngineProcess, TIMEOUT};
use cutoff::position::{parse_fen, Game};
use cutoff::rules::{game_end, GameEnd};
use cutoff::search::tt::TranspositionTable;
use cutoff::search::{think_with, Limits, Settings};
use cutoff::tablebase::{Probing, Tablebases, Wdl};

const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
const POSITIONS: &str = include_str!("data/syzygy-positions.txt");

fn tables() -> Tablebases {
    Tablebases::open(TABLES).expect("the test tables load")
}

fn probing() -> Probing {
    Probing {
        tables: tables(),
        probe_depth: 1,
        fifty_move_rule: true,
        probe_limit: 7,
    }
}

/// The expected positions: (WDL from -2 to 2, DTZ, FEN).
fn positions() -> Vec<(i32, i32, &'static str)> {
    POSITIONS
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut fields = line.splitn(3, ' ');
            let wdl = fields.next().unwrap().parse().unwrap();
            let dtz = fields.next().unwrap().parse().unwrap();
            (wdl, dtz, fields.next().unwrap())
        })
        .collect()
}

#[test]
fn probes_agree_with_python_chess_on_every_position() {
    let tables = tables();
    let positions = positions();
    assert!(positions.len() >= 200, "{} positions", positions.len());
    for (wdl, dtz, fen) in positions {
        let board = parse_fen(fen, false).unwrap();
        let probed = tables.probe_wdl(&board).unwrap_or_else(|| panic!("{fen}"));
        assert_eq!(probed.value(), wdl, "WDL of {fen}");
        let probed = tables.probe_dtz(&board).unwrap_or_else(|| panic!("{fen}"));
        assert_eq!((probed.wdl.value(), probed.dtz), (wdl, dtz), "DTZ of {fen}");
    }
}

/// Plays `fen` out against itself at `depth` with the tables until the game ends (or
/// `max_plies`); returns the game's end and the positions played through.
fn self_play(fen: &str, depth: u32, max_plies: usize) -> (Option<GameEnd>, Vec<Game>) {
    let mut game = Game::new(parse_fen(fen, false).unwrap());
    let tt = TranspositionTable::new(16);
    let mut seen = vec![game.clone()];
    for _ in 0..max_plies {
        if let Some(end) = game_end(&game) {
            return (Some(end), seen);
        }
        let settings = Settings {
            tablebases: Some(probing()),
            ..Settings::default()
        };
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let outcome = think_with(game.clone(), limits, &tt, settings);
        game.play(outcome.best.expect("a legal move"));
        seen.push(game.clone());
    }
    (game_end(&game), seen)
}

#[test]
fn won_endings_are_mated_within_the_fifty_move_rule() {
    // Two starts each of KQvK, KRvK (DTZ 31, the longest in a sample of 2000) and KBNvK
    // (DTZ 62), White to move and winning.
    for fen in [
        "K7/1Q6/8/8/5k2/8/8/8 w - - 0 1",
        "8/8/8/8/8/4k3/8/KQ6 w - - 0 1",
        "K7/6R1/5k2/8/8/8/8/8 w - - 0 1",
        "K7/8/8/4k3/8/8/1R6/8 w - - 0 1",
        "8/8/8/4k3/8/8/3B4/1N5K w - - 0 1",
        "7k/8/8/8/8/8/8/KBN5 w - - 0 1",
    ] {
        let (end, seen) = self_play(fen, 3, 200);
        assert_eq!(
            end,
            Some(GameEnd::Checkmate {
                winner: cozy_chess::Color::White
            }),
            "{fen} after {} plies",
            seen.len() - 1
        );
    }
}

#[test]
fn a_drawn_rook_ending_is_held() {
    let tables = tables();
    // Drawn KRvKR positions from the expected list, with either side to move.
    let drawn: Vec<&str> = positions()
        .into_iter()
        .filter(|&(wdl, _, fen)| {
            wdl == 0 && fen.chars().filter(|c| c.eq_ignore_ascii_case(&'r')).count() == 2
        })
        .map(|(_, _, fen)| fen)
        .take(3)
        .collect();
    assert!(!drawn.is_empty());
    for fen in drawn {
        let (_, seen) = self_play(fen, 3, 60);
        for game in &seen {
            let verdict = tables.probe_dtz(&game.board).map(|d| d.wdl);
            assert_eq!(verdict, Some(Wdl::Draw), "{fen}: reached {:?}", game.board);
        }
    }
}

#[test]
fn a_won_pawn_ending_keeps_the_win_at_depth_one() {
    let tables = tables();
    let won: Vec<&str> = positions()
        .into_iter()
        .filter(|&(wdl, _, fen)| {
            let board = fen.split(' ').next().unwrap();
            wdl == 2
                && board.chars().filter(|c| c.is_ascii_alphabetic()).count() == 3
                && board.contains(['P', 'p'])
        })
        .map(|(_, _, fen)| fen)
        .collect();
    assert!(won.len() >= 10, "{} won KPvK positions", won.len());
    for fen in won {
        let game = Game::new(parse_fen(fen, false).unwrap());
        let settings = Settings {
            tablebases: Some(probing()),
            ..Settings::default()
        };
        let limits = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        let outcome = think_with(game.clone(), limits, &TranspositionTable::new(1), settings);
        let mut after = game.board.clone();
        after.play(outcome.best.unwrap());
        let verdict = tables.probe_dtz(&after).map(|d| d.wdl);
        assert_eq!(verdict, Some(Wdl::Loss), "{fen}: played {:?}", outcome.best);
    }
}

fn score_cp(info: &str) -> Option<i32> {
    let mut words = info.split_whitespace();
    while let Some(word) = words.next() {
        if word == "score" {
            if words.next()? != "cp" {
                return None;
            }
            return words.next()?.parse().ok();
        }
    }
    None
}

/// The last `info ... pv` line of a `go depth N` on `fen`.
fn search(engine: &mut EngineProcess, fen: &str, depth: u32) -> String {
    engine.send(&format!("position fen {fen}"));
    engine.send(&format!("go depth {depth}"));
    let lines = engine.read_until_bestmove(TIMEOUT);
    lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .cloned()
        .unwrap_or_default()
}

const KQK: &str = "8/8/8/8/8/4k3/8/KQ6 w - - 0 1";

#[test]
fn syzygy_path_reports_refuses_and_unloads() {
    let mut engine = EngineProcess::start();
    engine.send(&format!("setoption name SyzygyPath value {TABLES}"));
    assert_eq!(
        engine.sync(),
        ["info string Syzygy: 14 tables found (7 WDL, 7 DTZ), up to 4 pieces"]
    );
    let info = search(&mut engine, KQK, 3);
    assert!(info.contains(" tbhits "), "{info}");
    assert!(score_cp(&info).is_some_and(|cp| cp > 19_000), "{info}");

    // A folder that does not exist, and one without tables: refused, old tables kept.
    let empty = common::temp_dir("tablebase", "empty");
    for bad in ["/no/such/folder".to_string(), empty.display().to_string()] {
        engine.send(&format!("setoption name SyzygyPath value {bad}"));
        let lines = engine.sync();
        assert!(lines.len() == 1 && is_error(&lines[0]), "{lines:?}");
    }
    std::fs::remove_dir_all(&empty).ok();
    let info = search(&mut engine, KQK, 3);
    assert!(info.contains(" tbhits "), "{info}");

    engine.send("setoption name SyzygyPath value <empty>");
    assert!(engine.sync().is_empty());
    let info = search(&mut engine, KQK, 3);
    assert!(!info.contains("tbhits"), "{info}");
    assert!(score_cp(&info).is_some_and(|cp| cp < 19_000), "{info}");
    engine.send("quit");
}

#[test]
fn the_fifty_move_rule_option_decides_a_cursed_win() {
    // KBNvK with DTZ 62, 50 plies after the last zeroing move: won, but not in time.
    let cursed = "8/8/8/4k3/8/8/3B4/1N5K w - - 50 80";
    let mut engine = EngineProcess::start();
    engine.send(&format!("setoption name SyzygyPath value {TABLES}"));
    engine.sync();
    let info = search(&mut engine, cursed, 4);
    assert_eq!(score_cp(&info), Some(0), "{info}");
    engine.send("setoption name Syzygy50MoveRule value false");
    let info = search(&mut engine, cursed, 4);
    assert!(score_cp(&info).is_some_and(|cp| cp > 19_000), "{info}");
    // With a fresh counter it is an ordinary win either way.
    let info = search(&mut engine, "8/8/8/4k3/8/8/3B4/1N5K w - - 0 1", 4);
    assert!(score_cp(&info).is_some_and(|cp| cp > 19_000), "{info}");
    engine.send("quit");
}

#[test]
fn without_dtz_tables_the_wdl_tables_rank_the_root() {
    let dir = common::temp_dir("tablebase", "wdl-only");
    for entry in std::fs::read_dir(TABLES).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rtbw") {
            std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
        }
    }
    let mut engine = EngineProcess::start();
    engine.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    assert_eq!(
        engine.sync(),
        ["info string Syzygy: 7 tables found (7 WDL, 0 DTZ), up to 4 pieces"]
    );
    // Without DTZ any winning move may be played: check with the full tables that the
    // move chosen at depth 1 kept the win.
    let tables = tables();
    let mut checked = 0;
    for (_, _, fen) in positions().into_iter().filter(|p| p.0 == 2).take(20) {
        checked += 1;
        engine.send(&format!("position fen {fen}"));
        engine.send("go depth 1");
        let lines = engine.read_until_bestmove(Duration::from_secs(30));
        let best = lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string();
        let mut board = parse_fen(fen, false).unwrap();
        let mv = cutoff::position::from_uci(&board, best.parse().unwrap(), false).unwrap();
        board.play(mv);
        let verdict = tables.probe_dtz(&board).map(|d| d.wdl);
        assert_eq!(verdict, Some(Wdl::Loss), "{fen}: played {best}");
    }
    assert_eq!(checked, 20, "too few won positions in the test data");
    engine.send("quit");
    std::fs::remove_dir_all(&dir).ok();
}

/// Probe speed on warm tables: `cargo test --release --test tablebase -- --ignored
/// --nocapture probe_speed`. Prints microseconds per WDL probe (no assertion: timings
/// depend on the machine).
#[test]
#[ignore]
fn probe_speed() {
    let tables = tables();
    let boards: Vec<_> = positions()
        .into_iter()
        .map(|(_, _, fen)| parse_fen(fen, false).unwrap())
        .collect();
    // Warm up: every table touched once.
    for board in &boards {
        tables.probe_wdl(board);
    }
    let rounds = 200;
    let started = std::time::Instant::now();
    let mut wins = 0;
    for _ in 0..rounds {
        for board in &boards {
            wins += u32::from(tables.probe_wdl(board) == Some(Wdl::Win));
        }
    }
    let probes = rounds * boards.len();
    let micros = started.elapsed().as_secs_f64() * 1e6 / probes as f64;
    println!("{probes} WDL probes ({wins} wins): {micros:.2} us per probe");
    for board in &boards {
        tables.probe_dtz(board);
    }
    let started = std::time::Instant::now();
    for board in &boards {
        tables.probe_dtz(board);
    }
    let micros = started.elapsed().as_secs_f64() * 1e6 / boards.len() as f64;
    println!("{} DTZ root probes: {micros:.2} us per probe", boards.len());
}

#[test]
fn analyze_takes_syzygy_folders() {
    let dir = common::temp_dir("tablebase", "analyze");
    let epd = dir.join("endings.epd");
    std::fs::write(
        &epd,
        "6k1/8/8/3P4/4K3/8/8/8 w - - bm d6; id \"kpk\";\n\
         8/8/8/4k3/8/8/3B4/1N5K w - - id \"kbnk\";\n",
    )
    .unwrap();
    let run = |extra: &[&str]| {
        let mut command = std::process::Command::new(common::binary());
        command
            .arg("analyze")
            .arg(&epd)
            .args(["--depth", "2"])
            .args(extra);
        command.output().unwrap()
    };
    let output = run(&["--syzygy", TABLES]);
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("Syzygy: 14 tables found"), "{stderr}");
    // Both positions scored as tablebase wins, and the pawn push found.
    assert_eq!(
        stdout.matches("\"score\":{\"cp\":199").count(),
        2,
        "{stdout}"
    );
    assert!(stdout.contains("\"solved\":true"), "{stdout}");
    let output = run(&["--syzygy", "/no/such/folder"]);
    assert!(!output.status.success());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_file_named_like_a_table_that_is_not_one_is_refused_and_the_search_goes_on() {
    let dir = common::temp_dir("tablebase", "corrupt");
    // Right names, wrong contents: refused when the path is set, before the prober (which
    // only asserts its tables' headers) could see them.
    std::fs::write(dir.join("KQvK.rtbw"), [0x55u8; 100]).unwrap();
    std::fs::write(dir.join("KQvK.rtbz"), b"x").unwrap();
    let mut engine = EngineProcess::start();
    engine.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    let lines = engine.sync();
    assert!(
        lines.len() == 1 && is_error(&lines[0]) && lines[0].contains("not a Syzygy table"),
        "{lines:?}"
    );
    // No tables loaded: the search runs on, probing nothing.
    let info = search(&mut engine, KQK, 4);
    assert!(
        info.starts_with("info depth 4") && !info.contains("tbhits"),
        "{info}"
    );
    engine.send("quit");
    std::fs::remove_dir_all(&dir).ok();
}

/// A fresh temporary folder holding copies of the test tables.
fn copy_of_the_test_tables(name: &str) -> std::path::PathBuf {
    let dir = common::temp_dir("tablebase", name);
    for entry in std::fs::read_dir(TABLES).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
    }
    dir
}

/// Flips the bits `mask` of one byte of the file at `path`, the byte `at` picks from the
/// file's length.
fn flip_bits(path: &std::path::Path, at: impl Fn(usize) -> usize, mask: u8) {
    let mut bytes = std::fs::read(path).unwrap();
    let index = at(bytes.len());
    bytes[index] ^= mask;
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn a_damaged_table_is_refused_and_the_loaded_tables_stay() {
    // The test tables with one bit of one table flipped: right name, size and magic, but
    // its contents no longer give the checksum stored at its end. Such a file could send
    // the prober out of bounds; it is refused when the path is set.
    let dir = copy_of_the_test_tables("damaged");
    flip_bits(&dir.join("KRvK.rtbw"), |_| 16, 0xff);

    let mut engine = EngineProcess::start();
    engine.send(&format!("setoption name SyzygyPath value {TABLES}"));
    assert_eq!(engine.sync().len(), 1);
    engine.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    let lines = engine.sync();
    assert!(
        lines.len() == 1 && is_error(&lines[0]) && lines[0].contains("KRvK.rtbw is damaged"),
        "{lines:?}"
    );
    // The tables loaded before are still probed.
    let info = search(&mut engine, KQK, 3);
    assert!(info.contains(" tbhits "), "{info}");
    engine.send("quit");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_same_folders_again_are_not_read_again_until_unloaded() {
    // A GUI may send its options before every game: the loaded set then stays as it is,
    // its tables not read again, so a table damaged since goes unnoticed until the tables
    // are unloaded (`<empty>`) and loaded anew.
    let dir = copy_of_the_test_tables("again");
    let set = format!("setoption name SyzygyPath value {}", dir.display());
    let summary = "info string Syzygy: 14 tables found (7 WDL, 7 DTZ), up to 4 pieces";
    let mut engine = EngineProcess::start();
    engine.send(&set);
    assert_eq!(engine.sync(), [summary]);
    flip_bits(&dir.join("KQvK.rtbw"), |len| len - 1, 1);
    engine.send(&set);
    assert_eq!(engine.sync(), [summary]);
    assert!(search(&mut engine, KQK, 3).contains(" tbhits "));
    engine.send("setoption name SyzygyPath value <empty>");
    engine.send(&set);
    let lines = engine.sync();
    assert!(
        lines.len() == 1 && is_error(&lines[0]) && lines[0].contains("KQvK.rtbw is damaged"),
        "{lines:?}"
    );
    engine.send("quit");
    std::fs::remove_dir_all(&dir).ok();
}
