//! The JSON lines `analyze` writes, as serde types: one object per analysed position and
//! a summary at the end. serde_json does the escaping; the fields appear in the order
//! declared here.

use serde::Serialize;

/// A score: centipawns or mate in moves, from the side to move's view.
#[derive(Debug, Serialize)]
pub enum ScoreJson {
    #[serde(rename = "cp")]
    Cp(i32),
    #[serde(rename = "mate")]
    Mate(i32),
}

/// The line of one analysed position.
#[derive(Debug, Serialize)]
pub struct PositionJson {
    /// The line number in the EPD file.
    pub line: usize,
    pub id: Option<String>,
    pub fen: String,
    pub bestmove: Option<String>,
    pub san: Option<String>,
    pub score: ScoreJson,
    pub depth: u32,
    pub nodes: u64,
    /// Milliseconds.
    pub time: u64,
    pub pv: Vec<String>,
    /// The EPD's best moves, when it gives some.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bm: Vec<String>,
    /// The EPD's moves to avoid, when it gives some.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub am: Vec<String>,
    /// Whether the move meets `bm`/`am`; `null` when the EPD gives neither.
    pub solved: Option<bool>,
}

/// The last line: the totals.
#[derive(Debug, Serialize)]
pub struct SummaryJson {
    pub summary: bool,
    pub solved: u64,
    pub total: u64,
    pub positions: u64,
    pub skipped: u64,
}

/// `value` as one line of JSON.
pub fn line(value: &impl Serialize) -> String {
    // Serialising these plain structs cannot fail (no maps with non-string keys, no I/O).
    serde_json::to_string(value).unwrap_or_else(|error| format!("{{\"error\":\"{error}\"}}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_keep_their_order_and_strings_are_escaped() {
        let position = PositionJson {
            line: 3,
            id: Some(r#"WAC "1" \ x"#.to_string()),
            fen: "8/8/8/8/8/8/8/8 w - - 0 1".to_string(),
            bestmove: None,
            san: None,
            score: ScoreJson::Cp(-15),
            depth: 6,
            nodes: 100,
            time: 2,
            pv: vec!["e2e4".into(), "e7e5".into()],
            bm: vec![],
            am: vec!["a2a3".into()],
            solved: Some(true),
        };
        assert_eq!(
            line(&position),
            r#"{"line":3,"id":"WAC \"1\" \\ x","fen":"8/8/8/8/8/8/8/8 w - - 0 1","bestmove":null,"san":null,"score":{"cp":-15},"depth":6,"nodes":100,"time":2,"pv":["e2e4","e7e5"],"am":["a2a3"],"solved":true}"#
        );
        assert_eq!(line(&ScoreJson::Mate(-2)), r#"{"mate":-2}"#);
    }
}
