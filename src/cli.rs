//! The command lines of the tool subcommands (`cutoff datagen ...`, `cutoff tune ...`,
//! `cutoff train ...`, `cutoff analyze ...`): each tool declares its flags as a clap
//! `Parser`, which gives typed values, `--help` with every flag and its default, and
//! errors that name the flag. Checks that involve several flags stay with each tool.

/// Why a command line was refused, or `--help` was asked for.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// clap refused the line (or answered `--help`).
    #[error("{}", render(.0))]
    Clap(#[from] clap::Error),
    /// A value outside the allowed range, or another problem involving several flags.
    #[error("{0}")]
    Invalid(String),
}

impl CliError {
    /// Whether this is clap's answer to `--help`: the text to print, with success.
    pub fn is_help(&self) -> bool {
        matches!(self, CliError::Clap(error) if matches!(
            error.kind(),
            clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion
        ))
    }
}

/// clap's message without its leading `error: ` (the caller prefixes its own).
fn render(error: &clap::Error) -> String {
    let text = error.render().to_string();
    text.strip_prefix("error: ")
        .unwrap_or(&text)
        .trim_end()
        .to_string()
}

/// Parses the words after `cutoff <tool>` as the tool's flags.
pub fn parse<T: clap::Parser>(tool: &str, args: &[String]) -> Result<T, CliError> {
    let words = std::iter::once(format!("cutoff {tool}")).chain(args.iter().cloned());
    Ok(T::try_parse_from(words)?)
}

/// The number of cores, the default thread count of the tools that use them all.
pub fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

/// A command line for the tools' tests: the words of `line`, as a shell would split it.
#[cfg(test)]
pub fn words(line: &str) -> Vec<String> {
    line.split_whitespace().map(String::from).collect()
}
