//! The little JSON `analyze` writes: one flat object per line, built field by field. Strings
//! are escaped as RFC 8259 requires (quote, backslash and control characters); anything
//! else passes through as UTF-8.

use std::fmt::Write;

/// `text` as a JSON string literal, quotes included.
pub fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON array of strings.
pub fn string_array<S: AsRef<str>>(items: &[S]) -> String {
    let items: Vec<String> = items.iter().map(|s| string(s.as_ref())).collect();
    format!("[{}]", items.join(","))
}

/// A JSON object under construction; fields appear in the order they are added.
#[derive(Debug, Default)]
pub struct Object {
    fields: Vec<(String, String)>,
}

impl Object {
    pub fn new() -> Object {
        Object::default()
    }

    /// Adds a field whose value is already JSON (a number, `true`, an array, ...).
    pub fn raw(mut self, name: &str, json: impl Into<String>) -> Object {
        self.fields.push((name.to_string(), json.into()));
        self
    }

    /// Adds a string field.
    pub fn string(self, name: &str, text: &str) -> Object {
        self.raw(name, string(text))
    }

    /// Adds a string field, or `null` when there is none.
    pub fn optional_string(self, name: &str, text: Option<&str>) -> Object {
        self.raw(name, text.map_or_else(|| "null".to_string(), string))
    }

    /// Adds a number (or a boolean: anything whose `Display` is valid JSON).
    pub fn number(self, name: &str, value: impl std::fmt::Display) -> Object {
        self.raw(name, value.to_string())
    }

    /// The object as one line of JSON.
    pub fn render(&self) -> String {
        let fields: Vec<String> = self
            .fields
            .iter()
            .map(|(name, value)| format!("{}:{value}", string(name)))
            .collect();
        format!("{{{}}}", fields.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_quotes_backslashes_and_control_characters() {
        assert_eq!(string(r#"WAC "1" \ x"#), r#""WAC \"1\" \\ x""#);
        assert_eq!(string("a\nb\tc\u{1}"), r#""a\nb\tc\u0001""#);
        assert_eq!(string("é♞"), "\"é♞\"");
    }

    #[test]
    fn objects_keep_field_order() {
        let object = Object::new()
            .string("id", "x")
            .optional_string("none", None)
            .number("depth", 6)
            .number("solved", true)
            .raw("pv", string_array(&["e2e4", "e7e5"]))
            .raw("empty", string_array::<&str>(&[]))
            .raw("score", Object::new().number("cp", -15).render());
        assert_eq!(
            object.render(),
            r#"{"id":"x","none":null,"depth":6,"solved":true,"pv":["e2e4","e7e5"],"empty":[],"score":{"cp":-15}}"#
        );
    }
}
