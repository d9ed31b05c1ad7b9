use super::*;
use crate::score::{mate_in, mated_in, tb_loss_in, tb_win_in};
use crate::viri::read_games;

#[test]
fn scores_of_fastchess_and_cutechess_comments() {
    let cases = [
        ("+0.36/14 0.193s", Some(36)),
        ("-1.05/9 0.010s", Some(-105)),
        ("0.00/0 0s", Some(0)),
        ("-0.00/12 0.5s", Some(0)),
        ("+12.5/3 1s", Some(1250)),
        ("+0.005/3 1s", Some(1)),
        ("+M5/20 0.020s", Some(mate_in(5))),
        ("-M6/20 0.020s, Black mates", Some(mated_in(6))),
        ("+M1/1 0.001s, White mates", Some(mate_in(1))),
        ("+0.36/14 0.193s, White wins by adjudication", Some(36)),
        ("+199.98/30 0.1s", Some(tb_win_in(2))),
        ("-199.90/30 0.1s", Some(tb_loss_in(10))),
        ("+150.00/30 0.1s", Some(15000)),
        ("book", None),
        ("ERR/0 0.000s", None),
        ("0s", None),
        ("a comment about 3/4 of the board", None),
        ("+0.36", None),
        ("+0.36/ 1s", None),
        ("+0.3x/5 1s", None),
        ("+/5", None),
        ("", None),
    ];
    for (comment, expected) in cases {
        assert_eq!(comment_score(comment), expected, "{comment:?}");
    }
}

/// The converted form of the only game of `pgn`.
fn convert_one(pgn: &str) -> Result<ViriGame, SkipReason> {
    let game = crate::pgn::games(pgn).next().unwrap().unwrap();
    convert_game(&game)
}

#[test]
fn scores_are_white_relative_and_missing_ones_are_marked() {
    let game = convert_one(
        "[Result \"0-1\"]\n1. e4 {+0.30/10 0.1s} e5 {+0.20/10 0.1s} 2. Nf3 {book} \
         Nc6 3. Bc4 {-M4/12 0.1s} Nf6 {+M3/9 0.1s} 0-1",
    )
    .unwrap();
    let scores: Vec<i16> = game.plies.iter().map(|&(_, s)| s).collect();
    let missing = i32::from(MISSING_SCORE);
    let expected = [30, -20, missing, missing, mated_in(4), -mate_in(3)];
    assert_eq!(
        scores,
        expected.map(|s: i32| i16::try_from(s).unwrap()).to_vec()
    );
    assert_eq!(game.result, GameResult::BlackWins);
    // The trainer skips a position whose score is missing.
    let (board, mv, score) = game.positions().nth(6 - 4).unwrap();
    assert!(!crate::train::data::keep(&board, mv, score, 100));
    let (board, mv, score) = game.positions().nth(1).unwrap();
    assert_eq!(score, -20);
    assert!(crate::train::data::keep(&board, mv, score, 100));
}

#[test]
fn results_come_from_the_result_tag_else_the_token() {
    let draw = convert_one("[Result \"1/2-1/2\"]\n1. e4 e5 *").unwrap();
    assert_eq!(draw.result, GameResult::Draw);
    let token = convert_one("1. e4 e5 1-0").unwrap();
    assert_eq!(token.result, GameResult::WhiteWins);
    assert_eq!(convert_one("1. e4 e5 *"), Err(SkipReason::NoResult));
    assert_eq!(convert_one("1. e4 e5"), Err(SkipReason::NoResult));
    assert_eq!(
        convert_one("[Result \"1-0\"]\n1-0"),
        Err(SkipReason::NoMoves)
    );
    let abandoned = "[Result \"1-0\"]\n[Termination \"abandoned\"]\n1. e4 1-0";
    assert_eq!(
        convert_one(abandoned),
        Err(SkipReason::Termination("abandoned".to_string()))
    );
    let adjudicated = "[Result \"1-0\"]\n[Termination \"adjudication\"]\n1. e4 1-0";
    assert!(convert_one(adjudicated).is_ok());
}

#[test]
fn a_file_with_a_broken_game_converts_the_others() {
    let text = "[Result \"1-0\"]\n1. e4 {+0.1/1 0s} 1-0\n\n\
                [Result \"1-0\"]\n1. e4 e5 2. Ke3 1-0\n\n\
                [Result \"0-1\"]\n1. d4 {+0.2/1 0s} d5 {-0.3/1 0s} 0-1\n";
    let mut out = Vec::new();
    let mut lines = Vec::new();
    let summary = convert_text(text, &mut out, &mut |line| lines.push(line.to_string())).unwrap();
    assert_eq!(
        summary,
        Summary {
            games: 2,
            plies: 3,
            missing_scores: 0,
            skipped: 1
        }
    );
    assert_eq!(lines.len(), 1);
    assert!(
        lines[0].starts_with("skipped game 2: line 5, ply 3 (2.), \"Ke3\": illegal move"),
        "{}",
        lines[0]
    );
    let games = read_games(&out).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].plies[1].1, 30);
    assert_eq!(games[1].result, GameResult::BlackWins);
}
