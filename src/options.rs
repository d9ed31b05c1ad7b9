//! The engine's UCI options: their declarations for `uci`, and validated updates for
//! `setoption`. A bad value is refused and the old value kept.

use protocol::{quote, OptionKind, OptionSpec};

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
    /// The path of the loaded network (`EvalFile`); empty for the built-in evaluation.
    pub eval_file: String,
    /// `UseNNUE`: evaluate with the network (the built-in one or `EvalFile`); off, the
    /// hand-crafted evaluation.
    pub use_nnue: bool,
    /// `UCI_ShowWDL`: win/draw/loss estimates in `info` lines.
    pub show_wdl: bool,
    /// `UCI_LimitStrength`: play at `UCI_Elo` instead of full strength.
    pub limit_strength: bool,
    pub elo: u32,
    /// The folders of the loaded Syzygy tables (`SyzygyPath`); empty when none are.
    pub syzygy_path: String,
    /// `SyzygyProbeDepth`: the least remaining depth at which the search probes.
    pub syzygy_probe_depth: u32,
    /// `Syzygy50MoveRule`: cursed wins and blessed losses count as draws.
    pub syzygy_50_move_rule: bool,
    /// `SyzygyProbeLimit`: probe positions of at most this many pieces.
    pub syzygy_probe_limit: u32,
}

impl Default for Options {
    /// Every option at the default its declaration gives.
    fn default() -> Self {
        let mut options = Options {
            hash_mb: 0,
            threads: 0,
            move_overhead_ms: 0,
            multipv: 0,
            ponder: false,
            chess960: false,
            own_book: false,
            book_file: String::new(),
            eval_file: String::new(),
            use_nnue: false,
            show_wdl: false,
            limit_strength: false,
            elo: 0,
            syzygy_path: String::new(),
            syzygy_probe_depth: 0,
            syzygy_50_move_rule: false,
            syzygy_probe_limit: 0,
        };
        for declaration in DECLARATIONS {
            let value = match declaration.kind {
                Kind::Spin { default, .. } => Value::Number(default),
                Kind::Check { default } => Value::Flag(default),
                Kind::Button => continue,
                // A path option's default is no file, which is what `Options` starts with.
                Kind::Path => continue,
            };
            (declaration.apply)(&mut options, value);
        }
        options
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
    /// The network at this path (the built-in evaluation if empty) must be loaded; the
    /// engine stores the path in [`Options::eval_file`] only if that succeeds.
    LoadNetwork(String),
    /// The Syzygy tables in these folders (none if empty) must be loaded; the engine
    /// stores the path in [`Options::syzygy_path`] only if that succeeds.
    LoadTablebases(String),
}

/// Why a `setoption` was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    #[error("unknown option {}", quote(.0))]
    Unknown(String),
    #[error("option {} needs a value", quote(.0))]
    MissingValue(String),
    #[error("option {}: {} is not an integer", quote(.name), quote(.value))]
    NotANumber { name: String, value: String },
    #[error("option {}: {} is out of range {min}..{max}; value unchanged", quote(.name), quote(.value))]
    OutOfRange {
        name: String,
        value: String,
        min: i64,
        max: i64,
    },
    #[error("option {}: {} is not true or false", quote(.name), quote(.value))]
    NotABoolean { name: String, value: String },
}

/// What kind of value an option takes, with its default and range.
#[derive(Debug, Clone, Copy)]
enum Kind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    Button,
    /// A file name (`<empty>` for none), default none.
    Path,
}

/// A `setoption` value once checked against its option's kind.
#[derive(Debug, Clone)]
enum Value {
    Number(i64),
    Flag(bool),
    Press,
    Text(String),
}

impl Value {
    fn number(&self) -> i64 {
        match self {
            Value::Number(n) => *n,
            _ => 0,
        }
    }

    fn flag(&self) -> bool {
        matches!(self, Value::Flag(true))
    }

    fn text(self) -> String {
        match self {
            Value::Text(text) => text,
            _ => String::new(),
        }
    }
}

