//! The tokens of PGN text (the PGN standard's section 7 and 8, read leniently): tag pairs,
//! move numbers, move symbols, comments, NAGs, variation brackets and game results.

/// One token of PGN text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Token<'a> {
    /// `[Name "value"]`, the value with its `\"` and `\\` escapes resolved.
    Tag { name: &'a str, value: String },
    /// `12.`, `12...` (the number itself is not needed).
    MoveNumber,
    /// A move in SAN with any `!`/`?` suffix (`Nf3`, `e8=Q+`, `O-O!?`), or a suffix on
    /// its own (`!?`); anything else that is not punctuation lands here too.
    Symbol(&'a str),
    /// `{text}` or `; text` to the end of the line, without its delimiters.
    Comment(&'a str),
    /// `$n`.
    Nag(u8),
    /// `(`: a variation starts.
    Open,
    /// `)`: a variation ends.
    Close,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    Result(&'a str),
    /// A `[` that starts no well-formed tag pair, with why.
    BadTag(String),
    /// Text that is no PGN token, with why.
    Bad(String),
}

/// Why a `{` comment is refused when no `}` follows it.
const UNCLOSED_COMMENT: &str = "comment opened here is never closed (no '}')";
/// Why a `<` is refused when no `>` follows it.
const UNCLOSED_RESERVED: &str = "'<' opened here is never closed (no '>')";

/// A token with the line it starts on (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located<'a> {
    pub token: Token<'a>,
    pub line: usize,
}

/// Splits PGN text into tokens.
pub struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
    /// Characters looked for in vain, each with where the search started: none comes
    /// after that, so a later search for it need not read the rest of the text again.
    missing: Vec<(char, usize)>,
}

/// The characters a move symbol (or a result, or a move number) is made of.
fn is_symbol_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"_+#=:-/!?".contains(&c)
}

impl<'a> Lexer<'a> {
    pub fn new(text: &'a str) -> Lexer<'a> {
        // A byte-order mark is no part of the text.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Lexer {
            text,
            pos: 0,
            line: 1,
            missing: Vec::new(),
        }
    }

    fn peek_byte(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    /// Moves past `len` bytes, counting the lines they end.
    fn advance(&mut self, len: usize) {
        let end = (self.pos + len).min(self.text.len());
        self.line += self.text.as_bytes()[self.pos..end]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        self.pos = end;
    }

    /// Skips white space and `%` escape lines.
    fn skip_space(&mut self) {
        while let Some(c) = self.peek_byte() {
            let line_start = self.pos == 0 || self.text.as_bytes()[self.pos - 1] == b'\n';
            if c == b'%' && line_start {
                self.advance(self.rest().find('\n').unwrap_or(self.rest().len()));
            } else if c.is_ascii_whitespace() {
                self.advance(1);
            } else {
                break;
            }
        }
    }

    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    /// The text up to (not including) the first `end`, moving past it; `None`, without
    /// moving, when there is none.
    fn past(&mut self, end: char) -> Option<&'a str> {
        let pos = self.pos;
        if self
            .missing
            .iter()
            .any(|&(c, from)| c == end && from <= pos)
        {
            return None;
        }
        let rest = self.rest();
        let Some(at) = rest.find(end) else {
            self.missing.push((end, pos));
            return None;
        };
        self.advance(at + 1);
        Some(&rest[..at])
    }

