//! The engine's only way to stdout: whole protocol lines, written under a lock so that
//! the search thread and the input loop never interleave, and flushed at once.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

use parking_lot::Mutex;
use protocol::{Info, Response};

/// The most characters of an error's text one line holds: enough for any real message
/// (a path of a few hundred characters and why), short enough for a GUI's log.
pub const ERROR_TEXT_LIMIT: usize = 1000;

/// `text`, or its first `limit` characters and how many it has.
fn cut_to(text: &str, limit: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(limit) {
        None => text.into(),
        Some((cut, _)) => format!("{}… ({} characters)", &text[..cut], text.chars().count()).into(),
    }
}

/// A sink for protocol lines, shared by the input loop and the search thread.
pub struct Output {
    writer: Mutex<Box<dyn Write + Send>>,
    /// Whether every line is thrown away (`sink`), so that nothing need be written.
    discards: bool,
    /// Whether an `info string error: ...` line was sent (a rejected command).
    reported_error: AtomicBool,
    /// Whether a write failed: the reader is gone (a closed pipe), and nothing written
    /// from now on reaches anyone.
    closed: AtomicBool,
}

impl Output {
    /// Lines go to the process's standard output.
    pub fn stdout() -> Output {
        Output::to_writer(Box::new(std::io::stdout()))
    }

    /// Lines go nowhere (for benchmarks and tools that only want the result).
    pub fn sink() -> Output {
        Output {
            discards: true,
            ..Output::to_writer(Box::new(std::io::sink()))
        }
    }

    pub fn to_writer(writer: Box<dyn Write + Send>) -> Output {
        Output {
            writer: Mutex::new(writer),
            discards: false,
            reported_error: AtomicBool::new(false),
            closed: AtomicBool::new(false),
        }
    }

    /// Whether lines sent here go nowhere: the search then skips its `info` lines
    /// (self-play writes none of the thousands of searches a minute it runs).
    pub fn discards(&self) -> bool {
        self.discards
    }

    /// Writes one response as a line. A closed stdout is not an error worth dying for:
    /// the input loop ends when its peer goes away, and a search waited for at the end
    /// of input stops ([`Output::is_closed`]).
    pub fn send(&self, response: &Response) {
        self.line(&response.to_string());
    }

    /// Runs `first` while holding the output lock, then writes `response`: whoever is
    /// told about `first` cannot print anything before `response` is out.
    pub fn send_after(&self, first: impl FnOnce(), response: &Response) {
        let mut writer = self.writer.lock();
        first();
        let written = writeln!(writer, "{response}").and_then(|()| writer.flush());
        self.note(written);
    }

    /// Writes `info string <text>`.
    pub fn info_string(&self, text: &str) {
        self.send(&Response::Info(Info::string(text)));
    }

    /// Writes `info string error: <text>`, the answer to any rejected command; a text
    /// longer than [`ERROR_TEXT_LIMIT`] characters (a path of 100,000, given by mistake)
    /// is cut there, with its length.
    pub fn error(&self, text: &str) {
        self.reported_error.store(true, Ordering::Relaxed);
        self.error_line(text);
    }

    /// Writes `info string error: <text>` for a bad item inside a file that is skipped
    /// while the command goes on (a bad line of `genfens`'s book): reported as an error,
    /// but the command still does its job, so the run is not marked as failed.
    pub fn skipped(&self, text: &str) {
        self.error_line(text);
    }

    /// Writes `info string error: <text>`, the text cut at [`ERROR_TEXT_LIMIT`].
    fn error_line(&self, text: &str) {
        self.info_string(&format!("error: {}", cut_to(text, ERROR_TEXT_LIMIT)));
    }

    /// Whether any command was rejected so far ([`Output::error`]): the command line
    /// then ends with a failure status, so that a script sees it.
    pub fn reported_an_error(&self) -> bool {
        self.reported_error.load(Ordering::Relaxed)
    }

    /// Writes a line of free text (for `d`, `eval`, perft and bench reports).
    pub fn line(&self, text: &str) {
        let mut writer = self.writer.lock();
        let written = writeln!(writer, "{text}").and_then(|()| writer.flush());
        self.note(written);
    }

    /// Remembers a failed write (see [`Output::is_closed`]).
    fn note(&self, written: std::io::Result<()>) {
        if written.is_err() {
            self.closed.store(true, Ordering::Relaxed);
        }
    }

    /// Whether a line could not be written: whoever read the output has gone (a GUI
    /// that died, `cutoff ... | head -1`), so a search kept running for its output can
    /// stop.
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Relaxed)
    }
}
