//! Strings from files (titles, names, narration, symbol names) may hold
//! control characters; an ESC sequence printed as is would drive the user's
//! terminal. Every headless text and Markdown output goes through `escape`
//! (JSON is escaped by serde).

use std::borrow::Cow;

/// `s` with each control character written as Rust writes it (`\u{1b}`),
/// except newlines and tabs when `keep_layout` (multi-line reports).
pub fn escape_control(s: &str, keep_layout: bool) -> Cow<'_, str> {
    let bad = |c: char| c.is_control() && !(keep_layout && (c == '\n' || c == '\t'));
    if !s.chars().any(bad) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if bad(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// For reports: control characters escaped, lines and tabs kept.
pub fn escape(s: &str) -> Cow<'_, str> {
    escape_control(s, true)
}

/// For one-line messages: every control character escaped, newlines too.
pub fn escape_line(s: &str) -> Cow<'_, str> {
    escape_control(s, false)
}

/// For JSON: serde escapes C0 controls inside strings but leaves C1 ones
/// (U+0080..U+009F, and DEL) raw, which some terminals take as CSI. Every
/// control character left can only sit inside a string (JSON's layout is
/// newlines and spaces), so each becomes a JSON `\u00XX` escape.
pub fn escape_json(s: &str) -> Cow<'_, str> {
    let bad = |c: char| c.is_control() && c != '\n';
    if !s.chars().any(bad) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if bad(c) {
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_written_out() {
        assert_eq!(escape("\x1b[2Jtitle"), "\\u{1b}[2Jtitle");
        assert_eq!(escape("a\nb\tc\r"), "a\nb\tc\\u{d}");
        assert_eq!(escape_line("a\nb"), "a\\u{a}b");
        assert_eq!(escape("\u{9b}31m"), "\\u{9b}31m");
        assert!(matches!(escape("plain é"), Cow::Borrowed(_)));
        // JSON keeps its own escape syntax, and stays valid JSON.
        let j = serde_json::to_string_pretty(&serde_json::json!({"t": "a\u{9b}b\x1b"})).unwrap();
        let e = escape_json(&j);
        assert!(!e.chars().any(|c| c.is_control() && c != '\n'), "{e}");
        let back: serde_json::Value = serde_json::from_str(&e).unwrap();
        assert_eq!(back["t"], "a\u{9b}b\x1b");
        // Escaping twice changes nothing more.
        assert_eq!(escape(&escape("\x07")), "\\u{7}");
    }
}
