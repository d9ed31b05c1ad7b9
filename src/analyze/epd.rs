//! EPD lines: the four position fields of a FEN, optionally the two move counters, then
//! operations `opcode operand ... ;` (the last `;` may be missing). Operands are words or
//! `"quoted strings"`, which may hold spaces and semicolons. The opcodes `analyze` uses are
//! `id` (a name), `bm` (best moves) and `am` (moves to avoid), whose moves may be SAN or
//! UCI (see `crate::san`), and `hmvc`/`fmvn` (the move counters, when the FEN part has none);
//! the others are kept but not interpreted.

use cozy_chess::{Board, Move};

use crate::position::{parse_fen, PositionError};
use crate::san::parse_move;

/// Why an EPD line was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EpdError {
    /// Fewer than the four position fields.
    #[error("expected the 4 position fields of an EPD line, found {0}")]
    MissingFields(usize),
    /// The position fields do not make a valid position.
    #[error("{0}")]
    Fen(PositionError),
    /// An opcode that does not start with a letter or holds other than letters, digits
    /// and `_`.
    #[error("'{0}' is not an opcode (a letter, then letters, digits or '_')")]
    BadOpcode(String),
    /// An opcode given twice.
    #[error("opcode '{0}' given twice")]
    RepeatedOpcode(String),
    /// A `"` without its closing `"`.
    #[error("a '\"' string is not closed")]
    UnterminatedString,
    /// `bm`, `am`, `id`, `hmvc` or `fmvn` without an operand.
    #[error("opcode '{0}' needs an operand")]
    NoOperand(String),
    /// A `bm` or `am` operand that is no legal move of the position.
    #[error("{opcode} '{token}' is not a legal move in this position (SAN or UCI)")]
    BadMove { opcode: String, token: String },
    /// A `hmvc` or `fmvn` operand that is not a number.
    #[error("{opcode} '{token}' is not a move count")]
    BadCounter { opcode: String, token: String },
}

/// One operation: an opcode and its operands (quotes removed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operation {
    pub opcode: String,
    pub operands: Vec<String>,
}

/// A parsed EPD line.
#[derive(Debug, Clone)]
pub struct EpdRecord {
    pub board: Board,
    /// Every operation, in the order given.
    pub operations: Vec<Operation>,
    /// The `id` operand.
    pub id: Option<String>,
    /// The `bm` moves (empty without `bm`).
    pub best: Vec<Move>,
    /// The `am` moves (empty without `am`).
    pub avoid: Vec<Move>,
}

impl EpdRecord {
    /// Whether the line says which moves solve it (`bm` or `am`).
    pub fn has_answer(&self) -> bool {
        !self.best.is_empty() || !self.avoid.is_empty()
    }

    /// Whether `mv` solves the line: one of the `bm` moves (if any) and none of the `am`
    /// moves (if any). `None` for a line with neither.
    pub fn solved_by(&self, mv: Option<Move>) -> Option<bool> {
        if !self.has_answer() {
            return None;
        }
        Some(mv.is_some_and(|mv| {
            (self.best.is_empty() || self.best.contains(&mv)) && !self.avoid.contains(&mv)
        }))
    }
}

/// Whether a line holds no position: blank, or a `#` comment.
pub fn is_blank(line: &str) -> bool {
    let text = line.trim();
    text.is_empty() || text.starts_with('#')
}

