//! `cutoff convert` end to end through the real binary, on the PGN files of
//! `tests/data/convert` (see the README there): a fastchess match between two Cutoff
//! processes, replayed move by move from the viriformat output with every score equal to
//! its comment's, and a hand-written file with every oddity the reader must survive.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use cozy_chess::{Board, Color, Move, Piece};
use cutoff::san::to_san;
use cutoff::score::{mate_in, mated_in};
use cutoff::viri::{read_games, GameResult, ViriGame};

mod common;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/convert")
        .join(name)
}

fn cutoff(args: &[&str]) -> Output {
    Command::new(common::binary()).args(args).output().unwrap()
}

/// Runs `cutoff convert PGN --out OUT`.
fn convert_to(pgn: &Path, out: &Path) -> Output {
    cutoff(&[
        "convert",
        pgn.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ])
}

/// Converts `pgn` into a fresh file and returns the run's output and the games written.
fn convert(pgn: &Path, case: &str) -> (Output, Vec<ViriGame>) {
    let out = common::temp_dir("convert", case).join("games.viri");
    let output = convert_to(pgn, &out);
    let bytes = std::fs::read(&out).unwrap_or_default();
    let games = read_games(&bytes).unwrap_or_else(|e| panic!("unreadable output: {e}"));
    (output, games)
}

/// One game as fastchess writes it, read without the project's PGN reader: the FEN and
/// Result tags, and each move's SAN with its comment.
struct TextGame {
    fen: String,
    result: String,
    moves: Vec<(String, String)>,
}

fn fastchess_games(text: &str) -> Vec<TextGame> {
    let mut games = Vec::new();
    for block in text.split("[Event ").skip(1) {
        let tag = |name: &str| {
            let start = block.find(&format!("[{name} \""))? + name.len() + 3;
            Some(block[start..start + block[start..].find('"')?].to_string())
        };
        let movetext = &block[block.rfind("]\n").unwrap() + 2..];
        let mut moves = Vec::new();
        let mut rest = movetext.trim();
        while !rest.is_empty() {
            if let Some(comment) = rest.strip_prefix('{') {
                let end = comment.find('}').unwrap();
                let last: &mut (String, String) = moves.last_mut().unwrap();
                last.1 = comment[..end].to_string();
                rest = comment[end + 1..].trim_start();
                continue;
            }
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let word = &rest[..end];
            rest = rest[end..].trim_start();
            let is_number = word.ends_with('.');
            let is_result = ["1-0", "0-1", "1/2-1/2", "*"].contains(&word);
            if !is_number && !is_result {
                moves.push((word.to_string(), String::new()));
            }
        }
        games.push(TextGame {
            fen: tag("FEN").unwrap(),
            result: tag("Result").unwrap(),
            moves,
        });
    }
    games
}

/// The mover's score in a fastchess comment (`+0.36/14 0.193s`, `-M4/...`), in centipawns
/// or as Cutoff's mate score; `None` when there is none.
fn comment_score(comment: &str) -> Option<i32> {
    let score = comment.split('/').next()?;
    if let Some(plies) = score.strip_prefix("+M") {
        return Some(mate_in(plies.parse().ok()?));
    }
    if let Some(plies) = score.strip_prefix("-M") {
        return Some(mated_in(plies.parse().ok()?));
    }
    let pawns: f64 = score.parse().ok()?;
    Some((pawns * 100.0).round() as i32)
}

#[test]
fn a_fastchess_match_converts_move_by_move_with_its_scores() {
    let pgn = data("fastchess.pgn");
    let text = std::fs::read_to_string(&pgn).unwrap();
    let expected = fastchess_games(&text);
    assert_eq!(expected.len(), 4);
    let (output, games) = convert(&pgn, "fastchess");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("converted 4 games"), "{stderr}");
    assert!(!stderr.contains("skipped game"), "{stderr}");
    assert_eq!(games.len(), expected.len());
    let mut scored = 0;
    for (game, want) in games.iter().zip(&expected) {
        assert_eq!(
            game.start,
            want.fen.parse::<Board>().unwrap(),
            "{}",
            want.fen
        );
        let result = match game.result {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        };
        assert_eq!(result, want.result);
        assert_eq!(game.plies.len(), want.moves.len());
        for ((board, mv, score), (san, comment)) in game.positions().zip(&want.moves) {
            assert_eq!(&to_san(&board, mv), san, "{board}");
            let mover = comment_score(comment).expect(comment);
            let white = if board.side_to_move() == Color::White {
                mover
            } else {
                -mover
            };
            assert_eq!(i32::from(score), white, "{board}: {san} {{{comment}}}");
            scored += 1;
        }
    }
    assert!(scored > 100, "only {scored} plies");
    // The trainer reads the file and keeps positions of it.
    let bytes = std::fs::read(common::temp_dir("convert", "fastchess").join("games.viri")).unwrap();
    let split = cutoff::train::load_bytes(&bytes, 0.0, cutoff::train::Scores::Raw).unwrap();
    assert!(split.train.len() > 50, "{} kept", split.train.len());
}

