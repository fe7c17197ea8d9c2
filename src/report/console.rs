//! The guest's UART output, as reports show it: printable text, newlines
//! and tabs as they are, every other byte escaped (`\x1b`), so a guest
//! cannot drive the user's terminal.

/// The bytes as safe text.
pub fn escape_console(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len());
    for &b in bytes {
        match b {
            b'\n' | b'\t' | 0x20..=0x7e => s.push(b as char),
            b'\r' => {}
            _ => s.push_str(&format!("\\x{b:02x}")),
        }
    }
    s
}

/// The lines `run` prints for a variant's UART output (none when empty).
pub fn console_lines(text: &str) -> Vec<String> {
    if text.is_empty() {
        return Vec::new();
    }
    let mut out = vec!["  uart output".to_string()];
    out.extend(text.lines().map(|l| format!("    | {l}")));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_bytes_are_escaped_text_is_kept() {
        assert_eq!(escape_console(b"ok\n\x1b[2J\r\n"), "ok\n\\x1b[2J\n");
        assert_eq!(
            console_lines("a\nb\n"),
            ["  uart output", "    | a", "    | b"]
        );
        assert!(console_lines("").is_empty());
    }
}
