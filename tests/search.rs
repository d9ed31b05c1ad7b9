//! The search finds forced mates at modest depth, honours its limits, and scores draws.

use cozy_chess::Move;
use cutoff::position::{from_uci, parse_fen, Game};
use cutoff::score::{is_mate, mate_moves};
use cutoff::search::tt::TranspositionTable;
use cutoff::search::{think, Limits, SearchOutcome};

fn search_fen(fen: &str, limits: Limits) -> (Game, SearchOutcome) {
    let board = parse_fen(fen, false).expect("test FEN is valid");
    let game = Game::new(board);
    let outcome = think(game.clone(), limits, &TranspositionTable::new(16));
    (game, outcome)
}

fn to_depth(depth: u32) -> Limits {
    Limits {
        depth: Some(depth),
        ..Limits::default()
    }
}

fn uci_move(game: &Game, text: &str) -> Move {
    let uci = text.parse().expect("test move is UCI");
    from_uci(&game.board, uci, false).expect("test move is legal")
}

/// (FEN, mate in N moves, the mating first move) — positions from Win At Chess and the
/// classic puzzle collections, checked with Stockfish 15.1.
const MATES: [(&str, i32, &str); 6] = [
    ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1, "d1d8"),
    (
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
        2,
        "g3g6",
    ),
    (
        "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
        2,
        "h6h7",
    ),
    (
        "5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1",
        2,
        "c6c4",
    ),
    ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3, "f6a6"),
    (
        "1k5r/pP3ppp/3p2b1/1BN1n3/1Q2P3/P1B5/KP3P1P/7q w - - 1 1",
        3,
        "c5a6",
    ),
];

#[test]
fn finds_mates_in_one_two_and_three() {
    for (fen, moves, first) in MATES {
        let (game, outcome) = search_fen(fen, to_depth(16));
        assert!(is_mate(outcome.score), "{fen}: score {}", outcome.score);
        assert_eq!(mate_moves(outcome.score), moves, "{fen}");
        assert_eq!(outcome.best, Some(uci_move(&game, first)), "{fen}");
    }
}

/// `go mate N` in `fen`.
fn mate_search(fen: &str, moves: u32) -> SearchOutcome {
    let limits = Limits {
        mate: Some(moves),
        ..Limits::default()
    };
    search_fen(fen, limits).1
}

#[test]
fn go_mate_stops_once_the_mate_is_found() {
    let outcome = mate_search(MATES[1].0, 2);
    assert_eq!(mate_moves(outcome.score), 2);
    assert!(outcome.depth < 20, "searched on to depth {}", outcome.depth);
}

/// Without a mate in 2, `go mate 2` stops after 2 * 2 - 1 plies and 16 spare ones rather
/// than search on to the deepest ply.
#[test]
fn go_mate_ends_where_there_is_no_such_mate() {
    let outcome = mate_search("8/8/2k5/r7/8/5K2/6R1/8 w - - 0 1", 2);
    assert!(!is_mate(outcome.score), "score {}", outcome.score);
    assert_eq!(outcome.depth, 19);
}

#[test]
fn node_limit_is_honoured() {
    let (_, outcome) = search_fen(
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        Limits {
            nodes: Some(5000),
            ..Limits::default()
        },
    );
    assert!(outcome.best.is_some());
    assert!(outcome.nodes <= 5000, "{} nodes", outcome.nodes);
}

#[test]
fn searchmoves_restricts_the_root() {
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let board = parse_fen(fen, false).expect("valid");
    let game = Game::new(board);
    let only = uci_move(&game, "a2a3");
    let limits = Limits {
        depth: Some(6),
        searchmoves: vec![only],
        ..Limits::default()
    };
    let outcome = think(game, limits, &TranspositionTable::new(16));
    assert_eq!(outcome.best, Some(only));
}

#[test]
fn threefold_repetition_with_the_game_history_is_a_draw() {
    // Queen against bare king. The game so far: Qh3 Kb8 Qh2+ Ka8 (the start position
    // again), Qh3 Kb8 Qh2+. Black, lost otherwise, can play ...Ka8 to stand in the start
    // position a third time: a draw, which the search must see through the history.
    let start = parse_fen("k7/8/8/8/8/8/7Q/K7 w - - 0 1", false).expect("valid");
    let mut game = Game::new(start);
    for mv in ["h2h3", "a8b8", "h3h2", "b8a8", "h2h3", "a8b8", "h3h2"] {
        let m = uci_move(&game, mv);
        game.play(m);
    }
    let outcome = think(game.clone(), to_depth(8), &TranspositionTable::new(16));
    assert_eq!(outcome.best, Some(uci_move(&game, "b8a8")));
    assert!(outcome.score.abs() <= 30, "score {}", outcome.score);

    // Without the history the same position is simply lost for Black.
    let fresh = Game::new(game.board.clone());
    let outcome = think(fresh, to_depth(8), &TranspositionTable::new(16));
    assert!(outcome.score < -300, "score {}", outcome.score);
}

#[test]
fn fifty_move_rule_is_a_draw() {
    // Up a rook, but the halfmove clock is at 99 and no capture or pawn move is at
    // hand: whatever White plays, the game is drawn.
    let (_, outcome) = search_fen("8/8/4k3/8/8/8/8/R3K3 w - - 99 120", to_depth(6));
    assert!(outcome.score.abs() <= 30, "score {}", outcome.score);
    let (_, winning) = search_fen("8/8/4k3/8/8/8/8/R3K3 w - - 0 120", to_depth(6));
    assert!(winning.score > 300, "score {}", winning.score);
}
