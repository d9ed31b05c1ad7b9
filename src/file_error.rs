//! The one file error of the tools: a file (or stdout) that could not be read or written,
//! named by its path. Each tool's error enum carries it as its `File` variant, so that
//! every tool says `PATH: WHY` the same way. `.at_path(path)` on an `io::Result` makes one.

use std::path::Path;

/// A file that could not be opened, read or written, with the path it was asked for.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {source}")]
pub struct FileError {
    /// The path as given (or a name such as `stdout`).
    pub path: String,
    /// What the system said.
    #[source]
    pub source: std::io::Error,
}

impl FileError {
    /// The error `source` met at `path`.
    pub fn new(path: impl AsRef<Path>, source: std::io::Error) -> FileError {
        FileError {
            path: path.as_ref().display().to_string(),
            source,
        }
    }
}

/// Names the path of an I/O result's error: `std::fs::read(path).at_path(path)?`.
pub trait AtPath<T> {
    /// The result, its error made a [`FileError`] at `path`.
    fn at_path(self, path: impl AsRef<Path>) -> Result<T, FileError>;
}

impl<T> AtPath<T> for std::io::Result<T> {
    fn at_path(self, path: impl AsRef<Path>) -> Result<T, FileError> {
        self.map_err(|source| FileError::new(path, source))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_path_before_the_reason() {
        let error = std::fs::read("no/such/file")
            .at_path("no/such/file")
            .unwrap_err();
        assert_eq!(error.path, "no/such/file");
        assert_eq!(error.to_string(), format!("no/such/file: {}", error.source));
        assert!(std::error::Error::source(&error).is_some());
    }
}
