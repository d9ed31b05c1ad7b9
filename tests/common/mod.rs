//! Shared helpers for the integration tests: drives the real `cutoff` binary over
//! pipes, one UCI line at a time.
//!
//! Every wait has a generous deadline (see [`TIMEOUT`]) so that a broken engine makes a
//! test fail with the transcript of the UCI session instead of hanging; no test asserts how
//! fast anything is (timings belong in benchmarks and `tools/latency.py`).

// Each test crate uses its own subset of these helpers.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// The deadline for anything that involves a search or a process exit.
pub const TIMEOUT: Duration = Duration::from_secs(30);
/// The deadline for answers that need no search (`readyok`, `uciok`, errors, `d`).
pub const SHORT: Duration = Duration::from_secs(10);

/// How many transcript entries a failure message shows (the most recent ones).
const TRANSCRIPT_SHOWN: usize = 300;
/// Longer transcript entries are cut to this many characters in failure messages.
const ENTRY_SHOWN: usize = 300;

/// Waits up to `limit` for `child` to exit and returns its status; a child still running
/// then is killed and the test fails, naming `what` it was doing (a hang, not a slow run:
/// the limits are many times what the work takes).
pub fn exit_within(child: &mut Child, limit: Duration, what: &str) -> ExitStatus {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().expect("wait for the child") {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{what} did not end within {limit:?}");
        }
        thread::sleep(Duration::from_millis(20));
    }
}

/// A fresh directory for the files of one test: `test` names the test file, `name` the
/// case, and the process id keeps parallel runs apart.
pub fn temp_dir(test: &str, name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cutoff-{test}-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The `cutoff` binary built by Cargo for this test run.
pub fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_cutoff")
}

/// A running `cutoff` process with piped stdin/stdout/stderr.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    reader: Option<JoinHandle<()>>,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// Everything sent (`> `) and received (`< `), in order, for failure messages.
    transcript: Vec<String>,
    /// Whether the engine closed its stdout (no more lines will come).
    eof: bool,
    exit: Option<ExitStatus>,
}

impl EngineProcess {
    /// Starts the engine in UCI mode (no arguments).
    pub fn start() -> EngineProcess {
        let mut engine = EngineProcess::start_with_args(&[]);
        engine.expect_banner();
        engine
    }

    /// Reads the one-line banner the engine prints when it starts in UCI mode.
    #[track_caller]
    pub fn expect_banner(&mut self) {
        let banner = self.expect_line(|_| true, SHORT);
        if !banner.starts_with("Cutoff ") || !banner.contains("'help'") {
            self.fail(&format!("the first line is not the banner: {banner}"));
        }
    }

    /// Starts the engine with command-line arguments (one-shot command mode when
    /// `args` is not empty).
    pub fn start_with_args(args: &[&str]) -> EngineProcess {
        let mut command = Command::new(binary());
        command.args(args);
        EngineProcess::spawn(command, format!("$ cutoff {}", args.join(" ")))
    }

    /// Starts the engine in UCI mode with its address space limited to `kib` KiB
    /// (`ulimit -v`), so that large allocations fail as they would on a small machine.
    pub fn start_with_memory_limit(kib: u64) -> EngineProcess {
        let mut command = Command::new("sh");
        command
            // Fewer malloc arenas: less address space reserved, whatever the core count.
            .env("MALLOC_ARENA_MAX", "2")
            .arg("-c")
            .arg(format!("ulimit -v {kib} && exec \"$0\""))
            .arg(binary());
        let mut engine = EngineProcess::spawn(command, format!("$ ulimit -v {kib}; cutoff"));
        engine.expect_banner();
        engine
    }

