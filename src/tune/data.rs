//! The training set: data lines parsed, traced with [`coefficients`] and stored compactly.
//!
//! Every position keeps only what the model needs: its non-zero linear counts and, for each
//! king whose danger gate applied, its danger counts, as 4-byte [`Term`]s in one flat arena,
//! plus a 20-byte record (arena offset, lengths, phase, scale, score, result). A typical
//! position takes well under 300 bytes in all.

use std::path::Path;

use cozy_chess::Board;

use crate::eval::{coefficients, Coefficients, NUM_PARAMS};
use crate::file_error::AtPath;
use crate::position::{parse_fen, PositionError};

use super::TuneError;
use crate::par::map_shares;

// Weight indices are stored as `u16`.
const _: () = assert!(NUM_PARAMS <= u16::MAX as usize + 1);

/// Bad lines of a data file reported one by one; the rest are counted.
pub const BAD_LINES_SHOWN: usize = 20;

/// Longest excerpt of a bad line quoted in an error.
const QUOTE_CHARS: usize = 160;

/// One weight use: flat weight index and how many times it counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Term {
    /// Flat index into the weight vector.
    pub index: u16,
    /// The count: White minus Black for linear terms, units against one king for danger.
    pub count: i16,
}

/// Where one position's terms are and its per-position constants.
#[derive(Clone, Copy, Debug)]
struct Record {
    start: u32,
    linear_len: u16,
    danger_len: [u8; 2],
    phase: u8,
    scale: u8,
    score: f32,
    result: f32,
}

/// One stored position as the model reads it.
#[derive(Clone, Copy, Debug)]
pub struct Position<'a> {
    /// The linear terms (White minus Black counts).
    pub linear: &'a [Term],
    /// The danger terms against White's, then Black's king; empty where the gate did not
    /// apply (then the penalty is zero, as in the engine).
    pub danger: [&'a [Term]; 2],
    /// Game phase, 0..=24.
    pub phase: i32,
    /// Scale factor out of 128.
    pub scale: i32,
    /// The search score in centipawns, White's view.
    pub score: f32,
    /// White's game result in 0..=1 (the file allows 0, 0.5 and 1; tests use soft labels).
    pub result: f32,
}

/// A set of traced positions.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    terms: Vec<Term>,
    records: Vec<Record>,
}

/// What is wrong with one data line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// Not three `|`-separated fields.
    #[error("expected 'FEN | score | result', found {0} field(s)")]
    FieldCount(usize),
    /// The FEN does not parse.
    #[error("bad FEN: {0}")]
    Fen(PositionError),
    /// The score is not an integer.
    #[error("score '{0}' is not an integer")]
    Score(String),
    /// The result is not `1.0`, `0.5` or `0.0`.
    #[error("result '{0}' is not 1.0, 0.5 or 0.0")]
    Result(String),
    /// A weight count of the position does not fit the compact storage.
    #[error("count {count} of weight {} does not fit 16 bits", crate::eval::name(*.index))]
    CountOutOfRange {
        /// The weight's flat index.
        index: usize,
        /// Its count.
        count: i32,
    },
    /// The term arena would outgrow its 32-bit offsets.
    #[error("too many weight terms for one data set")]
    DataTooLarge,
}

/// A data line that could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {error} in '{text}'")]
pub struct BadLine {
    /// 1-based line number in the file.
    pub line: usize,
    /// The line's text (cut short if very long).
    pub text: String,
    /// What is wrong with it.
    #[source]
    pub error: LineError,
}

/// One parsed data line.
#[derive(Debug, Clone)]
pub struct Sample {
    /// The position.
    pub board: Board,
    /// Search score in centipawns, White's view.
    pub score: i32,
    /// White's result: 1.0, 0.5 or 0.0.
    pub result: f32,
}

