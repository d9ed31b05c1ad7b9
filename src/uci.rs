//! The input loop: reads stdin line by line, parses each line with the protocol crate
//! and hands the command to the engine facade.

use std::io::BufRead;

use protocol::{parse_command, ParseError};

use crate::engine::{Engine, Flow};

/// Runs until `quit` or end of input.
pub fn run(engine: &mut Engine, input: impl BufRead) {
    let mut input = input;
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match input.read_until(b'\n', &mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&buffer);
        if execute_line(engine, &line) == Flow::Quit {
            return;
        }
    }
    engine.finish();
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