    fn spawn(mut command: Command, description: String) -> EngineProcess {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", binary()));
        let stdout = child.stdout.take().expect("piped stdout");
        let mut stderr_pipe = child.stderr.take().expect("piped stderr");
        let (sender, lines) = mpsc::channel();
        let reader = thread::Builder::new()
            .name("engine-stdout".into())
            .spawn(move || {
                let mut stdout = BufReader::new(stdout);
                let mut buffer = Vec::new();
                loop {
                    buffer.clear();
                    match stdout.read_until(b'\n', &mut buffer) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {}
                    }
                    while matches!(buffer.last(), Some(b'\n' | b'\r')) {
                        buffer.pop();
                    }
                    let line = String::from_utf8_lossy(&buffer).into_owned();
                    if sender.send(line).is_err() {
                        break;
                    }
                }
            })
            .expect("spawn the stdout reader");
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let stderr_sink = Arc::clone(&stderr);
        thread::Builder::new()
            .name("engine-stderr".into())
            .spawn(move || {
                let mut chunk = [0u8; 4096];
                while let Ok(n @ 1..) = stderr_pipe.read(&mut chunk) {
                    let mut all = stderr_sink.lock().unwrap_or_else(|e| e.into_inner());
                    // Keep the beginning; a runaway log should not eat the memory.
                    if all.len() < 1 << 20 {
                        all.extend_from_slice(&chunk[..n]);
                    }
                }
            })
            .expect("spawn the stderr reader");
        let stdin = child.stdin.take();
        EngineProcess {
            child,
            stdin,
            lines,
            reader: Some(reader),
            stderr,
            transcript: vec![description],
            eof: false,
            exit: None,
        }
    }

    /// Sends one line (a newline is added).
    #[track_caller]
    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.write(&bytes);
    }

    /// Sends raw bytes exactly as given (no newline added): for garbage input.
    #[track_caller]
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.transcript.push(format!(
            "> (raw) {}",
            String::from_utf8_lossy(bytes).escape_debug()
        ));
        self.write(bytes);
    }

    #[track_caller]
    fn write(&mut self, bytes: &[u8]) {
        let result = match self.stdin.as_mut() {
            Some(stdin) => stdin.write_all(bytes).and_then(|()| stdin.flush()),
            None => self.fail("write after close_stdin()"),
        };
        if let Err(error) = result {
            self.fail(&format!("cannot write to the engine: {error}"));
        }
    }

    /// Closes the engine's stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.transcript.push("> (end of input)".to_string());
        self.stdin = None;
    }

    /// Reads lines until one satisfies `predicate` and returns it; fails with the
    /// transcript if none comes within `timeout` or the engine closes its output.
    #[track_caller]
    pub fn expect_line(&mut self, predicate: impl Fn(&str) -> bool, timeout: Duration) -> String {
        let mut lines = self.read_until(predicate, timeout);
        lines.pop().expect("read_until returns the matching line")
    }

    /// Reads lines until one satisfies `predicate`; returns all of them, the matching
    /// one last.
    #[track_caller]
    pub fn read_until(
        &mut self,
        predicate: impl Fn(&str) -> bool,
        timeout: Duration,
    ) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Ok(line) => {
                    let done = predicate(&line);
                    lines.push(line);
                    if done {
                        return lines;
                    }
                }
                Err(RecvTimeoutError::Timeout) => self.fail(&format!(
                    "no expected line within {timeout:?} ({} other lines read)",
                    lines.len()
                )),
                Err(RecvTimeoutError::Disconnected) => self.fail(&format!(
                    "the engine closed its output before the expected line ({} other lines read)",
                    lines.len()
                )),
            }
        }
    }

    /// Reads every line up to and including the first `bestmove`.
    #[track_caller]
    pub fn read_until_bestmove(&mut self, timeout: Duration) -> Vec<String> {
        self.read_until(|line| line.starts_with("bestmove"), timeout)
    }

    /// Sends `isready` and returns the lines that came before `readyok` (the
    /// `readyok` itself is not included). Everything the engine printed for earlier
    /// commands that do not involve the search thread is among them.
    #[track_caller]
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until(|line| line == "readyok", SHORT);
        lines.pop();
        lines
    }

    /// Reads until the engine closes its output; returns the lines read.
    #[track_caller]
    pub fn read_to_end(&mut self, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Ok(line) => lines.push(line),
                Err(RecvTimeoutError::Disconnected) => return lines,
                Err(RecvTimeoutError::Timeout) => self.fail(&format!(
                    "the engine did not close its output within {timeout:?}"
                )),
            }
        }
    }

    /// Waits for the process to exit; fails (and kills it) after `timeout`.
    #[track_caller]
    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        if let Some(status) = self.exit {
            return status;
        }
        let deadline = Instant::now() + timeout;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.exit = Some(status);
                    self.transcript.push(format!("(exited: {status})"));
                    if let Some(reader) = self.reader.take() {
                        let _ = reader.join();
                    }
                    return status;
                }
                Ok(None) if Instant::now() < deadline => {
                    thread::sleep(Duration::from_millis(5));
                }
                Ok(None) => self.fail(&format!("the engine did not exit within {timeout:?}")),
                Err(error) => self.fail(&format!("cannot wait for the engine: {error}")),
            }
        }
    }

    /// Waits for the process to exit and fails unless its status is 0.
    #[track_caller]
    pub fn expect_exit_status_0(&mut self) {
        let status = self.wait_exit(TIMEOUT);
        if !status.success() {
            self.fail(&format!("expected exit status 0, got {status}"));
        }
    }

    /// Waits for the engine to exit and checks that it reported a failure (status 1).
    #[track_caller]
    pub fn expect_exit_status_1(&mut self) {
        let status = self.wait_exit(TIMEOUT);
        if status.code() != Some(1) {
            self.fail(&format!("expected exit status 1, got {status}"));
        }
    }

    /// Runs `go perft <depth>` and returns its divide and total.
    #[track_caller]
    pub fn perft(&mut self, depth: u32) -> Perft {
        self.send(&format!("go perft {depth}"));
        let lines = self.read_until(|line| line.starts_with("Nodes searched:"), TIMEOUT);
        let mut perft = Perft::default();
        for line in &lines {
            if let Some(total) = line.strip_prefix("Nodes searched: ") {
                perft.total = total
                    .trim()
                    .parse()
                    .unwrap_or_else(|_| self.fail(&format!("bad perft total: {line}")));
            } else if let Some((mv, count)) = line.split_once(": ") {
                let count = count
                    .trim()
                    .parse()
                    .unwrap_or_else(|_| self.fail(&format!("bad perft line: {line}")));
                perft.divide.push((mv.to_string(), count));
            } else if !line.is_empty() {
                self.fail(&format!("unexpected line in a perft report: {line}"));
            }
        }
        perft
    }

    /// The legal moves of the current position, as the engine writes them (from
    /// `go perft 1`).
    #[track_caller]
    pub fn legal_moves(&mut self) -> Vec<String> {
        self.perft(1).moves()
    }

    /// The engine's `d` output, up to and including the `Legal moves` line.
    #[track_caller]
    pub fn display(&mut self) -> Vec<String> {
        self.send("d");
        self.read_until(|line| line.starts_with("Legal moves"), SHORT)
    }

    /// The `Fen: ` line of `d`, without the prefix.
    #[track_caller]
    pub fn fen(&mut self) -> String {
        let lines = self.display();
        match lines.iter().find_map(|line| line.strip_prefix("Fen: ")) {
            Some(fen) => fen.to_string(),
            None => self.fail("`d` printed no `Fen: ` line"),
        }
    }

    /// The whole UCI session so far, most recent entries last, plus the engine's stderr.
    pub fn transcript(&self) -> String {
        let skipped = self.transcript.len().saturating_sub(TRANSCRIPT_SHOWN);
        let mut text = String::from("--- transcript ---\n");
        if skipped > 0 {
            text.push_str(&format!("({skipped} earlier entries not shown)\n"));
        }
        for entry in &self.transcript[skipped..] {
            if entry.chars().count() > ENTRY_SHOWN {
                let cut: String = entry.chars().take(ENTRY_SHOWN).collect();
                text.push_str(&format!("{cut}... ({} bytes)\n", entry.len()));
            } else {
                text.push_str(entry);
                text.push('\n');
            }
        }
        let stderr = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        if !stderr.is_empty() {
            text.push_str("--- stderr ---\n");
            text.push_str(&String::from_utf8_lossy(&stderr));
            text.push('\n');
        }
        text.push_str("--- end ---");
        text
    }

    /// Fails the test with `message` and the transcript.
    #[track_caller]
    pub fn fail(&self, message: &str) -> ! {
        panic!("{message}\n{}", self.transcript())
    }

    fn next_line(&mut self, timeout: Duration) -> Result<String, RecvTimeoutError> {
        if self.eof {
            return Err(RecvTimeoutError::Disconnected);
        }
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(format!("< {line}"));
                Ok(line)
            }
            Err(RecvTimeoutError::Disconnected) => {
                self.eof = true;
                self.transcript
                    .push("(engine closed its output)".to_string());
                Err(RecvTimeoutError::Disconnected)
            }
            Err(timeout) => Err(timeout),
        }
    }
}