/// One option: its name as `uci` shows it, its kind, and what setting it does.
struct Declaration {
    name: &'static str,
    kind: Kind,
    /// Whether setting it must wait until no search is running (it replaces or clears
    /// what a search uses).
    needs_idle: bool,
    /// Stores a checked value and says what else the engine must do.
    apply: fn(&mut Options, Value) -> Change,
}

/// Every option, in the order `uci` lists them. The one place an option is declared.
const DECLARATIONS: &[Declaration] = &[
    Declaration {
        name: "Hash",
        needs_idle: true,
        kind: Kind::Spin {
            default: 16,
            min: 1,
            max: 65536,
        },
        apply: |o, v| {
            o.hash_mb = v.number() as usize;
            Change::ResizeHash
        },
    },
    Declaration {
        name: "Threads",
        needs_idle: false,
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
        apply: |o, v| {
            o.threads = v.number() as usize;
            Change::Stored
        },
    },
    Declaration {
        name: "Clear Hash",
        needs_idle: true,
        kind: Kind::Button,
        apply: |_, _| Change::ClearHash,
    },
    Declaration {
        name: "Move Overhead",
        needs_idle: false,
        kind: Kind::Spin {
            default: 10,
            min: 0,
            max: 5000,
        },
        apply: |o, v| {
            o.move_overhead_ms = v.number() as u64;
            Change::Stored
        },
    },
    Declaration {
        name: "MultiPV",
        needs_idle: false,
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
        apply: |o, v| {
            o.multipv = v.number() as u32;
            Change::Stored
        },
    },
    Declaration {
        name: "Ponder",
        needs_idle: false,
        kind: Kind::Check { default: false },
        apply: |o, v| {
            o.ponder = v.flag();
            Change::Stored
        },
    },
    Declaration {
        name: "UCI_Chess960",
        needs_idle: false,
        kind: Kind::Check { default: false },
        apply: |o, v| {
            o.chess960 = v.flag();
            Change::Stored
        },
    },
    Declaration {
        name: "OwnBook",
        needs_idle: false,
        kind: Kind::Check { default: false },
        apply: |o, v| {
            o.own_book = v.flag();
            Change::Stored
        },
    },
    Declaration {
        name: "BookFile",
        needs_idle: false,
        kind: Kind::Path,
        // The engine stores the path once the book has loaded.
        apply: |_, v| Change::OpenBook(v.text()),
    },
    Declaration {
        name: "EvalFile",
        needs_idle: false,
        kind: Kind::Path,
        // The engine stores the path once the network has loaded.
        apply: |_, v| Change::LoadNetwork(v.text()),
    },
    Declaration {
        name: "UseNNUE",
        needs_idle: false,
        kind: Kind::Check { default: true },
        apply: |o, v| {
            o.use_nnue = v.flag();
            Change::Stored
        },
    },
    Declaration {
        name: "UCI_ShowWDL",
        needs_idle: false,
        kind: Kind::Check { default: false },
        apply: |o, v| {
            o.show_wdl = v.flag();
            Change::Stored
        },
    },
    Declaration {
        name: "UCI_LimitStrength",
        needs_idle: false,
        kind: Kind::Check { default: false },
        apply: |o, v| {
            o.limit_strength = v.flag();
            Change::Stored
        },
    },
    Declaration {
        name: "UCI_Elo",
        needs_idle: false,
        kind: Kind::Spin {
            default: strength::MIN_ELO as i64,
            min: strength::MIN_ELO as i64,
            max: strength::MAX_ELO as i64,
        },
        apply: |o, v| {
            o.elo = v.number() as u32;
            Change::Stored
        },
    },
    Declaration {
        name: "SyzygyPath",
        needs_idle: true,
        kind: Kind::Path,
        // The engine stores the path once the tables have loaded.
        apply: |_, v| Change::LoadTablebases(v.text()),
    },
    Declaration {
        name: "SyzygyProbeDepth",
        needs_idle: false,
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 100,
        },
        apply: |o, v| {
            o.syzygy_probe_depth = v.number() as u32;
            Change::Stored
        },
    },
    Declaration {
        name: "Syzygy50MoveRule",
        needs_idle: false,
        kind: Kind::Check { default: true },
        apply: |o, v| {
            o.syzygy_50_move_rule = v.flag();
            Change::Stored
        },
    },
    Declaration {
        name: "SyzygyProbeLimit",
        needs_idle: false,
        kind: Kind::Spin {
            default: 7,
            min: 0,
            max: 7,
        },
        apply: |o, v| {
            o.syzygy_probe_limit = v.number() as u32;
            Change::Stored
        },
    },
];