/// Parses `FEN | score | result`.
pub fn parse_line(line: &str) -> Result<Sample, LineError> {
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    let [fen, score, result] = fields[..] else {
        return Err(LineError::FieldCount(fields.len()));
    };
    let board = parse_fen(fen, true).map_err(LineError::Fen)?;
    let score = score
        .parse::<i32>()
        .map_err(|_| LineError::Score(score.to_string()))?;
    let result = match result.parse::<f32>() {
        Ok(r) if r == 0.0 || r == 0.5 || r == 1.0 => r,
        _ => return Err(LineError::Result(result.to_string())),
    };
    Ok(Sample {
        board,
        score,
        result,
    })
}

/// Whether a line carries no data (blank or a `#` comment).
fn is_skipped(line: &str) -> bool {
    let line = line.trim();
    line.is_empty() || line.starts_with('#')
}

/// At most [`QUOTE_CHARS`] characters of `line`.
fn quote(line: &str) -> String {
    match line.char_indices().nth(QUOTE_CHARS) {
        Some((end, _)) => format!("{}...", &line[..end]),
        None => line.to_string(),
    }
}

impl Dataset {
    /// An empty set.
    pub fn new() -> Dataset {
        Dataset::default()
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Heap bytes held (arena and records), for the load report.
    pub fn bytes(&self) -> usize {
        self.terms.capacity() * std::mem::size_of::<Term>()
            + self.records.capacity() * std::mem::size_of::<Record>()
    }

    /// Position `n` (`n < len()`).
    pub fn position(&self, n: usize) -> Position<'_> {
        let r = &self.records[n];
        let start = r.start as usize;
        let linear_end = start + r.linear_len as usize;
        let white_end = linear_end + r.danger_len[0] as usize;
        let black_end = white_end + r.danger_len[1] as usize;
        Position {
            linear: &self.terms[start..linear_end],
            danger: [
                &self.terms[linear_end..white_end],
                &self.terms[white_end..black_end],
            ],
            phase: i32::from(r.phase),
            scale: i32::from(r.scale),
            score: r.score,
            result: r.result,
        }
    }

    /// Iterates over all positions in order.
    pub fn positions(&self) -> impl Iterator<Item = Position<'_>> + '_ {
        (0..self.len()).map(|n| self.position(n))
    }

    /// Adds a traced position with its search score and result (a soft label in `0..=1`
    /// is accepted here, for synthetic sets).
    pub fn push(
        &mut self,
        coeffs: &Coefficients,
        score: f32,
        result: f32,
    ) -> Result<(), LineError> {
        let before = self.terms.len();
        let start = u32::try_from(before).map_err(|_| LineError::DataTooLarge)?;
        let (linear_len, danger_len) = match self.push_all_terms(coeffs) {
            Ok(lens) => lens,
            Err(e) => {
                self.terms.truncate(before);
                return Err(e);
            }
        };
        self.records.push(Record {
            start,
            linear_len,
            danger_len,
            // Phase is 0..=24 and scale 0..=128 by construction.
            phase: coeffs.phase.clamp(0, 24) as u8,
            scale: coeffs.scale.clamp(0, 255) as u8,
            score,
            result,
        });
        Ok(())
    }

    /// Appends the linear terms and the applied danger terms of `coeffs` to the arena;
    /// returns their lengths. The arena must still fit 32-bit offsets afterwards.
    fn push_all_terms(&mut self, coeffs: &Coefficients) -> Result<(u16, [u8; 2]), LineError> {
        let too_large = |_| LineError::DataTooLarge;
        let linear_len = u16::try_from(self.push_terms(&coeffs.linear)?).map_err(too_large)?;
        let mut danger_len = [0u8; 2];
        for ((len, terms), applied) in danger_len
            .iter_mut()
            .zip(&coeffs.danger)
            .zip(coeffs.danger_applied)
        {
            if applied {
                *len = u8::try_from(self.push_terms(terms)?).map_err(too_large)?;
            }
        }
        u32::try_from(self.terms.len()).map_err(too_large)?;
        Ok((linear_len, danger_len))
    }