impl Drop for EngineProcess {
    /// A test that fails half-way must not leave an engine running.
    fn drop(&mut self) {
        self.stdin = None;
        if self.exit.is_none() && matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// A `go perft` report.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Perft {
    /// `(move, count)` per root move, in the engine's order.
    pub divide: Vec<(String, u64)>,
    /// The `Nodes searched:` figure.
    pub total: u64,
}

impl Perft {
    pub fn moves(&self) -> Vec<String> {
        self.divide.iter().map(|(mv, _)| mv.clone()).collect()
    }
}

/// Splits `bestmove <m> [ponder <p>]` into the move and the ponder move.
pub fn parse_bestmove(line: &str) -> Option<(String, Option<String>)> {
    let mut tokens = line.split_whitespace();
    if tokens.next()? != "bestmove" {
        return None;
    }
    let best = tokens.next()?.to_string();
    let ponder = match tokens.next() {
        None => None,
        Some("ponder") => Some(tokens.next()?.to_string()),
        Some(_) => return None,
    };
    if tokens.next().is_some() {
        return None;
    }
    Some((best, ponder))
}

/// Whether `line` is an `info` line about the search (not an `info string`).
pub fn is_search_info(line: &str) -> bool {
    line.starts_with("info ") && !line.starts_with("info string")
}

/// Whether `line` is the answer to a rejected command.
pub fn is_error(line: &str) -> bool {
    line.starts_with("info string error:")
}
