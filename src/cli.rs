//! Flags of the tool subcommands (`cutoff datagen ...`, `cutoff tune ...`): a small typed
//! parser for `--name value` pairs and `--switch`es, with errors that name the flag.

use std::str::FromStr;

/// Why a command line was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CliError {
    /// A flag the subcommand does not know.
    #[error("unknown flag '{0}'")]
    Unknown(String),
    /// A flag given twice.
    #[error("flag '{0}' given twice")]
    Repeated(String),
    /// A flag that needs a value came last.
    #[error("flag '{0}' needs a value")]
    MissingValue(String),
    /// A value that does not parse as the flag expects.
    #[error("flag '{flag}': '{value}' is not {expected}")]
    BadValue {
        flag: String,
        value: String,
        expected: &'static str,
    },
    /// A required flag is absent.
    #[error("flag '{0}' is required")]
    Required(String),
    /// A word that is not a flag.
    #[error("unexpected argument '{0}'")]
    Stray(String),
    /// A value outside the allowed range, or another semantic problem.
    #[error("{0}")]
    Invalid(String),
}

/// The parsed flags of one subcommand. Every flag must be declared by the subcommand
/// (`value_flags` take a value, `switches` do not); values are converted on demand.
#[derive(Debug, Default)]
pub struct Flags {
    values: Vec<(String, String)>,
    switches: Vec<String>,
}

impl Flags {
    /// Parses `args` (the words after the subcommand name).
    pub fn parse(
        args: &[String],
        value_flags: &[&str],
        switches: &[&str],
    ) -> Result<Flags, CliError> {
        Flags::parse_repeatable(args, value_flags, &[], switches)
    }

    /// Like [`Flags::parse`], but the `repeatable` flags take a value and may be given any
    /// number of times (read them with [`Flags::all`]).
    pub fn parse_repeatable(
        args: &[String],
        value_flags: &[&str],
        repeatable: &[&str],
        switches: &[&str],
    ) -> Result<Flags, CliError> {
        let mut flags = Flags::default();
        let mut words = args.iter();
        while let Some(word) = words.next() {
            let (name, inline) = match word.split_once('=') {
                Some((name, value)) if name.starts_with("--") => (name, Some(value.to_string())),
                _ => (word.as_str(), None),
            };
            if !name.starts_with("--") {
                return Err(CliError::Stray(word.clone()));
            }
            let single = !repeatable.contains(&name);
            if (single && flags.values.iter().any(|(n, _)| n == name))
                || flags.switches.iter().any(|n| n == name)
            {
                return Err(CliError::Repeated(name.to_string()));
            }
            if value_flags.contains(&name) || repeatable.contains(&name) {
                let value = match inline {
                    Some(value) => value,
                    None => words
                        .next()
                        .cloned()
                        .ok_or_else(|| CliError::MissingValue(name.to_string()))?,
                };
                flags.values.push((name.to_string(), value));
            } else if switches.contains(&name) && inline.is_none() {
                flags.switches.push(name.to_string());
            } else {
                return Err(CliError::Unknown(word.clone()));
            }
        }
        Ok(flags)
    }

    /// The raw text of `flag`, if given.
    pub fn text(&self, flag: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(name, _)| name == flag)
            .map(|(_, value)| value.as_str())
    }

    /// Every value of `flag`, in command-line order (for repeatable flags).
    pub fn all(&self, flag: &str) -> Vec<&str> {
        self.values
            .iter()
            .filter(|(name, _)| name == flag)
            .map(|(_, value)| value.as_str())
            .collect()
    }

    /// Whether the switch `flag` was given.
    pub fn switch(&self, flag: &str) -> bool {
        self.switches.iter().any(|name| name == flag)
    }

    /// `flag`'s value converted to `T`, if given.
    pub fn get<T: FromStr>(
        &self,
        flag: &str,
        expected: &'static str,
    ) -> Result<Option<T>, CliError> {
        self.text(flag)
            .map(|value| {
                value.parse().map_err(|_| CliError::BadValue {
                    flag: flag.to_string(),
                    value: value.to_string(),
                    expected,
                })
            })
            .transpose()
    }

    /// `flag`'s value converted to `T`; an error if absent.
    pub fn require<T: FromStr>(&self, flag: &str, expected: &'static str) -> Result<T, CliError> {
        self.get(flag, expected)?
            .ok_or_else(|| CliError::Required(flag.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn values_switches_and_inline_values() {
        let flags = Flags::parse(
            &words("--games 10 --out=x.txt --verbose"),
            &["--games", "--out"],
            &["--verbose"],
        )
        .unwrap();
        assert_eq!(flags.require::<u32>("--games", "a count").unwrap(), 10);
        assert_eq!(flags.text("--out"), Some("x.txt"));
        assert!(flags.switch("--verbose"));
        assert_eq!(flags.get::<u32>("--seed", "a number").unwrap(), None);
    }

    #[test]
    fn repeatable_flags_keep_every_value_in_order() {
        let flags = Flags::parse_repeatable(
            &words("--data a --out n --data=b --data c"),
            &["--out"],
            &["--data"],
            &[],
        )
        .unwrap();
        assert_eq!(flags.all("--data"), ["a", "b", "c"]);
        assert_eq!(flags.text("--out"), Some("n"));
        assert_eq!(
            Flags::parse_repeatable(&words("--out a --out b"), &["--out"], &["--data"], &[])
                .unwrap_err(),
            CliError::Repeated("--out".into())
        );
    }

    #[test]
    fn errors_name_the_flag() {
        let parse = |text: &str| Flags::parse(&words(text), &["--games"], &["--quiet"]);
        assert_eq!(
            parse("--nodes 5").unwrap_err(),
            CliError::Unknown("--nodes".into())
        );
        assert_eq!(
            parse("--games").unwrap_err(),
            CliError::MissingValue("--games".into())
        );
        assert_eq!(
            parse("--games 1 --games 2").unwrap_err(),
            CliError::Repeated("--games".into())
        );
        assert_eq!(parse("games").unwrap_err(), CliError::Stray("games".into()));
        assert_eq!(
            parse("--quiet=1").unwrap_err(),
            CliError::Unknown("--quiet=1".into())
        );
        let flags = parse("--games ten").unwrap();
        assert_eq!(
            flags.require::<u32>("--games", "a count").unwrap_err(),
            CliError::BadValue {
                flag: "--games".into(),
                value: "ten".into(),
                expected: "a count"
            }
        );
        assert_eq!(
            parse("")
                .unwrap()
                .require::<u32>("--games", "a count")
                .unwrap_err(),
            CliError::Required("--games".into())
        );
    }
}
