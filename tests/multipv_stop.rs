//! A MultiPV search stopped in the middle of a depth plays the best line it knows, not
//! whichever line the stopped depth happened to search first.

mod common;

use std::time::Duration;

use common::{parse_bestmove, EngineProcess};

const SEARCH: Duration = Duration::from_secs(60);

/// White to move wins with c7c8r (mate in 2) or by walking the king to d7/d6 first; the
/// queen promotion c7c8q is stalemate, the other promotions and king moves let the pawn
/// go. Each node budget stops a depth at another point.
const FEN: &str = "8/k1P5/2K5/8/8/8/8/8 w - - 0 1";
const WINNING: [&str; 3] = ["c7c8r", "c6d7", "c6d6"];

/// Before the fix, the first line of each new depth began with the hash move, which a
/// MultiPV depth leaves as its worst line's: a budget that ran out in that line played
/// it (12 of these 69 searches, c7c8q stalemate among them).
#[test]
fn a_stopped_multipv_search_plays_a_winning_move() {
    let mut engine = EngineProcess::start();
    let mut wrong = Vec::new();
    for lines in [2, 5, 9] {
        engine.send(&format!("setoption name MultiPV value {lines}"));
        for nodes in (500..=6000).step_by(250) {
            engine.send("ucinewgame");
            engine.send(&format!("position fen {FEN}"));
            engine.send(&format!("go nodes {nodes}"));
            let output = engine.read_until_bestmove(SEARCH);
            let last = output.last().map(String::as_str).unwrap_or("");
            let Some((best, _)) = parse_bestmove(last) else {
                engine.fail(&format!("no bestmove for MultiPV {lines}, {nodes} nodes"));
            };
            if !WINNING.contains(&best.as_str()) {
                wrong.push(format!("MultiPV {lines}, {nodes} nodes: {best}"));
            }
        }
    }
    if !wrong.is_empty() {
        engine.fail(&format!("moves that do not win: {wrong:?}"));
    }
}
