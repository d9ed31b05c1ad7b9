//! `annotate --json`: one JSON object per game, for scripts. serde_json does the
//! escaping; the fields appear in the order declared here, the tags in file order.

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use super::pgn_text::eval_text;
use super::review::{Eval, GameReview, PlayerSummary};
use crate::analyze::json::line;
use crate::position::to_uci;

/// An evaluation from White's view: `{"cp": 35}` or `{"mate": -3}` (`{"mate": 0}` when
/// the side to move is checkmated).
#[derive(Debug, Serialize)]
pub enum EvalJson {
    #[serde(rename = "cp")]
    Cp(i32),
    #[serde(rename = "mate")]
    Mate(i32),
}

impl From<Eval> for EvalJson {
    fn from(eval: Eval) -> EvalJson {
        match eval {
            Eval::Cp(cp) => EvalJson::Cp(cp),
            Eval::Mate(moves) => EvalJson::Mate(moves),
            Eval::Checkmate => EvalJson::Mate(0),
        }
    }
}

/// The tags as a JSON object in file order. A tag given twice keeps its first value (the
/// one `PgnGame::tag` reads): a JSON object with a repeated key is read differently by
/// different parsers.
struct Tags<'a>(&'a [(String, String)]);

impl Serialize for Tags<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        let mut written = std::collections::HashSet::new();
        for (name, value) in self.0 {
            if written.insert(name.as_str()) {
                map.serialize_entry(name, value)?;
            }
        }
        map.end()
    }
}

/// One move.
#[derive(Debug, Serialize)]
struct MoveJson {
    /// 1 for the game's first move.
    ply: usize,
    san: String,
    uci: String,
    /// After the move, White's view, as its `[%eval]` (pawns, or `#N`).
    eval: EvalJson,
    /// The same as the PGN's `[%eval]` text, `null` for the move that checkmates.
    eval_text: Option<String>,
    /// The search's move in the position before, and its evaluation (White's view).
    best: Option<String>,
    best_uci: Option<String>,
    best_eval: EvalJson,
    /// The drop of the mover's expected score in points (0-100).
    drop: f64,
    cp_loss: i32,
    /// `inaccuracy`, `mistake`, `blunder` or `null`.
    class: Option<&'static str>,
    forced: bool,
    /// The search's line from the position before, in UCI.
    pv: Vec<String>,
    depth: u32,
    nodes: u64,
}

/// One player's figures.
#[derive(Debug, Serialize)]
struct PlayerJson {
    accuracy: Option<f64>,
    acpl: Option<f64>,
    moves: usize,
    inaccuracies: usize,
    mistakes: usize,
    blunders: usize,
}

impl From<&PlayerSummary> for PlayerJson {
    fn from(player: &PlayerSummary) -> PlayerJson {
        let tenth = |x: f64| (x * 10.0).round() / 10.0;
        PlayerJson {
            accuracy: player.accuracy.map(tenth),
            acpl: player.acpl.map(tenth),
            moves: player.moves,
            inaccuracies: player.inaccuracies,
            mistakes: player.mistakes,
            blunders: player.blunders,
        }
    }
}

/// One game.
#[derive(Serialize)]
struct GameJson<'a> {
    /// 1 for the file's first game.
    game: usize,
    headers: Tags<'a>,
    /// The start position (X-FEN in Chess960).
    fen: String,
    chess960: bool,
    settings: &'a str,
    white: PlayerJson,
    black: PlayerJson,
    moves: Vec<MoveJson>,
    result: &'a str,
    /// Why the main line stops before its end, if it does.
    error: Option<&'a str>,
}

/// The JSON line of a reviewed game; `settings` describes the searches.
pub fn game_line(review: &GameReview, settings: &str) -> String {
    let input = &review.input;
    let mut board = input.start.clone();
    let chess960 = input.chess960;
    let moves = review
        .plies
        .iter()
        .enumerate()
        .map(|(index, ply)| {
            let pv = crate::search::report::pv_text(&board, &ply.line, chess960);
            let json = MoveJson {
                ply: index + 1,
                san: ply.san.clone(),
                uci: ply.uci.clone(),
                eval: ply.eval.into(),
                eval_text: eval_text(ply.eval),
                best: ply.best_san.clone(),
                best_uci: ply.best.map(|mv| to_uci(&board, mv, chess960).to_string()),
                best_eval: ply.best_eval.into(),
                drop: (ply.judgement.drop * 10.0).round() / 10.0,
                cp_loss: ply.judgement.cp_loss,
                class: ply.judgement.class.map(super::judge::Class::name),
                forced: ply.forced,
                pv: pv.iter().map(ToString::to_string).collect(),
                depth: ply.depth,
                nodes: ply.nodes,
            };
            board.play_unchecked(ply.mv);
            json
        })
        .collect();
    let fen = if chess960 {
        format!("{:#}", input.start)
    } else {
        format!("{}", input.start)
    };
    line(&GameJson {
        game: input.number,
        headers: Tags(&input.tags),
        fen,
        chess960,
        settings,
        white: (&review.white).into(),
        black: (&review.black).into(),
        moves,
        result: &input.result,
        error: input.error.as_deref(),
    })
}
