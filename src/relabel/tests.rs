//! `relabel`: which plies are searched, what the searches say, the same output with any
//! thread count, and the command's handling of damaged input and bad flags.

use cozy_chess::{Board, Move};

use super::{parse_args, relabel_game, run, Config, RelabelError};
use crate::cli::words;
use crate::search::tt::TranspositionTable;
use crate::search::Settings;
use crate::viri::{read_games, GameResult, ViriGame};

/// A score no search of these positions gives: the plies that keep it were not searched.
const OLD: i16 = 1234;

/// The game of `moves` (UCI) from `fen`, every ply scored [`OLD`].
fn game(fen: &str, moves: &str) -> ViriGame {
    let start: Board = fen.parse().unwrap();
    let mut board = start.clone();
    let mut plies = Vec::new();
    for word in moves.split_whitespace() {
        let mv: Move = word.parse().unwrap();
        assert!(board.is_legal(mv), "{word} in {board}");
        plies.push((mv, OLD));
        board.play_unchecked(mv);
    }
    ViriGame {
        start,
        result: GameResult::Draw,
        plies,
    }
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// An opening line without checks whose only captures are plies 10 and 11 (exd5 Nxd5);
/// cozy-chess writes castling as the king taking its rook (e1h1).
const OPENING: &str = "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3 f8c5 c2c3 d7d5 e4d5 f6d5 c4b5 \
                       c8d7 e1h1 e8h8 b1d2 a7a6";
/// Black without its queen; the knights shuffle, quiet moves all.
const QUEEN_UP: &str = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const SHUFFLE: &str = "g1f3 g8f6 f3g1 f6g8 b1c3 b8c6 c3b1 c6b8 g1f3 g8f6 f3g1 f6g8 b1c3 \
                       b8c6 c3b1 c6b8";

fn relabel(game: &ViriGame) -> ViriGame {
    let tt = TranspositionTable::new(2);
    relabel_game(game, 600, &tt, &Settings::default()).0
}

#[test]
fn the_positions_the_trainer_reads_are_searched_and_only_those() {
    let before = game(START, OPENING);
    let after = relabel(&before);
    assert_eq!(after.start, before.start);
    assert_eq!(after.result, before.result);
    let moves = |g: &ViriGame| g.plies.iter().map(|&(mv, _)| mv).collect::<Vec<_>>();
    assert_eq!(moves(&after), moves(&before));
    for (ply, (board, mv, score)) in after.positions().enumerate() {
        let read = ply >= 8 && ply != 10 && ply != 11;
        assert!(board.checkers().is_empty(), "ply {ply}");
        assert_eq!(
            crate::train::data::keep(&board, mv, 0, ply),
            read,
            "ply {ply}"
        );
        if read {
            assert_ne!(score, OLD, "ply {ply} was not searched");
            assert!(score.abs() < 300, "ply {ply}: {score} in a level opening");
        } else {
            assert_eq!(score, OLD, "ply {ply} was searched");
        }
    }
}

#[test]
fn missing_and_mate_scores_are_searched_too() {
    let mut before = game(START, OPENING);
    before.plies[8].1 = crate::convert::MISSING_SCORE;
    before.plies[9].1 = 31_990;
    let after = relabel(&before);
    for ply in [8, 9] {
        assert!(
            after.plies[ply].1.abs() < 300,
            "ply {ply}: {}",
            after.plies[ply].1
        );
    }
    assert_eq!(after.plies[7].1, OLD);
}

#[test]
fn the_scores_are_the_searches_from_whites_view_with_the_games_history() {
    let after = relabel(&game(QUEEN_UP, SHUFFLE));
    assert!(after.plies[..8].iter().all(|&(_, score)| score == OLD));
    for (ply, &(_, score)) in after.plies.iter().enumerate().skip(8) {
        if ply == 11 || ply == 15 {
            // Black, a queen down, takes the knight home to the start position, seen
            // three times before: a draw by repetition, known only from the game.
            assert!(score.abs() < 50, "ply {ply}: {score}");
        } else {
            // White is a queen up whoever is to move (Black's searches turned round).
            assert!(score > 500, "ply {ply}: {score}");
        }
    }
}

fn write(path: &std::path::Path, games: &[ViriGame]) -> Vec<u8> {
    let mut bytes = Vec::new();
    for game in games {
        game.write_to(&mut bytes);
    }
    std::fs::write(path, &bytes).unwrap();
    bytes
}

#[test]
fn the_output_is_the_same_with_any_thread_count_and_damage_keeps_the_games_before() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/relabel-test");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let games = [
        game(START, OPENING),
        game(QUEEN_UP, SHUFFLE),
        game(
            START,
            "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7 e2e3 e8h8 g1f3 h7h6",
        ),
        game(
            START,
            "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6 c1e3 e7e5",
        ),
    ];
    let input = dir.join("in.viri");
    let bytes = write(&input, &games);
    let config = |threads: usize, out: &str| Config {
        input: input.display().to_string(),
        out: dir.join(out).display().to_string(),
        soft_nodes: 600,
        threads,
        hash_mb: 2,
        network: None,
    };
    let one = run(&config(1, "one.viri")).unwrap();
    let three = run(&config(3, "three.viri")).unwrap();
    assert_eq!(one, three);
    assert_eq!((one.games, one.plies), (4, 18 + 16 + 12 + 12));
    let written = std::fs::read(dir.join("one.viri")).unwrap();
    assert_eq!(written, std::fs::read(dir.join("three.viri")).unwrap());
    assert!(!dir.join("one.viri.part").exists());
    let relabelled = read_games(&written).unwrap();
    assert_eq!(relabelled.len(), 4);
    let tt = TranspositionTable::new(2);
    let settings = Settings {
        network: None,
        ..Settings::default()
    };
    for (game, after) in games.iter().zip(&relabelled) {
        assert_eq!(after, &relabel_game(game, 600, &tt, &settings).0);
    }
    // The input as the output, or a folder as the output: refused, the input untouched.
    let same = run(&config(1, "in.viri")).unwrap_err();
    assert!(matches!(same, RelabelError::Flags(_)), "{same}");
    assert!(matches!(run(&config(1, "")), Err(RelabelError::File(_))));
    assert_eq!(std::fs::read(&input).unwrap(), bytes);
    assert!(!dir.join("in.viri.part").exists());
    // A file cut inside its last game: the three before it are relabelled and written.
    std::fs::write(&input, &bytes[..bytes.len() - 6]).unwrap();
    let summary = run(&config(2, "cut.viri")).unwrap();
    assert_eq!(summary.games, 3);
    let cut = read_games(&std::fs::read(dir.join("cut.viri")).unwrap()).unwrap();
    assert_eq!(cut[..], relabelled[..3]);
    // No game at all can be read (a PGN given by mistake): an error, and an existing
    // output keeps its bytes.
    std::fs::write(&input, b"[Event \"not viriformat\"]\n1. e4 e5 1-0\n").unwrap();
    let error = run(&config(1, "cut.viri")).unwrap_err();
    assert!(matches!(error, RelabelError::NoGames(_)), "{error}");
    let kept = read_games(&std::fs::read(dir.join("cut.viri")).unwrap()).unwrap();
    assert_eq!(kept[..], relabelled[..3]);
    // A device as the output is refused before any search.
    #[cfg(unix)]
    {
        write(&input, &games);
        let device = Config {
            out: "/dev/null".to_string(),
            ..config(1, "")
        };
        assert!(matches!(run(&device), Err(RelabelError::File(_))));
    }
}

#[test]
fn bad_flags_and_files_are_refused() {
    let parse = |line: &str| parse_args(&words(line));
    assert!(matches!(
        parse("in.viri --out o.viri"),
        Err(RelabelError::Flags(_))
    ));
    assert!(matches!(
        parse("in.viri --out o.viri --nodes 0"),
        Err(RelabelError::Flags(_))
    ));
    assert!(matches!(
        parse("in.viri --out o.viri --nodes 10 --hce --net n.nnue"),
        Err(RelabelError::Flags(_))
    ));
    let missing_net = parse("in.viri --out o.viri --nodes 10 --net /nonexistent/n.nnue");
    assert!(matches!(missing_net, Err(RelabelError::Network(_))));
    let config = parse("/nonexistent/in.viri --out o.viri --nodes 10 --hce --threads 2").unwrap();
    assert!(config.network.is_none());
    assert_eq!(config.threads, 2);
    let error = run(&config).unwrap_err();
    assert!(matches!(error, RelabelError::File(_)), "{error}");
    assert!(
        error.to_string().contains("/nonexistent/in.viri"),
        "{error}"
    );
}
