//! A reported principal variation ends where the game would end: no `info ... pv` line,
//! MultiPV line or ponder move goes on past a threefold repetition (counting the game's
//! history), the fifty-move rule, insufficient material, mate or stalemate.

mod common;

use std::time::Duration;

use common::{parse_bestmove, EngineProcess};
use cozy_chess::Move;
use cutoff::position::{from_uci, parse_fen, Game};
use cutoff::rules::{game_end, GameEnd};

const SEARCH: Duration = Duration::from_secs(60);

/// The `pv` moves of an `info` line, if it has any.
fn pv_of(line: &str) -> Option<Vec<String>> {
    let start = line.find(" pv ")?;
    Some(
        line[start + 4..]
            .split_whitespace()
            .map(String::from)
            .collect(),
    )
}

/// `moves` (UCI) as moves of `game`, played one after the other; panics on an illegal one.
fn parse_line(game: &Game, moves: &[String]) -> Vec<Move> {
    let mut game = game.clone();
    moves
        .iter()
        .map(|text| {
            let uci = text.parse().expect("a PV move is UCI");
            let mv = from_uci(&game.board, uci, false)
                .unwrap_or_else(|| panic!("illegal PV move {text} in {moves:?}"));
            game.play(mv);
            mv
        })
        .collect()
}

/// How the game stands after `moves` from `game`; panics if the game ended before the
/// last of them.
fn end_after(game: &Game, moves: &[String]) -> Option<GameEnd> {
    let mut game = game.clone();
    for (index, mv) in parse_line(&game, moves).into_iter().enumerate() {
        assert!(
            game_end(&game).is_none(),
            "the PV {moves:?} goes on after the game ended ({:?}) at move {index}",
            game_end(&game)
        );
        game.play(mv);
    }
    game_end(&game)
}

/// The game of `position <start> moves <moves>`.
fn game_of(fen: &str, moves: &[&str]) -> Game {
    let mut game = Game::new(parse_fen(fen, false).expect("test FEN is valid"));
    let line: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    for mv in parse_line(&game, &line) {
        game.play(mv);
    }
    game
}

/// Sends the position and `go`, returns the PVs of every `info` line and the bestmove.
fn search(
    engine: &mut EngineProcess,
    fen: &str,
    moves: &[&str],
    go: &str,
) -> (Vec<Vec<String>>, (String, Option<String>)) {
    let position = if moves.is_empty() {
        format!("position fen {fen}")
    } else {
        format!("position fen {fen} moves {}", moves.join(" "))
    };
    engine.send(&position);
    engine.send(go);
    let lines = engine.read_until_bestmove(SEARCH);
    let pvs = lines.iter().filter_map(|l| pv_of(l)).collect();
    let best = parse_bestmove(lines.last().expect("bestmove")).expect("bestmove parses");
    (pvs, best)
}

#[test]
fn a_move_that_repeats_the_position_a_third_time_ends_the_line() {
    // Queen against bare king: after Qh3 Kb8 Qh2+ Ka8 Qh3 Kb8 Qh2+, Black's ...Ka8
    // stands in the start position for the third time, a draw and Black's best move.
    let fen = "k7/8/8/8/8/8/7Q/K7 w - - 0 1";
    let history = ["h2h3", "a8b8", "h3h2", "b8a8", "h2h3", "a8b8", "h3h2"];
    let mut engine = EngineProcess::start();
    let (pvs, (best, ponder)) = search(&mut engine, fen, &history, "go depth 10");
    assert_eq!(best, "b8a8");
    assert_eq!(
        ponder, None,
        "no ponder move after a move that ends the game"
    );
    let last = pvs.last().expect("the search printed a PV");
    assert_eq!(last, &["b8a8"], "the line stops at the repetition");
    let game = game_of(fen, &history);
    for pv in &pvs {
        end_after(&game, pv);
    }
    assert_eq!(end_after(&game, last), Some(GameEnd::Repetition));
}