    /// [`Lexer::past`], or the rest of the text when `end` never comes.
    fn until(&mut self, end: char) -> &'a str {
        self.past(end).unwrap_or_else(|| {
            let rest = self.rest();
            self.advance(rest.len());
            rest
        })
    }

    /// [`Lexer::past`], or, when `end` never comes, `None` with the lexer moved to the next
    /// line that starts with a tag pair (or the end of the text): an unclosed comment costs
    /// its own game, not every game after it.
    fn until_closed(&mut self, end: char) -> Option<&'a str> {
        let found = self.past(end);
        if found.is_none() {
            let rest = self.rest();
            self.advance(rest.find("\n[").map_or(rest.len(), |at| at + 1));
        }
        found
    }

    fn tag(&mut self) -> Token<'a> {
        self.advance(1); // '['
        let rest = self.rest();
        let name_len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let name = &rest[..name_len];
        self.advance(name_len);
        self.skip_space();
        if name.is_empty() || self.peek_byte() != Some(b'"') {
            let text = self.until(']');
            return Token::BadTag(format!("malformed tag pair [{name}{text}]"));
        }
        self.advance(1); // '"'
        let mut value = String::new();
        let mut chars = self.rest().char_indices();
        let mut closed = None;
        while let Some((at, c)) = chars.next() {
            match c {
                '\\' => {
                    if let Some((_, escaped)) = chars.next() {
                        value.push(escaped);
                    }
                }
                '"' => {
                    closed = Some(at + 1);
                    break;
                }
                '\n' => break,
                c => value.push(c),
            }
        }
        let Some(len) = closed else {
            self.until(']');
            return Token::BadTag(format!("tag {name}: the value has no closing quote"));
        };
        self.advance(len);
        self.skip_space();
        if self.peek_byte() == Some(b']') {
            self.advance(1);
            Token::Tag { name, value }
        } else {
            let text = self.until(']');
            Token::BadTag(format!("tag {name}: unexpected {text:?} before ']'"))
        }
    }

    /// A symbol, a move number (digits then dots) or a result.
    fn symbol(&mut self) -> Token<'a> {
        let rest = self.rest();
        let len = rest
            .bytes()
            .position(|c| !is_symbol_char(c))
            .unwrap_or(rest.len());
        let symbol = &rest[..len];
        self.advance(len);
        if matches!(symbol, "1-0" | "0-1" | "1/2-1/2" | "1/2") {
            return Token::Result(symbol);
        }
        // A move number is digits with any number of dots (`12`, `12.`, `12...`).
        if symbol.bytes().all(|c| c.is_ascii_digit()) {
            while self.peek_byte() == Some(b'.') {
                self.advance(1);
            }
            return Token::MoveNumber;
        }
        Token::Symbol(symbol)
    }

    fn nag(&mut self) -> Token<'a> {
        self.advance(1); // '$'
        let rest = self.rest();
        let len = rest
            .bytes()
            .position(|c| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        self.advance(len);
        match rest[..len].parse::<u8>() {
            Ok(nag) => Token::Nag(nag),
            Err(_) => Token::Bad(format!("bad NAG ${}", &rest[..len])),
        }
    }
}

impl<'a> Iterator for Lexer<'a> {
    type Item = Located<'a>;

    fn next(&mut self) -> Option<Located<'a>> {
        // A loop, not recursion, over what is skipped: a run of stray dots or `<...>` as
        // long as the file must not grow the stack.
        loop {
            self.skip_space();
            let line = self.line;
            let c = self.peek_byte()?;
            let token = match c {
                b'[' => self.tag(),
                b'{' => {
                    self.advance(1);
                    match self.until_closed('}') {
                        Some(text) => Token::Comment(text.trim()),
                        None => Token::Bad(UNCLOSED_COMMENT.to_string()),
                    }
                }
                b';' => {
                    self.advance(1);
                    Token::Comment(self.until('\n').trim())
                }
                b'<' => {
                    // Reserved for future expansion by the standard: skipped.
                    if self.until_closed('>').is_some() {
                        continue;
                    }
                    Token::Bad(UNCLOSED_RESERVED.to_string())
                }
                b'.' => {
                    // Stray dots (`{comment} ... e5`) say nothing.
                    self.advance(1);
                    continue;
                }
                b'(' => {
                    self.advance(1);
                    Token::Open
                }
                b')' => {
                    self.advance(1);
                    Token::Close
                }
                b'*' => {
                    self.advance(1);
                    Token::Result("*")
                }
                b'$' => self.nag(),
                c if is_symbol_char(c) => self.symbol(),
                _ => {
                    let bad = self.rest().chars().next().unwrap_or('?');
                    self.advance(bad.len_utf8());
                    Token::Bad(format!("unexpected character {bad:?}"))
                }
            };
            return Some(Located { token, line });
        }
    }
}
