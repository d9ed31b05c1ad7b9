use cozy_chess::{Board, Move, Piece};

use super::*;
use crate::position::parse_fen;
use crate::san::SanError;

/// Every game of `text`, each expected to read.
fn read_all(text: &str) -> Vec<PgnGame> {
    games(text)
        .map(|game| game.unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

fn one(text: &str) -> PgnGame {
    let mut all = read_all(text);
    assert_eq!(all.len(), 1, "{all:?}");
    all.remove(0)
}

fn sans(game: &PgnGame) -> Vec<&str> {
    game.moves.iter().map(|m| m.san.as_str()).collect()
}

fn mv(from: &str, to: &str, promotion: Option<Piece>) -> Move {
    Move {
        from: from.parse().unwrap(),
        to: to.parse().unwrap(),
        promotion,
    }
}

#[test]
fn several_games_with_tags_in_order_and_results() {
    let text = r#"[Event "A \"quoted\" event"]
[Site "?"]
[White "Cutoff"]
[Black "Other"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "B"]
[Result "1/2-1/2"]

1. d4 d5 1/2-1/2
[Event "C"]
[Result "*"]
1. c4 *
"#;
    let games = read_all(text);
    assert_eq!(games.len(), 3);
    let first = &games[0];
    assert_eq!(first.number, 1);
    assert_eq!(
        first
            .tags
            .iter()
            .map(|(n, _)| n.as_str())
            .collect::<Vec<_>>(),
        ["Event", "Site", "White", "Black", "Result"]
    );
    assert_eq!(first.tag("Event"), Some("A \"quoted\" event"));
    assert_eq!(
        sans(first),
        ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
    );
    assert_eq!(first.result.as_deref(), Some("1-0"));
    assert_eq!(first.outcome(), Some(Outcome::WhiteWins));
    let end = first.end();
    assert_eq!(end.status(), cozy_chess::GameStatus::Won);
    assert_eq!(games[1].number, 2);
    assert_eq!(games[1].outcome(), Some(Outcome::Draw));
    assert_eq!(games[2].result.as_deref(), Some("*"));
    assert_eq!(games[2].outcome(), None);
    assert!(!first.chess960);
    assert_eq!(first.start, Board::default());
}

#[test]
fn comments_of_both_kinds_stay_with_their_moves() {
    let game = one(
        "{Before the game} 1. e4 {+0.36/14 0.193s} e5 ; a line comment\n\
         2. Nf3 {first} {second} Nc6 {} 3. Bb5 1-0",
    );
    assert_eq!(game.comment.as_deref(), Some("Before the game"));
    let comments: Vec<Option<&str>> = game.moves.iter().map(|m| m.comment.as_deref()).collect();
    assert_eq!(
        comments,
        [
            Some("+0.36/14 0.193s"),
            Some("a line comment"),
            Some("first second"),
            None,
            None
        ]
    );
}

#[test]
fn nags_and_suffixes_stay_with_their_moves() {
    let game = one("1. e4! $1 e5?! 2. Nf3!! Nc6?? 3. Bb5 !? $14 a6? $200 4. Ba4 *");
    let nags: Vec<&[u8]> = game.moves.iter().map(|m| m.nags.as_slice()).collect();
    assert_eq!(
        nags,
        [&[1, 1][..], &[6], &[3], &[4], &[5, 14], &[2, 200], &[]]
    );
    assert_eq!(sans(&game), ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4"]);
}

#[test]
fn variations_are_skipped_however_nested() {
    // The moves inside the variations are not legal in the main line, and one holds a
    // result token and a comment: none of it counts.
    let game = one(
        "1. e4 (1. d4 d5 (1... Nf6 2. c4 {inner} 1-0) 2. c4) 1... e5 {main} \
         (1... c5 2. Nf3 (2. Nc3)) 2. Nf3 0-1",
    );
    assert_eq!(sans(&game), ["e4", "e5", "Nf3"]);
    assert_eq!(game.moves[1].comment.as_deref(), Some("main"));
    assert_eq!(game.result.as_deref(), Some("0-1"));
}

#[test]
fn move_numbers_in_every_spelling() {
    let game = one("1.e4 1... e5 2.Nf3 2...Nc6 3. Bb5 3... a6 4 . Ba4 *");
    assert_eq!(sans(&game), ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4"]);
}

#[test]
fn long_runs_of_skipped_text_do_not_grow_the_stack() {
    // Two million stray dots and a million `<>` pairs between two moves: the lexer skips
    // them in a loop (recursing once per skip overflowed the stack of a debug build).
    let filler = format!("{}{}", ".".repeat(2_000_000), "<>".repeat(1_000_000));
    let game = one(&format!("1. e4 {filler} e5 *"));
    assert_eq!(sans(&game), ["e4", "e5"]);
}

#[test]
fn castling_with_letters_or_zeros_is_king_takes_rook() {
    let text = r#"[FEN "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1"]
1. O-O 0-0-0 *"#;
    let game = one(text);
    assert_eq!(game.moves[0].mv, mv("e1", "h1", None));
    assert_eq!(game.moves[1].mv, mv("e8", "a8", None));
    assert_eq!(game.moves[1].san, "0-0-0");
    let mut text2 = text.replace("1. O-O 0-0-0", "1. 0-0+ O-O-O");
    assert!(games(&text2).next().unwrap().is_ok());
    text2 = text.replace("1. O-O 0-0-0", "1. Kxh1");
    assert!(games(&text2).next().unwrap().is_err());
}

#[test]
fn promotions_with_or_without_the_sign() {
    let text = r#"[SetUp "1"]
[FEN "3r3k/4P3/8/8/8/8/Kp6/8 w - - 0 1"]
1. exd8=Q+ Kg7 2. Qd2 b1Q+ 3. Kxb1 *"#;
    let game = one(text);
    assert_eq!(game.moves[0].mv, mv("e7", "d8", Some(Piece::Queen)));
    assert_eq!(game.moves[0].san, "exd8=Q+");
    assert_eq!(game.moves[3].mv, mv("b2", "b1", Some(Piece::Queen)));
    let knight = one(&text.replace("exd8=Q+ Kg7 2. Qd2 b1Q+ 3. Kxb1", "e8=N"));
    assert_eq!(knight.moves[0].mv, mv("e7", "e8", Some(Piece::Knight)));
}

#[test]
fn chess960_games_in_x_fen_and_shredder_fen() {
    // White: king b1, rooks a1 and g1; O-O is the king taking the g1 rook (king to g1,
    // rook to f1), Black's O-O-O the king taking the a8 rook.
    let x_fen = "rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w KQkq - 0 1";
    let shredder = "rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w GAga - 0 1";
    for (variant, fen) in [("fischerandom", x_fen), ("Chess960", shredder)] {
        let text = format!(
            "[Variant \"{variant}\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n1. O-O O-O-O 1/2-1/2\n"
        );
        let game = one(&text);
        assert!(game.chess960, "{variant}");
        assert_eq!(game.start, parse_fen(shredder, true).unwrap());
        assert_eq!(game.moves[0].mv, mv("b1", "g1", None));
        assert_eq!(game.moves[1].mv, mv("b8", "a8", None));
        let end = game.end();
        assert_eq!(end.king(cozy_chess::Color::White), "g1".parse().unwrap());
        assert_eq!(end.king(cozy_chess::Color::Black), "c8".parse().unwrap());
    }
    // A Shredder-FEN castling field is Chess960 even without a Variant tag.
    let game = one(&format!("[FEN \"{shredder}\"]\n1. O-O *"));
    assert!(game.chess960);
}

#[test]
fn a_game_may_end_without_a_result() {
    // At the next game's tags, and at the end of the text.
    let games = read_all("[Event \"A\"]\n1. e4 e5\n\n[Event \"B\"]\n1. d4 d5 2. c4");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].result, None);
    assert_eq!(sans(&games[0]), ["e4", "e5"]);
    assert_eq!(games[1].result, None);
    assert_eq!(sans(&games[1]), ["d4", "d5", "c4"]);
    assert_eq!(games[1].number, 2);
}

#[test]
fn a_bad_move_names_game_ply_and_token_and_keeps_the_moves_before() {
    let text = "[Event \"A\"]\n1. e4 e5 1-0\n\n[Event \"B\"]\n1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf9 \
                (3... a6) 4. O-O 1-0\n\n[Event \"C\"]\n1. d4 *\n";
    let results: Vec<_> = games(text).collect();
    assert_eq!(results.len(), 3);
    assert!(results[0].is_ok() && results[2].is_ok());
    assert_eq!(results[2].as_ref().unwrap().number, 3);
    let error = results[1].as_ref().unwrap_err();
    assert_eq!(error.game, 2);
    assert_eq!(error.ply, Some(6));
    assert_eq!(error.token.as_deref(), Some("Nf9"));
    assert_eq!(error.line, 5);
    assert_eq!(error.kind, PgnErrorKind::Move(SanError::Unreadable));
    let partial = error.partial.as_ref().unwrap();
    assert_eq!(sans(partial), ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
    assert_eq!(partial.tag("Event"), Some("B"));
    assert_eq!(
        error.to_string(),
        "game 2, line 5, ply 6 (3...), \"Nf9\": not a move"
    );
}

#[test]
fn illegal_and_ambiguous_moves_are_told_apart() {
    let illegal = games("1. e4 e5 2. Ke3 *").next().unwrap().unwrap_err();
    assert_eq!(illegal.kind, PgnErrorKind::Move(SanError::Illegal));
    assert_eq!(illegal.ply, Some(3));
    let text = "[FEN \"4k3/8/8/8/8/8/4K3/R6R w - - 0 1\"]\n1. Rd1 *";
    let ambiguous = games(text).next().unwrap().unwrap_err();
    assert_eq!(ambiguous.kind, PgnErrorKind::Move(SanError::Ambiguous(2)));
}

#[test]
fn bad_setups_are_errors_and_the_next_game_is_read() {
    let text = "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n1. e4 1-0\n\
                [Variant \"crazyhouse\"]\n1. e4 1-0\n\
                [Event \"unclosed]\n[Site \"x\"]\n1. e4 1-0\n\
                [Event \"fine\"]\n1. e4 1-0\n";
    let results: Vec<_> = games(text).collect();
    assert_eq!(results.len(), 4, "{results:?}");
    let errors: Vec<&PgnError> = results[..3]
        .iter()
        .map(|r| r.as_ref().unwrap_err())
        .collect();
    assert!(matches!(errors[0].kind, PgnErrorKind::Fen { .. }));
    assert!(errors[0].partial.is_none());
    assert_eq!(
        errors[1].kind,
        PgnErrorKind::Variant("crazyhouse".to_string())
    );
    assert!(matches!(errors[2].kind, PgnErrorKind::Syntax(_)));
    let fine = results[3].as_ref().unwrap();
    assert_eq!((fine.number, fine.tag("Event")), (4, Some("fine")));
}

/// A `{` or `<` that is never closed costs its own game, reported at the line it opens
/// on, and the reading goes on at the next game's tag pairs.
#[test]
fn an_unclosed_comment_is_an_error_and_the_next_game_is_read() {
    for opening in ["{", "<"] {
        let text = format!(
            "[Event \"a\"]\n\n1. e4 {opening}never closed e5 2. Nf3 1-0\n\n\
             [Event \"b\"]\n\n1. d4 d5 1-0\n"
        );
        let results: Vec<_> = games(&text).collect();
        assert_eq!(results.len(), 2, "{opening}: {results:?}");
        let error = results[0].as_ref().unwrap_err();
        assert!(matches!(error.kind, PgnErrorKind::Syntax(_)), "{error:?}");
        assert!(error.to_string().contains("never closed"), "{error}");
        assert!(error.to_string().contains("line 3"), "{error}");
        let next = results[1].as_ref().unwrap();
        assert_eq!(
            (next.tag("Event"), sans(next)),
            (Some("b"), vec!["d4", "d5"])
        );
    }
}

/// Stray text between games, or a `{` never closed right after a game's tags, is
/// reported where it is and costs no other game.
#[test]
fn stray_text_and_unclosed_comments_after_tags_keep_the_next_games() {
    let text = "[Event \"a\"]\n1. e4 e5 1-0\n}\n[Event \"b\"]\n1. d4 d5 0-1\n";
    let results: Vec<_> = games(text).collect();
    assert_eq!(results.len(), 3, "{results:?}");
    let stray = results[1].as_ref().unwrap_err();
    assert!(stray.to_string().contains("line 3"), "{stray}");
    assert!(
        stray.to_string().contains("unexpected character"),
        "{stray}"
    );
    let b = results[2].as_ref().unwrap();
    assert_eq!((b.tag("Event"), sans(b)), (Some("b"), vec!["d4", "d5"]));

    let text = "[Event \"x\"]\n{\n[Event \"y\"]\n{\n[Event \"z\"]\n1. e4 e5 1-0\n";
    let results: Vec<_> = games(text).collect();
    assert_eq!(results.len(), 3, "{results:?}");
    for (result, line) in results[..2].iter().zip(["line 2", "line 4"]) {
        let error = result.as_ref().unwrap_err();
        assert!(error.to_string().contains("never closed"), "{error}");
        assert!(error.to_string().contains(line), "{error}");
    }
    let z = results[2].as_ref().unwrap();
    assert_eq!((z.number, z.tag("Event")), (3, Some("z")));
    assert_eq!(sans(z), vec!["e4", "e5"]);
}

/// A malformed tag pair that starts a game (the one before had no result) is that
/// game's error, not the end of the game before.
#[test]
fn a_malformed_first_tag_belongs_to_its_own_game() {
    let text = "[Event \"a\"]\n1. e4 e5\n[Event \"b]\n1. d4 1-0\n[Event \"c\"]\n1. c4 1-0\n";
    let results: Vec<_> = games(text).collect();
    assert_eq!(results.len(), 3, "{results:?}");
    let a = results[0].as_ref().unwrap();
    assert_eq!(sans(a), vec!["e4", "e5"]);
    assert!(results[1].is_err());
    let c = results[2].as_ref().unwrap();
    assert_eq!((c.number, c.tag("Event")), (3, Some("c")));
}

#[test]
fn escape_lines_byte_order_marks_and_trailing_comments() {
    let text = "\u{feff}% exported by a tool\n[Event \"x\"]\n1. e4 e5 *\n{the end}\n";
    let game = one(text);
    assert_eq!(sans(&game), ["e4", "e5"]);
    assert_eq!(read_all("").len(), 0);
    assert_eq!(read_all("  \n{only a comment}\n").len(), 0);
}

#[test]
fn the_result_tag_decides_the_outcome() {
    // fastchess writes the Result tag and the same token; a tag wins over a missing token.
    let game = one("[Result \"0-1\"]\n1. f3 e5 2. g4 Qh4#");
    assert_eq!(game.result, None);
    assert_eq!(game.outcome(), Some(Outcome::BlackWins));
    let positions: Vec<_> = game.positions().collect();
    assert_eq!(positions.len(), 4);
    assert_eq!(positions[0].0, game.start);
    assert_eq!(positions[3].1.san, "Qh4#");
}
