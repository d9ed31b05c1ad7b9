//! The input loop: a reader thread takes stdin line by line, and the loop parses each
//! line with the protocol crate and hands the command to the engine facade. While
//! commands wait for a running search to end (see [`crate::engine`]), the loop listens
//! for that end as well as for input, so that they run the moment the search is over.

use std::io::BufRead;

use crossbeam_channel::{unbounded, Receiver, Select};
use protocol::{parse_command, ParseError};

use crate::engine::{Engine, Flow};

/// What wakes the input loop.
enum Event {
    Line(String),
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
fn next_event(engine: &Engine, lines: &Receiver<String>) -> Event {
    if let Some(search_end) = engine.search_end() {
        let mut select = Select::new();
        let line_ready = select.recv(lines);
        select.recv(search_end);
        if select.ready() != line_ready {
            return Event::SearchEnded;
        }
    }
    match lines.recv() {
        Ok(line) => Event::Line(line),
        Err(_) => Event::EndOfInput,
    }
}

/// Reads `input` on a thread of its own, one line per message; the channel closes at
/// end of input or on a read error. Bytes that are not UTF-8 are replaced, so that the
/// parser can name the bad line.
fn read_lines(mut input: impl BufRead + Send + 'static) -> std::io::Result<Receiver<String>> {
    let (sender, receiver) = unbounded();
    std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let mut buffer = Vec::new();
            loop {
                buffer.clear();
                match input.read_until(b'\n', &mut buffer) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {}
                }
                let line = String::from_utf8_lossy(&buffer).into_owned();
                if sender.send(line).is_err() {
                    return;
                }
            }
        })?;
    Ok(receiver)
}
