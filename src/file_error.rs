//! The one file error of the tools: a file (or stdout) that could not be read or written,
//! named by its path. Each tool's error enum carries it as its `File` variant, so that
//! every tool says `PATH: WHY` the same way. `.at_path(path)` on an `io::Result` makes one.
//! [`open_regular_file`] and [`read_regular_file`] refuse what is not a regular file (a
//! FIFO blocks, a device such as `/dev/zero` never ends) before opening it.

use std::path::Path;

/// `bytes` without the UTF-8 byte order mark some editors put at the start of a text file
/// (so that the first line of an EPD or data file reads like the others).
pub fn without_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

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

/// Opens `path` only if it is a regular file (the check of every file a tool or the engine
/// reads whole). Checked before opening: opening a FIFO blocks until something writes to
/// it, and a device such as `/dev/zero` never ends.
pub fn open_regular_file(path: &Path) -> std::io::Result<std::fs::File> {
    if !std::fs::metadata(path)?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    std::fs::File::open(path)
}

/// Checks that a file can be written at `path` before a long run that writes it only at
/// its end (`train`, `tune`): `path` is no directory and a file can be created or opened
/// for writing there. An existing file is left as it was; a file made for the check is
/// removed. Anything else already there (a FIFO, whose opening would wait for a reader,
/// or a device) is refused.
pub fn check_writable(path: &Path) -> std::io::Result<()> {
    let existed = match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => return Err(std::io::Error::other("is a directory")),
        Ok(meta) if !meta.is_file() => {
            return Err(std::io::Error::other("not a regular file"));
        }
        Ok(_) => true,
        Err(_) => false,
    };
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)?;
    if !existed {
        std::fs::remove_file(path)?;
    }
    Ok(())
}

/// Writes `bytes` to `temporary`, syncs it to the disk and renames it to `path`, so that a
/// run stopped at any moment leaves either the old file at `path` or the whole new one;
/// on failure the temporary file is removed.
pub fn write_via(temporary: &Path, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let written = std::fs::File::create(temporary).and_then(|mut file| {
        file.write_all(bytes)?;
        file.sync_all()
    });
    let result = written.and_then(|()| std::fs::rename(temporary, path));
    if result.is_err() {
        let _ = std::fs::remove_file(temporary);
    }
    result
}

/// The temporary file [`write_via_part`] writes before renaming it to `path`.
pub fn part_path(path: &str) -> String {
    format!("{path}.part")
}

/// [`write_via`] through [`part_path`]`(path)`, as the tools that write one output file
/// at their end (`convert`, `relabel`) do.
pub fn write_via_part(path: &str, bytes: &[u8]) -> std::io::Result<()> {
    write_via(Path::new(&part_path(path)), Path::new(path), bytes)
}

/// The bytes of the regular file at `path` (anything else refused, as by
/// [`open_regular_file`]).
pub fn read_regular_file(path: &Path) -> std::io::Result<Vec<u8>> {
    read_regular_file_up_to(path, u64::MAX)
}

/// At most the first `limit` bytes of the regular file at `path`, so that a wrong path to
/// a huge file cannot exhaust the memory (read one byte more than the largest valid file
/// to tell a file that is too large).
pub fn read_regular_file_up_to(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    open_regular_file(path)?
        .take(limit)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_writable_path_is_checked_without_changing_anything() {
        let dir = std::env::temp_dir().join(format!("cutoff-writable-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A directory, or a file in a folder that does not exist, cannot be written.
        assert!(check_writable(&dir).is_err());
        assert!(check_writable(&dir.join("no-such-folder/net.nnue")).is_err());
        // A device is no file to write a net to (a FIFO would block the opening).
        #[cfg(unix)]
        assert!(check_writable(Path::new("/dev/null")).is_err());
        // A new file is fine and is not left behind; an existing one keeps its bytes.
        let new = dir.join("new.nnue");
        check_writable(&new).unwrap();
        assert!(!new.exists());
        let old = dir.join("old.nnue");
        std::fs::write(&old, b"kept").unwrap();
        check_writable(&old).unwrap();
        assert_eq!(std::fs::read(&old).unwrap(), b"kept");
        std::fs::remove_dir_all(&dir).unwrap();
    }

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