/// Parses one (non-blank) EPD line. `chess960` allows Chess960 castling rights and moves.
pub fn parse_line(line: &str, chess960: bool) -> Result<EpdRecord, EpdError> {
    let mut rest = line.trim();
    let mut fields = Vec::with_capacity(6);
    while fields.len() < 4 {
        let (word, after) = next_word(rest);
        if word.is_empty() {
            return Err(EpdError::MissingFields(fields.len()));
        }
        fields.push(word);
        rest = after;
    }
    // Move counters, as in a full FEN: opcodes start with a letter, so a number is one.
    while fields.len() < 6 {
        let (word, after) = next_word(rest);
        if word.is_empty() || !word.bytes().all(|b| b.is_ascii_digit()) {
            break;
        }
        fields.push(word);
        rest = after;
    }
    let operations = parse_operations(rest)?;
    let operand = |opcode: &str| -> Result<Option<&str>, EpdError> {
        match operations.iter().find(|op| op.opcode == opcode) {
            None => Ok(None),
            Some(op) => op
                .operands
                .first()
                .map(|s| Some(s.as_str()))
                .ok_or_else(|| EpdError::NoOperand(opcode.to_string())),
        }
    };
    let mut fen: Vec<String> = fields
        .iter()
        .map(std::string::ToString::to_string)
        .collect();
    if fen.len() == 4 {
        let halfmove = operand("hmvc")?;
        let fullmove = operand("fmvn")?;
        if halfmove.is_some() || fullmove.is_some() {
            for (opcode, value, default) in [("hmvc", halfmove, "0"), ("fmvn", fullmove, "1")] {
                let value = value.unwrap_or(default);
                if value.parse::<u32>().is_err() {
                    return Err(EpdError::BadCounter {
                        opcode: opcode.to_string(),
                        token: value.to_string(),
                    });
                }
                fen.push(value.to_string());
            }
        }
    }
    let board = parse_fen(&fen.join(" "), chess960).map_err(EpdError::Fen)?;
    let id = operand("id")?.map(str::to_string);
    let moves = |opcode: &str| -> Result<Vec<Move>, EpdError> {
        let Some(op) = operations.iter().find(|op| op.opcode == opcode) else {
            return Ok(Vec::new());
        };
        if op.operands.is_empty() {
            return Err(EpdError::NoOperand(opcode.to_string()));
        }
        op.operands
            .iter()
            .map(|token| {
                parse_move(&board, token, chess960).ok_or_else(|| EpdError::BadMove {
                    opcode: opcode.to_string(),
                    token: token.clone(),
                })
            })
            .collect()
    };
    let best = moves("bm")?;
    let avoid = moves("am")?;
    Ok(EpdRecord {
        board,
        id,
        best,
        avoid,
        operations,
    })
}

/// The first whitespace-separated word of `text` and what follows it.
fn next_word(text: &str) -> (&str, &str) {
    let text = text.trim_start();
    let end = text.find(char::is_whitespace).unwrap_or(text.len());
    (&text[..end], &text[end..])
}