#[test]
fn a_repetition_of_the_position_after_a_double_step_ends_the_line() {
    // Down a queen, White repeats the position after 1.e4 a third time with Ng1: the
    // en-passant file that 1.e4 left (no black pawn could take) does not make it another
    // position.
    let fen = "1q4nk/8/8/8/8/8/4P3/6NK w - - 0 1";
    let history = [
        "e2e4", "g8f6", "g1f3", "f6g8", "f3g1", "g8f6", "g1f3", "f6g8",
    ];
    let mut engine = EngineProcess::start();
    let (pvs, (best, ponder)) = search(&mut engine, fen, &history, "go depth 10");
    assert_eq!((best.as_str(), ponder), ("f3g1", None));
    assert_eq!(pvs.last().expect("a PV"), &["f3g1"]);
    let game = game_of(fen, &history);
    assert_eq!(
        end_after(&game, &["f3g1".to_string()]),
        Some(GameEnd::Repetition)
    );
}

#[test]
fn the_fifty_move_rule_ends_the_line() {
    // Up a rook, but the halfmove clock stands at 96: the fourth quiet move from here
    // ends the game (no capture or pawn move is at hand for White, and if Black's king
    // takes the rook the material is insufficient).
    let fen = "8/8/4k3/8/8/8/8/R3K3 w - - 96 120";
    let game = game_of(fen, &[]);
    let mut engine = EngineProcess::start();
    for lines in [1, 3] {
        engine.send(&format!("setoption name MultiPV value {lines}"));
        let (pvs, _) = search(&mut engine, fen, &[], "go depth 12");
        for pv in &pvs {
            assert!(pv.len() <= 4, "the line {pv:?} goes past the fiftieth move");
            end_after(&game, pv);
        }
        let full: Vec<_> = pvs.iter().filter(|pv| pv.len() == 4).collect();
        assert!(
            !full.is_empty(),
            "no line reached the fifty-move rule: {pvs:?}"
        );
        for pv in full {
            let end = end_after(&game, pv);
            assert!(
                matches!(
                    end,
                    Some(GameEnd::FiftyMoves | GameEnd::InsufficientMaterial)
                ),
                "{pv:?} ends in {end:?}"
            );
        }
    }
}

/// Plays a game from `fen` by `go nodes` searches (MultiPV `lines`), checking every
/// printed PV and ponder move; stops at the game's end or after `max_plies`.
fn replay_self_play(fen: &str, lines: u32, max_plies: usize) -> usize {
    let mut engine = EngineProcess::start();
    engine.send(&format!("setoption name MultiPV value {lines}"));
    let mut moves: Vec<String> = Vec::new();
    let mut checked = 0;
    for ply in 0..max_plies {
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        let game = game_of(fen, &refs);
        if game_end(&game).is_some() {
            break;
        }
        let nodes = 1_500 + 500 * (ply % 4);
        let (pvs, (best, ponder)) = search(&mut engine, fen, &refs, &format!("go nodes {nodes}"));
        for pv in &pvs {
            end_after(&game, pv);
            checked += 1;
        }
        let mut after = game.clone();
        let played = parse_line(&game, std::slice::from_ref(&best));
        after.play(played[0]);
        if let Some(ponder) = ponder {
            assert!(
                game_end(&after).is_none(),
                "ponder {ponder} after a game end"
            );
            parse_line(&after, &[ponder]);
        }
        moves.push(best);
    }
    checked
}

#[test]
fn no_pv_of_real_games_goes_past_a_game_end() {
    // Openings and endings where repetitions, the fifty-move rule and bare kings come up.
    let starts = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            1,
        ),
        ("8/5k2/8/3r4/8/2R5/5K2/8 w - - 80 100", 2),
        ("8/8/2k5/3n4/8/4B3/3K4/8 b - - 70 90", 1),
        ("6k1/5ppp/8/8/8/8/5PPP/3Q2K1 b - - 0 1", 2),
    ];
    let mut checked = 0;
    for (fen, lines) in starts {
        checked += replay_self_play(fen, lines, 160);
    }
    assert!(checked > 200, "only {checked} PVs checked");
}
