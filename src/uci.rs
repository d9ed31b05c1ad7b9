//! The input loop: a reader thread takes stdin line by line, and the loop parses each
//! line with the protocol crate and hands the command to the engine facade. While
//! commands wait for a running search to end (see [`crate::engine`]), the loop listens
//! for that end as well as for input, so that they run the moment the search is over.

use std::io::{BufRead, Read};

use crossbeam_channel::{unbounded, Receiver, Select};
use protocol::{parse_command, ParseError};

use crate::engine::{Engine, Flow};

/// The longest input line read: far above any real command (a `position` with a game of
/// 1,000 moves is about 5,000 bytes). A longer one is refused whole, and not kept while
/// it is read, so that input without a newline (`/dev/zero`) cannot exhaust the memory.
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// A line longer than [`MAX_LINE_BYTES`]: its length, and whether it starts with `go`
/// (which is owed a `bestmove` all the same).
struct TooLong {
    bytes: u64,
    go: bool,
}

/// One line of input, or what is known of a line too long to read.
type InputLine = Result<String, TooLong>;

/// What wakes the input loop.
enum Event {
    Line(String),
    TooLong(TooLong),
    SearchEnded,
    EndOfInput,
}

/// Runs until `quit` or end of input; fails only if the reader thread cannot start.
pub fn run(engine: &mut Engine, input: impl BufRead + Send + 'static) -> std::io::Result<()> {
    let lines = read_lines(input)?;
    loop {
        match next_event(engine, &lines) {
            Event::Line(line) => {
                if execute_line(engine, &line) == Flow::Quit {
                    return Ok(());
                }
            }
            Event::TooLong(line) => {
                engine.report_error(&format!(
                    "a line of {} bytes is too long (the most is {MAX_LINE_BYTES}); ignored",
                    line.bytes
                ));
                // Every `go` ends in one `bestmove`: this one's limits are unknown, so
                // it searches to depth 1, as a `go` whose every limit was refused.
                if line.go && execute_line(engine, "go depth 1") == Flow::Quit {
                    return Ok(());
                }
            }
            Event::SearchEnded => engine.run_waiting(),
            Event::EndOfInput => break,
        }
    }
    engine.finish();
    Ok(())
}

/// Parses and executes one line; a line that does not parse gets an error message.
pub fn execute_line(engine: &mut Engine, line: &str) -> Flow {
    match parse_command(line) {
        Ok(command) => engine.execute(command),
        Err(ParseError::Empty) => Flow::Continue,
        Err(error) => {
            engine.report_error(&error.to_string());
            Flow::Continue
        }
    }
}

/// Waits for the next line of input, or for the end of the running search when
/// commands wait for it.
fn next_event(engine: &Engine, lines: &Receiver<InputLine>) -> Event {
    if let Some(search_end) = engine.search_end() {
        let mut select = Select::new();
        let line_ready = select.recv(lines);
        select.recv(search_end);
        if select.ready() != line_ready {
            return Event::SearchEnded;
        }
    }
    match lines.recv() {
        Ok(Ok(line)) => Event::Line(line),
        Ok(Err(line)) => Event::TooLong(line),
        Err(_) => Event::EndOfInput,
    }
}

/// Reads `input` on a thread of its own, one line per message; the channel closes at
/// end of input or on a read error. Bytes that are not UTF-8 are replaced, so that the
/// parser can name the bad line.
fn read_lines(mut input: impl BufRead + Send + 'static) -> std::io::Result<Receiver<InputLine>> {
    let (sender, receiver) = unbounded();
    std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let mut buffer = Vec::new();
            loop {
                buffer.clear();
                let limit = MAX_LINE_BYTES as u64 + 1;
                match (&mut input).take(limit).read_until(b'\n', &mut buffer) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {}
                }
                let line = if buffer.len() as u64 == limit && buffer.last() != Some(&b'\n') {
                    let mut words = buffer
                        .split(u8::is_ascii_whitespace)
                        .filter(|w| !w.is_empty());
                    let go = words.next() == Some(b"go".as_slice());
                    buffer = Vec::new(); // The memory is not kept while the rest is read.
                    Err(TooLong {
                        bytes: limit + skip_line(&mut input),
                        go,
                    })
                } else {
                    Ok(String::from_utf8_lossy(&buffer).into_owned())
                };
                if sender.send(line).is_err() {
                    return;
                }
            }
        })?;
    Ok(receiver)
}

/// Reads past the next newline (or to the end of input, or a read error) without
/// keeping what it reads; returns how many bytes that was.
fn skip_line(input: &mut impl BufRead) -> u64 {
    let mut skipped = 0u64;
    loop {
        let Ok(buffer) = input.fill_buf() else {
            return skipped;
        };
        if buffer.is_empty() {
            return skipped;
        }
        let (used, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(at) => (at + 1, true),
            None => (buffer.len(), false),
        };
        input.consume(used);
        skipped += used as u64;
        if done {
            return skipped;
        }
    }
}
