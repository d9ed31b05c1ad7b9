//! `cutoff analyze`: runs the real binary over a small EPD file and checks that every
//! stdout line is valid JSON (with a strict little parser below, so the test needs no
//! JSON crate) and that the verdicts and the summary are right.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

mod common;

/// A few positions with known answers, a line without one, and a bad line.
const SUITE: &str = r#"# mate in one, bm in SAN with its annotation, full FEN with counters
r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4 bm Qxf7#; id "scholar";

6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm a1a8; id "back rank (uci)";
4k3/8/4p3/3r4/8/8/8/3QK3 w - - am Qxd5; id "poisoned\rook";
6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Kf1; id "wrong";
6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Qh5; id "no queen";
4k3/8/8/8/8/8/8/4K2R w K - id "plain";
"#;

/// A fresh directory for this test's files.
fn temp_dir(name: &str) -> PathBuf {
    common::temp_dir("analyze", name)
}

fn analyze(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cutoff"))
        .arg("analyze")
        .args(args)
        .output()
        .expect("cannot run cutoff")
}

#[test]
fn analyses_a_suite_and_counts_the_solved_positions() {
    let dir = temp_dir("suite");
    let path = dir.join("suite.epd");
    std::fs::write(&path, SUITE).unwrap();
    let output = analyze(&[path.to_str().unwrap(), "--depth", "6"]);
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let context = format!("stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(output.status.success(), "{context}");

    let objects: Vec<Value> = stdout
        .lines()
        .map(|line| parse(line).unwrap_or_else(|e| panic!("invalid JSON ({e}): {line}")))
        .collect();
    assert_eq!(objects.len(), 6, "{context}");
    let (positions, summary) = objects.split_at(5);

    let ids: Vec<&str> = positions.iter().map(|p| p.get("id").as_str()).collect();
    assert_eq!(
        ids,
        [
            "scholar",
            "back rank (uci)",
            "poisoned\\rook",
            "wrong",
            "plain"
        ]
    );
    let lines: Vec<f64> = positions.iter().map(|p| p.get("line").as_f64()).collect();
    assert_eq!(lines, [2.0, 4.0, 5.0, 6.0, 8.0]);
    let solved: Vec<&Value> = positions.iter().map(|p| p.get("solved")).collect();
    assert_eq!(
        solved,
        [
            &Value::Bool(true),
            &Value::Bool(true),
            &Value::Bool(true),
            &Value::Bool(false),
            &Value::Null
        ],
        "{context}"
    );

    let scholar = &positions[0];
    assert_eq!(scholar.get("bestmove").as_str(), "h5f7");
    assert_eq!(scholar.get("san").as_str(), "Qxf7#");
    assert_eq!(scholar.get("score").get("mate").as_f64(), 1.0);
    assert_eq!(
        scholar.get("bm"),
        &Value::Array(vec![Value::Str("h5f7".into())])
    );
    assert_eq!(
        scholar.get("fen").as_str(),
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
    );
    for position in positions {
        assert_eq!(position.get("depth").as_f64(), 6.0);
        assert!(position.get("nodes").as_f64() > 0.0);
        assert!(position.get("time").as_f64() >= 0.0);
        let Value::Array(pv) = position.get("pv") else {
            panic!("pv is not an array: {position:?}");
        };
        assert_eq!(pv.first(), Some(position.get("bestmove")));
    }
    assert!(matches!(
        positions[4].get("score").get("cp"),
        Value::Number(_)
    ));
    assert_eq!(
        positions[2].get("am"),
        &Value::Array(vec![Value::Str("d1d5".into())])
    );

    assert_eq!(summary[0].get("summary"), &Value::Bool(true));
    assert_eq!(summary[0].get("solved").as_f64(), 3.0, "{context}");
    assert_eq!(summary[0].get("total").as_f64(), 4.0);
    assert_eq!(summary[0].get("positions").as_f64(), 5.0);
    assert_eq!(summary[0].get("skipped").as_f64(), 1.0);

    assert!(
        stderr.contains("suite.epd:7: error: bm 'Qh5' is not a legal move"),
        "{context}"
    );
    assert!(stderr.contains("[1/6] scholar Qxf7# solved"), "{context}");
    assert!(
        stderr.contains("[4/6] wrong Ra8# FAILED (bm Kf1)"),
        "{context}"
    );
    assert_eq!(stderr.lines().last(), Some("solved 3/4"), "{context}");
}

#[test]
fn node_limit_and_threads() {
    let dir = temp_dir("nodes");
    let path = dir.join("one.epd");
    std::fs::write(
        &path,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n",
    )
    .unwrap();
    let output = analyze(&["--nodes", "20000", "--threads", "2", path.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{stdout}");
    let lines: Vec<Value> = stdout.lines().map(|l| parse(l).unwrap()).collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert_eq!(lines[0].get("id"), &Value::Null);
    assert_eq!(lines[0].get("solved"), &Value::Null);
    assert!(lines[0].get("depth").as_f64() >= 1.0, "{stdout}");
    // The limit counts both threads' nodes, and so does the report: the search stops at
    // the limit (overshooting by at most a few polls of each thread), not at twice it.
    let nodes = lines[0].get("nodes").as_f64();
    assert!((20_000.0..=22_000.0).contains(&nodes), "{stdout}");
    assert_eq!(lines[1].get("total").as_f64(), 0.0);
}

/// A reader that quits early (`cutoff analyze ... | head -1`) closes the pipe: the tool
/// ends with a failure status, not a panic (exit status 101), whichever stream it was.
#[test]
fn a_closed_stdout_or_stderr_ends_the_tool_without_a_panic() {
    let dir = temp_dir("closed");
    let path = dir.join("suite.epd");
    std::fs::write(&path, SUITE).unwrap();
    for closed_stream in ["stdout", "stderr"] {
        let mut command = Command::new(env!("CARGO_BIN_EXE_cutoff"));
        command.args(["analyze", path.to_str().unwrap(), "--depth", "4"]);
        command.stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = command.spawn().expect("cannot run cutoff");
        // Drop the read end of one pipe at once; drain the other.
        let mut open = if closed_stream == "stdout" {
            drop(child.stdout.take());
            Box::new(child.stderr.take().unwrap()) as Box<dyn Read>
        } else {
            drop(child.stderr.take());
            Box::new(child.stdout.take().unwrap()) as Box<dyn Read>
        };
        let mut drained = Vec::new();
        open.read_to_end(&mut drained).unwrap();
        let status = child.wait().unwrap();
        let text = String::from_utf8_lossy(&drained);
        assert_ne!(status.code(), Some(101), "closed {closed_stream}: {text}");
        assert!(!text.contains("panicked"), "closed {closed_stream}: {text}");
    }
}

#[test]
fn a_missing_file_or_bad_flag_is_an_error() {
    let output = analyze(&["/nonexistent/cutoff/suite.epd", "--depth", "2"]);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(!output.status.success());
    assert!(
        stderr.contains("cutoff analyze: error: /nonexistent/cutoff/suite.epd:"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty());

    let output = analyze(&["suite.epd", "--depth", "deep"]);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(!output.status.success());
    assert!(
        stderr.contains("invalid value 'deep' for '--depth <DEPTH>'"),
        "{stderr}"
    );
}

/// A JSON value, as far as the test needs to look into one.
#[derive(Debug, Clone, PartialEq)]
enum Value {
    Null,
    Bool(bool),
    Number(f64),
    Str(String),
    Array(Vec<Value>),
    Object(Vec<(String, Value)>),
}

impl Value {
    /// The field `name` of an object (panics otherwise, with the object).
    fn get(&self, name: &str) -> &Value {
        match self {
            Value::Object(fields) => fields
                .iter()
                .find(|(key, _)| key == name)
                .map(|(_, value)| value)
                .unwrap_or_else(|| panic!("no field '{name}' in {self:?}")),
            _ => panic!("not an object: {self:?}"),
        }
    }

    fn as_str(&self) -> &str {
        match self {
            Value::Str(text) => text,
            _ => panic!("not a string: {self:?}"),
        }
    }

    fn as_f64(&self) -> f64 {
        match self {
            Value::Number(n) => *n,
            _ => panic!("not a number: {self:?}"),
        }
    }
}

/// Parses one complete JSON text (RFC 8259), rejecting anything after it.
fn parse(text: &str) -> Result<Value, String> {
    let mut parser = Parser {
        bytes: text.as_bytes(),
        at: 0,
    };
    let value = parser.value()?;
    parser.whitespace();
    if parser.at != parser.bytes.len() {
        return Err(format!("trailing characters at {}", parser.at));
    }
    Ok(value)
}

struct Parser<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Result<(), String> {
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(format!("expected '{}' at {}", byte as char, self.at))
        }
    }

    fn literal(&mut self, word: &str, value: Value) -> Result<Value, String> {
        if self.bytes[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(format!("bad literal at {}", self.at))
        }
    }

    fn value(&mut self) -> Result<Value, String> {
        self.whitespace();
        match self.peek() {
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => self.string().map(Value::Str),
            Some(b't') => self.literal("true", Value::Bool(true)),
            Some(b'f') => self.literal("false", Value::Bool(false)),
            Some(b'n') => self.literal("null", Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(format!("unexpected character at {}", self.at)),
        }
    }

    fn object(&mut self) -> Result<Value, String> {
        self.expect(b'{')?;
        let mut fields = Vec::new();
        self.whitespace();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Value::Object(fields));
        }
        loop {
            self.whitespace();
            let key = self.string()?;
            if fields.iter().any(|(k, _)| *k == key) {
                return Err(format!("duplicate key '{key}'"));
            }
            self.whitespace();
            self.expect(b':')?;
            fields.push((key, self.value()?));
            self.whitespace();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Value::Object(fields));
                }
                _ => return Err(format!("expected ',' or '}}' at {}", self.at)),
            }
        }
    }

    fn array(&mut self) -> Result<Value, String> {
        self.expect(b'[')?;
        let mut items = Vec::new();
        self.whitespace();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Value::Array(items));
        }
        loop {
            items.push(self.value()?);
            self.whitespace();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Value::Array(items));
                }
                _ => return Err(format!("expected ',' or ']' at {}", self.at)),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let digits = self
            .bytes
            .get(self.at..self.at + 4)
            .and_then(|d| std::str::from_utf8(d).ok())
            .ok_or("short \\u escape")?;
        let code = u32::from_str_radix(digits, 16).map_err(|_| "bad \\u escape")?;
        self.at += 4;
        Ok(code)
    }

    fn string(&mut self) -> Result<String, String> {
        self.expect(b'"')?;
        let mut out = Vec::new();
        loop {
            let byte = self.peek().ok_or("unterminated string")?;
            self.at += 1;
            match byte {
                b'"' => return String::from_utf8(out).map_err(|e| e.to_string()),
                0x00..=0x1f => return Err(format!("raw control character at {}", self.at)),
                b'\\' => {
                    let escape = self.peek().ok_or("unterminated escape")?;
                    self.at += 1;
                    let c = match escape {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let mut code = self.hex4()?;
                            if (0xd800..0xdc00).contains(&code) {
                                self.expect(b'\\')?;
                                self.expect(b'u')?;
                                let low = self.hex4()?;
                                if !(0xdc00..0xe000).contains(&low) {
                                    return Err("bad surrogate pair".into());
                                }
                                code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
                            }
                            char::from_u32(code).ok_or("bad code point")?
                        }
                        _ => return Err(format!("bad escape at {}", self.at)),
                    };
                    let mut buffer = [0; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buffer).as_bytes());
                }
                other => out.push(other),
            }
        }
    }

    fn number(&mut self) -> Result<Value, String> {
        let start = self.at;
        let digits = |p: &mut Self| {
            let from = p.at;
            while matches!(p.peek(), Some(b'0'..=b'9')) {
                p.at += 1;
            }
            p.at - from
        };
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        if self.peek() == Some(b'0') {
            self.at += 1;
        } else if digits(self) == 0 {
            return Err(format!("bad number at {start}"));
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            if digits(self) == 0 {
                return Err(format!("bad fraction at {start}"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if digits(self) == 0 {
                return Err(format!("bad exponent at {start}"));
            }
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at]).unwrap();
        text.parse()
            .map(Value::Number)
            .map_err(|_| format!("bad number '{text}'"))
    }
}

#[test]
fn the_json_checker_itself_rejects_invalid_json() {
    for bad in [
        "{",
        "{\"a\":1,}",
        "{\"a\" 1}",
        "[1 2]",
        "\"a\u{1}\"",
        "{\"a\":01}",
        "{\"a\":\"\\x\"}",
        "{} x",
        "{\"a\":1,\"a\":2}",
        "nul",
    ] {
        assert!(parse(bad).is_err(), "{bad}");
    }
    assert_eq!(
        parse(r#" {"a":[1,-2.5e3,true,null],"b":"\"\\\u00e9\ud83d\ude00"} "#).unwrap(),
        Value::Object(vec![
            (
                "a".into(),
                Value::Array(vec![
                    Value::Number(1.0),
                    Value::Number(-2500.0),
                    Value::Bool(true),
                    Value::Null
                ])
            ),
            ("b".into(), Value::Str("\"\\é😀".into())),
        ])
    );
}