    /// Appends `terms` to the arena; returns how many.
    fn push_terms(&mut self, terms: &[(usize, i32)]) -> Result<usize, LineError> {
        for &(index, count) in terms {
            let out_of_range = || LineError::CountOutOfRange { index, count };
            let count = i16::try_from(count).map_err(|_| out_of_range())?;
            let index = u16::try_from(index).map_err(|_| out_of_range())?;
            self.terms.push(Term { index, count });
        }
        Ok(terms.len())
    }

    /// Moves all positions of `other` to the end of `self`.
    fn append(&mut self, other: Dataset) -> Result<(), LineError> {
        let shift = u32::try_from(self.terms.len()).map_err(|_| LineError::DataTooLarge)?;
        if u32::try_from(self.terms.len() + other.terms.len()).is_err() {
            return Err(LineError::DataTooLarge);
        }
        self.terms.extend_from_slice(&other.terms);
        self.records
            .extend(other.records.into_iter().map(|r| Record {
                start: r.start + shift,
                ..r
            }));
        Ok(())
    }

    /// Parses the text of a data file on `threads` threads (the order of positions is the
    /// order of the lines). A bad line is left out and returned, in line order, beside the
    /// positions of the good ones; only data too large for the arena fails as a whole (the
    /// first line that did not fit is the error).
    pub fn parse(text: &str, threads: usize) -> Result<(Dataset, Vec<BadLine>), BadLine> {
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .filter(|(_, line)| !is_skipped(line))
            .map(|(n, line)| (n + 1, line))
            .collect();
        let parts = map_shares(&lines, threads, |share| {
            let mut part = Dataset::new();
            let mut bad = Vec::new();
            for &(line, text) in share {
                let mark = part.terms.len();
                let stored = parse_line(text)
                    .and_then(|s| part.push(&coefficients(&s.board), s.score as f32, s.result));
                if let Err(error) = stored {
                    part.terms.truncate(mark);
                    let too_large = error == LineError::DataTooLarge;
                    let bad_line = BadLine {
                        line,
                        text: quote(text),
                        error,
                    };
                    if too_large {
                        return Err(bad_line);
                    }
                    bad.push(bad_line);
                }
            }
            part.terms.shrink_to_fit();
            Ok((share.first().copied(), part, bad))
        });
        let parts = parts.into_iter().collect::<Result<Vec<_>, _>>()?;
        let mut data = Dataset {
            terms: Vec::with_capacity(parts.iter().map(|(_, p, _)| p.terms.len()).sum()),
            records: Vec::with_capacity(parts.iter().map(|(_, p, _)| p.len()).sum()),
        };
        let mut bad_lines = Vec::new();
        for (first, part, bad) in parts {
            bad_lines.extend(bad);
            if let Err(error) = data.append(part) {
                let (line, text) = first.unwrap_or_default();
                return Err(BadLine {
                    line,
                    text: quote(text),
                    error,
                });
            }
        }
        Ok((data, bad_lines))
    }

    /// Reads and parses the data file at `path` on `threads` threads.
    /// Bad lines (bytes that are not UTF-8 make one too) are reported on stderr, the first
    /// [`BAD_LINES_SHOWN`] of them with their number and text, and skipped.
    pub fn load(path: &Path, threads: usize) -> Result<Dataset, TuneError> {
        let bytes = crate::file_error::read_regular_file(path).at_path(path)?;
        let text = String::from_utf8_lossy(crate::file_error::without_bom(&bytes));
        let (data, bad) = Dataset::parse(&text, threads).map_err(|bad| TuneError::Data {
            path: path.to_path_buf(),
            bad,
        })?;
        for line in bad.iter().take(BAD_LINES_SHOWN) {
            eprintln!("cutoff tune: {}: {line}; skipped", path.display());
        }
        if bad.len() > BAD_LINES_SHOWN {
            eprintln!(
                "cutoff tune: {}: {} bad lines skipped in all",
                path.display(),
                bad.len()
            );
        }
        Ok(data)
    }
}
