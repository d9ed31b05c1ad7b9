//! The engine's UCI options: their declarations for `uci`, and validated updates for
//! `setoption`. A bad value is refused and the old value kept.

use std::fmt;

use protocol::{OptionKind, OptionSpec};

use crate::search::strength;

/// The current value of every option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    pub hash_mb: usize,
    pub threads: usize,
    pub move_overhead_ms: u64,
    pub multipv: u32,
    pub ponder: bool,
    pub chess960: bool,
    /// Whether `go` for a game move may answer from the opening book.
    pub own_book: bool,
    /// The path of the loaded Polyglot book; empty when there is none.
    pub book_file: String,
    /// `UCI_ShowWDL`: win/draw/loss estimates in `info` lines.
    pub show_wdl: bool,
    /// `UCI_LimitStrength`: play at `UCI_Elo` instead of full strength.
    pub limit_strength: bool,
    pub elo: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 16,
            threads: 1,
            move_overhead_ms: 10,
            multipv: 1,
            ponder: false,
            chess960: false,
            own_book: false,
            book_file: String::new(),
            show_wdl: false,
            limit_strength: false,
            elo: UCI_ELO.1 as u32,
        }
    }
}

/// What the engine must do after an option changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Nothing beyond storing the value.
    Stored,
    /// The hash table must be reallocated at the new size.
    ResizeHash,
    /// The `Clear Hash` button was pressed.
    ClearHash,
    /// The book at this path (none if empty) must be loaded; the engine stores the path in
    /// [`Options::book_file`] only if that succeeds.
    OpenBook(String),
}

/// Why a `setoption` was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionError {
    Unknown(String),
    MissingValue(String),
    NotANumber {
        name: String,
        value: String,
    },
    OutOfRange {
        name: String,
        value: String,
        min: i64,
        max: i64,
    },
    NotABoolean {
        name: String,
        value: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(name) => write!(f, "unknown option '{name}'"),
            OptionError::MissingValue(name) => write!(f, "option '{name}' needs a value"),
            OptionError::NotANumber { name, value } => {
                write!(f, "option '{name}': '{value}' is not an integer")
            }
            OptionError::OutOfRange {
                name,
                value,
                min,
                max,
            } => write!(
                f,
                "option '{name}': {value} is out of range {min}..{max}; value unchanged"
            ),
            OptionError::NotABoolean { name, value } => {
                write!(f, "option '{name}': '{value}' is not true or false")
            }
        }
    }
}

impl std::error::Error for OptionError {}

const HASH: (&str, i64, i64, i64) = ("Hash", 16, 1, 65536);
const THREADS: (&str, i64, i64, i64) = ("Threads", 1, 1, 256);
const MOVE_OVERHEAD: (&str, i64, i64, i64) = ("Move Overhead", 10, 0, 5000);
const MULTIPV: (&str, i64, i64, i64) = ("MultiPV", 1, 1, 256);
const UCI_ELO: (&str, i64, i64, i64) = (
    "UCI_Elo",
    strength::MIN_ELO as i64,
    strength::MIN_ELO as i64,
    strength::MAX_ELO as i64,
);

fn spin((name, default, min, max): (&str, i64, i64, i64)) -> OptionSpec {
    OptionSpec {
        name: name.to_string(),
        kind: OptionKind::Spin { default, min, max },
    }
}

fn check(name: &str, default: bool) -> OptionSpec {
    OptionSpec {
        name: name.to_string(),
        kind: OptionKind::Check { default },
    }
}

/// The declarations printed after `uci`.
pub fn specs() -> Vec<OptionSpec> {
    vec![
        spin(HASH),
        spin(THREADS),
        OptionSpec {
            name: "Clear Hash".to_string(),
            kind: OptionKind::Button,
        },
        spin(MOVE_OVERHEAD),
        spin(MULTIPV),
        check("Ponder", false),
        check("UCI_Chess960", false),
        check("OwnBook", false),
        OptionSpec {
            name: "BookFile".to_string(),
            kind: OptionKind::String {
                default: String::new(),
            },
        },
        check("UCI_ShowWDL", false),
        check("UCI_LimitStrength", false),
        spin(UCI_ELO),
    ]
}