/// Whether setting the option `name` (any case) must wait until no search is running.
pub fn needs_idle(name: &str) -> bool {
    let name = name.trim();
    DECLARATIONS
        .iter()
        .any(|d| d.needs_idle && d.name.eq_ignore_ascii_case(name))
}

/// The declarations printed after `uci` (in a `tune` build, followed by the search's
/// parameters).
pub fn specs() -> Vec<OptionSpec> {
    DECLARATIONS
        .iter()
        .map(|declaration| OptionSpec {
            name: declaration.name.to_string(),
            kind: match declaration.kind {
                Kind::Spin { default, min, max } => OptionKind::Spin { default, min, max },
                Kind::Check { default } => OptionKind::Check { default },
                Kind::Button => OptionKind::Button,
                Kind::Path => OptionKind::String {
                    default: String::new(),
                },
            },
        })
        .chain(parameter_specs())
        .collect()
}

/// The search's parameters as spin options, in a `tune` build.
#[cfg(feature = "tune")]
fn parameter_specs() -> impl Iterator<Item = OptionSpec> {
    crate::search::params::PARAMS.iter().map(|p| OptionSpec {
        name: p.name.to_string(),
        kind: OptionKind::Spin {
            default: p.default.into(),
            min: p.min.into(),
            max: p.max.into(),
        },
    })
}

/// None: the parameters are constants.
#[cfg(not(feature = "tune"))]
fn parameter_specs() -> impl Iterator<Item = OptionSpec> {
    std::iter::empty()
}

impl Options {
    /// Applies `setoption name <name> value <value>` (names are case-insensitive); on
    /// error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Change, OptionError> {
        let wanted = name.trim();
        #[cfg(feature = "tune")]
        if let Some(param) = crate::search::params::find(wanted) {
            let number = parse_spin(param.name, param.min.into(), param.max.into(), value)?;
            // In range, so it fits an `i32`.
            param.set(number as i32);
            return Ok(Change::Stored);
        }
        let declaration = DECLARATIONS
            .iter()
            .find(|d| d.name.eq_ignore_ascii_case(wanted))
            .ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        let value = match declaration.kind {
            Kind::Spin { min, max, .. } => {
                Value::Number(parse_spin(declaration.name, min, max, value)?)
            }
            Kind::Check { .. } => Value::Flag(parse_check(declaration.name, value)?),
            Kind::Button => Value::Press,
            Kind::Path => Value::Text(parse_path(value)),
        };
        Ok((declaration.apply)(self, value))
    }
}

fn parse_spin(name: &str, min: i64, max: i64, value: Option<&str>) -> Result<i64, OptionError> {
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
    fn syzygy_options_are_declared_and_checked() {
        let mut options = Options::default();
        assert_eq!(options.syzygy_probe_depth, 1);
        assert!(options.syzygy_50_move_rule);
        assert_eq!(options.syzygy_probe_limit, 7);
        assert_eq!(
            options.set("SyzygyPath", Some("/a:/b")),
            Ok(Change::LoadTablebases("/a:/b".to_string()))
        );
        assert_eq!(
            options.set("syzygypath", Some("<empty>")),
            Ok(Change::LoadTablebases(String::new()))
        );
        assert_eq!(options.syzygy_path, "");
        assert!(options.set("SyzygyProbeDepth", Some("0")).is_err());
        assert!(options.set("SyzygyProbeLimit", Some("8")).is_err());
        assert_eq!(
            options.set("SyzygyProbeLimit", Some("5")),
            Ok(Change::Stored)
        );
        assert_eq!(options.syzygy_probe_limit, 5);
        assert_eq!(
            options.set("Syzygy50MoveRule", Some("false")),
            Ok(Change::Stored)
        );
        assert!(!options.syzygy_50_move_rule);
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