/// Reads the operations after the position fields.
fn parse_operations(text: &str) -> Result<Vec<Operation>, EpdError> {
    let mut operations: Vec<Operation> = Vec::new();
    // The opcodes seen, for the repetition check (a line may hold very many).
    let mut seen = std::collections::HashSet::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace() || *c == ';').is_some() {}
        if chars.peek().is_none() {
            return Ok(operations);
        }
        let mut opcode = String::new();
        while let Some(c) = chars.next_if(|c| !c.is_whitespace() && *c != ';') {
            opcode.push(c);
        }
        let mut letters = opcode.chars();
        let valid = letters.next().is_some_and(|c| c.is_ascii_alphabetic())
            && letters.all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            return Err(EpdError::BadOpcode(opcode));
        }
        if !seen.insert(opcode.clone()) {
            return Err(EpdError::RepeatedOpcode(opcode));
        }
        let mut operands = Vec::new();
        loop {
            while chars.next_if(|c| c.is_whitespace()).is_some() {}
            match chars.peek() {
                None => break,
                Some(';') => {
                    chars.next();
                    break;
                }
                Some('"') => {
                    chars.next();
                    let mut operand = String::new();
                    loop {
                        match chars.next() {
                            None => return Err(EpdError::UnterminatedString),
                            Some('"') => break,
                            Some(c) => operand.push(c),
                        }
                    }
                    operands.push(operand);
                }
                Some(_) => {
                    let mut operand = String::new();
                    while let Some(c) = chars.next_if(|c| !c.is_whitespace() && *c != ';') {
                        operand.push(c);
                    }
                    operands.push(operand);
                }
            }
        }
        operations.push(Operation { opcode, operands });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WAC_001: &str =
        r#"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";"#;

    fn uci(record: &EpdRecord, moves: &[Move]) -> Vec<String> {
        moves
            .iter()
            .map(|&mv| crate::position::to_uci(&record.board, mv, false).to_string())
            .collect()
    }

    #[test]
    fn reads_id_bm_and_other_operations() {
        let record = parse_line(WAC_001, false).unwrap();
        assert_eq!(record.id.as_deref(), Some("WAC.001"));
        assert_eq!(uci(&record, &record.best), ["g3g6"]);
        assert!(record.avoid.is_empty());
        assert_eq!(record.operations.len(), 2);
        assert_eq!(record.board.halfmove_clock(), 0);
        assert_eq!(record.board.fullmove_number(), 1);
    }

    #[test]
    fn several_moves_quoted_strings_and_counters() {
        let line =
            r#"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 3 20 bm O-O e1c1 Rxa8+; c0 "a; b" "c";id "x y""#;
        let record = parse_line(line, false).unwrap();
        assert_eq!(uci(&record, &record.best), ["e1g1", "e1c1", "a1a8"]);
        assert_eq!(record.id.as_deref(), Some("x y"));
        assert_eq!(record.operations[1].operands, ["a; b", "c"]);
        assert_eq!(record.board.halfmove_clock(), 3);
        assert_eq!(record.board.fullmove_number(), 20);
    }

    #[test]
    fn am_hmvc_fmvn_and_the_verdict() {
        let line = "4k3/8/4p3/3r4/8/8/8/3QK3 w - - am Qxd5; hmvc 7; fmvn 40;";
        let record = parse_line(line, false).unwrap();
        assert_eq!(uci(&record, &record.avoid), ["d1d5"]);
        assert_eq!(record.board.halfmove_clock(), 7);
        assert_eq!(record.board.fullmove_number(), 40);
        let qxd5 = record.avoid[0];
        let kf2 = crate::san::parse_san(&record.board, "Kf2").unwrap();
        assert_eq!(record.solved_by(Some(qxd5)), Some(false));
        assert_eq!(record.solved_by(Some(kf2)), Some(true));
        assert_eq!(record.solved_by(None), Some(false));
        let plain = parse_line("4k3/8/8/8/8/8/8/4K3 b - -", false).unwrap();
        assert_eq!(plain.solved_by(Some(kf2)), None);
        assert!(plain.id.is_none());
    }

    #[test]
    fn bad_lines_say_why() {
        let err = |line: &str| parse_line(line, false).unwrap_err();
        assert_eq!(err("8/8/8 w -"), EpdError::MissingFields(3));
        assert!(matches!(
            err("8/8/8/8/8/8/8/8 w - - bm e4;"),
            EpdError::Fen(PositionError::KingCount { .. })
        ));
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3 w - - bm Ke2 Kd4;"),
            EpdError::BadMove {
                opcode: "bm".into(),
                token: "Kd4".into()
            }
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3 w - - bm;"),
            EpdError::NoOperand("bm".into())
        );
        assert_eq!(
            err(r#"4k3/8/8/8/8/8/8/4K3 w - - id "open"#),
            EpdError::UnterminatedString
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3 w - - 1x Ke2;"),
            EpdError::BadOpcode("1x".into())
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3 w - - id a; id b;"),
            EpdError::RepeatedOpcode("id".into())
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3 w - - hmvc x;"),
            EpdError::BadCounter {
                opcode: "hmvc".into(),
                token: "x".into()
            }
        );
        assert!(is_blank("   ") && is_blank("# comment") && !is_blank(WAC_001));
    }
}