fn mv(from: &str, to: &str, promotion: Option<Piece>) -> Move {
    Move {
        from: from.parse().unwrap(),
        to: to.parse().unwrap(),
        promotion,
    }
}

fn scores(game: &ViriGame) -> Vec<i32> {
    game.plies.iter().map(|&(_, s)| i32::from(s)).collect()
}

#[test]
fn a_file_of_oddities_converts_its_readable_games_and_names_the_others() {
    let (output, games) = convert(&data("oddities.pgn"), "oddities");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let skipped: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("skipped game"))
        .collect();
    assert_eq!(skipped.len(), 3, "{stderr}");
    assert!(skipped[0].starts_with("skipped game 3: line 29, ply 3 (2.), \"Bxd5\": illegal"));
    assert!(skipped[1].starts_with("skipped game 5: no result"));
    assert!(skipped[2].starts_with("skipped game 7: line 50: bad FEN"));
    assert!(
        stderr.contains("converted 5 games (29 plies, 4 without a score)")
            && stderr.contains("skipped 3 games"),
        "{stderr}"
    );
    assert_eq!(games.len(), 5);
    let missing = i32::from(cutoff::convert::MISSING_SCORE);

    // Comments, NAGs, variations; Black mates, its mate scores seen from White's side.
    let first = &games[0];
    assert_eq!(first.plies.len(), 14);
    assert_eq!(first.result, GameResult::BlackWins);
    assert_eq!(&scores(first)[..4], [31, 25, 40, 33]);
    assert_eq!(
        &scores(first)[11..],
        [-mate_in(3), mated_in(2), -mate_in(1)]
    );

    // `0-0`, a promotion without its sign, `21...Rxa8`.
    let second = &games[1];
    assert_eq!(second.plies[0].0, mv("e1", "h1", None));
    assert_eq!(second.plies[1].0, mv("e8", "h8", None));
    assert_eq!(second.plies[2].0, mv("b7", "a8", Some(Piece::Queen)));
    assert_eq!(scores(second), [300, 250, 290, 10, 5, 0]);
    assert_eq!(second.result, GameResult::Draw);

    // Chess960: castling is the king taking its own rook; a book move has no score.
    let chess960 = &games[2];
    assert_eq!(chess960.plies[0].0, mv("b1", "g1", None));
    assert_eq!(chess960.plies[1].0, mv("b8", "a8", None));
    assert_eq!(scores(chess960), [10, missing, 20, 15]);

    // No comments at all: every score is missing; `e8=Q`.
    let promotion = &games[3];
    assert_eq!(promotion.plies[0].0, mv("e7", "e8", Some(Piece::Queen)));
    assert_eq!(scores(promotion), [missing; 3]);
    assert_eq!(promotion.result, GameResult::WhiteWins);

    // The last game has no result token: its Result tag is used.
    assert_eq!(games[4].result, GameResult::Draw);
    assert_eq!(scores(&games[4]), [15, 12]);
}

#[test]
fn standard_input_gives_the_same_file() {
    let pgn = std::fs::read(data("oddities.pgn")).unwrap();
    let dir = common::temp_dir("convert", "stdin");
    let out = dir.join("stdin.viri");
    let mut child = Command::new(common::binary())
        .args(["convert", "-", "--out", out.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&pgn).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let (_, from_file) = convert(&data("oddities.pgn"), "stdin-file");
    assert_eq!(
        read_games(&std::fs::read(&out).unwrap()).unwrap(),
        from_file
    );
}

#[test]
fn an_unreadable_file_is_an_error_and_nothing_panics() {
    let dir = common::temp_dir("convert", "unreadable");
    let out = dir.join("never.viri");
    let output = convert_to(&dir.join("missing.pgn"), &out);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("cutoff convert: error: ") && stderr.contains("missing.pgn"));
    assert!(!out.exists(), "no output file for an unreadable input");
    // Garbage is read (and skipped), not a crash.
    let garbage = dir.join("garbage.pgn");
    std::fs::write(&garbage, b"\xff\xfe[[[ {{ ((( $999 1. Zz9 ]] \x00 e4 e5").unwrap();
    let output = convert_to(&garbage, &out);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    // Nothing in it can be converted: an error, and no output file.
    assert!(!output.status.success(), "{stderr}");
    assert!(stderr.contains("can be converted"), "{stderr}");
    assert!(!out.exists());
    // An existing output keeps its bytes when nothing can be converted.
    std::fs::write(&out, b"precious").unwrap();
    let output = convert_to(&garbage, &out);
    assert!(!output.status.success());
    assert_eq!(std::fs::read(&out).unwrap(), b"precious");
    // An empty PGN has no game to skip: an empty output, and success.
    let empty = dir.join("empty.pgn");
    std::fs::write(&empty, b"").unwrap();
    let output = convert_to(&empty, &out);
    assert!(output.status.success());
    assert_eq!(std::fs::read(&out).unwrap(), b"");
}