impl Options {
    /// Applies `setoption name <name> value <value>`; on error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Change, OptionError> {
        let key = name.trim().to_ascii_lowercase();
        let spin_value = |spec: (&str, i64, i64, i64)| parse_spin(spec, value);
        match key.as_str() {
            "hash" => {
                self.hash_mb = spin_value(HASH)? as usize;
                Ok(Change::ResizeHash)
            }
            "threads" => {
                self.threads = spin_value(THREADS)? as usize;
                Ok(Change::Stored)
            }
            "clear hash" => Ok(Change::ClearHash),
            "move overhead" => {
                self.move_overhead_ms = spin_value(MOVE_OVERHEAD)? as u64;
                Ok(Change::Stored)
            }
            "multipv" => {
                self.multipv = spin_value(MULTIPV)? as u32;
                Ok(Change::Stored)
            }
            "ponder" => {
                self.ponder = parse_check("Ponder", value)?;
                Ok(Change::Stored)
            }
            "uci_chess960" => {
                self.chess960 = parse_check("UCI_Chess960", value)?;
                Ok(Change::Stored)
            }
            "ownbook" => {
                self.own_book = parse_check("OwnBook", value)?;
                Ok(Change::Stored)
            }
            "bookfile" => Ok(Change::OpenBook(parse_path(value))),
            "uci_showwdl" => {
                self.show_wdl = parse_check("UCI_ShowWDL", value)?;
                Ok(Change::Stored)
            }
            "uci_limitstrength" => {
                self.limit_strength = parse_check("UCI_LimitStrength", value)?;
                Ok(Change::Stored)
            }
            "uci_elo" => {
                self.elo = spin_value(UCI_ELO)? as u32;
                Ok(Change::Stored)
            }
            _ => Err(OptionError::Unknown(name.to_string())),
        }
    }
}

fn parse_spin(
    (name, _, min, max): (&str, i64, i64, i64),
    value: Option<&str>,
) -> Result<i64, OptionError> {
    let text = value
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .ok_or_else(|| OptionError::MissingValue(name.to_string()))?;
    let number: i128 = text.parse().map_err(|_| OptionError::NotANumber {
        name: name.to_string(),
        value: text.to_string(),
    })?;
    if number < i128::from(min) || number > i128::from(max) {
        return Err(OptionError::OutOfRange {
            name: name.to_string(),
            value: text.to_string(),
            min,
            max,
        });
    }
    Ok(number as i64)
}

/// A file name; no value, an empty one and `<empty>` (the UCI spelling) all mean none.
fn parse_path(value: Option<&str>) -> String {
    match value.map(str::trim) {
        None | Some("<empty>") => String::new(),
        Some(path) => path.to_string(),
    }
}

fn parse_check(name: &str, value: Option<&str>) -> Result<bool, OptionError> {
    let text = value
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .ok_or_else(|| OptionError::MissingValue(name.to_string()))?;
    match text.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(OptionError::NotABoolean {
            name: name.to_string(),
            value: text.to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_case_insensitive_and_values_checked() {
        let mut options = Options::default();
        assert_eq!(options.set("hash", Some("64")), Ok(Change::ResizeHash));
        assert_eq!(options.hash_mb, 64);
        assert!(options.set("HASH", Some("0")).is_err());
        assert!(options.set("Hash", Some("65537")).is_err());
        assert!(options.set("Hash", Some("big")).is_err());
        assert!(options.set("Hash", None).is_err());
        assert_eq!(options.hash_mb, 64);
        assert_eq!(
            options.set("uci_chess960", Some("TRUE")),
            Ok(Change::Stored)
        );
        assert!(options.chess960);
        assert!(options.set("UCI_Chess960", Some("yes")).is_err());
        assert!(options.chess960);
        assert_eq!(options.set("clear hash", None), Ok(Change::ClearHash));
        assert!(matches!(
            options.set("No Such Option", Some("1")),
            Err(OptionError::Unknown(_))
        ));
        assert_eq!(
            options.set("Move Overhead", Some("5000")),
            Ok(Change::Stored)
        );
        assert!(options.set("Move Overhead", Some("-1")).is_err());
        assert_eq!(options.move_overhead_ms, 5000);
        assert_eq!(options.set("ownbook", Some("true")), Ok(Change::Stored));
        assert!(options.own_book);
    }

    #[test]
    fn book_file_asks_for_the_book_and_stores_nothing() {
        let mut options = Options::default();
        for (value, path) in [
            (Some(" /books/my book.bin "), "/books/my book.bin"),
            (Some("<empty>"), ""),
            (Some(""), ""),
            (None, ""),
        ] {
            assert_eq!(
                options.set("BookFile", value),
                Ok(Change::OpenBook(path.to_string()))
            );
        }
        assert_eq!(options, Options::default());
    }

    #[test]
    fn every_declared_option_can_be_set_to_its_default() {
        for spec in specs() {
            let mut options = Options::default();
            let value = match spec.kind {
                OptionKind::Check { default } => Some(default.to_string()),
                OptionKind::Spin { default, .. } => Some(default.to_string()),
                OptionKind::Combo { default, .. } | OptionKind::String { default } => Some(default),
                OptionKind::Button => None,
            };
            assert!(
                options.set(&spec.name, value.as_deref()).is_ok(),
                "{}",
                spec.name
            );
            assert_eq!(options, Options::default(), "{}", spec.name);
        }
    }
}
