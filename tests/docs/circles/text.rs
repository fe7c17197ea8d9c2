//! What of a source file the graph reads: its code without comments, with
//! every string and character literal emptied (so prose and messages that
//! name paths are no imports), without `#[cfg(test)]` modules, and with
//! `pub(in PATH)` read as `pub(crate)` (a visibility names no item).

pub fn ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The text with comments removed, every string literal `""` and every
/// character literal `' '`; lifetimes and line breaks stay.
pub fn code(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let at = |k: usize| c.get(k).copied().unwrap_or('\0');
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < c.len() {
        let after_ident = i > 0 && ident(c[i - 1]);
        // r"..", r#".."#, br"..": count the hashes after the `r`.
        let r = if at(i) == 'r' { i } else { i + 1 };
        let hashes = (r + 1..).take_while(|&k| at(k) == '#').count();
        let raw = !after_ident
            && (at(i) == 'r' || (matches!(at(i), 'b' | 'c') && at(i + 1) == 'r'))
            && at(r + 1 + hashes) == '"';
        if at(i) == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if at(i) == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < c.len() {
                if at(i) == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if at(i) == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if c[i] == '\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            }
            out.push(' ');
        } else if raw {
            i = r + 2 + hashes;
            while i < c.len() && !(c[i] == '"' && (1..=hashes).all(|k| at(i + k) == '#')) {
                i += 1;
            }
            i += 1 + hashes;
            out.push_str("\"\"");
        } else if at(i) == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if at(i) == '\'' && at(i + 1) == '\\' {
            i += 3;
            while i < c.len() && c[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else if at(i) == '\'' && at(i + 2) == '\'' {
            i += 3;
            out.push_str("' '");
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// `code` without its `#[cfg(test)] mod` items, and the names of those
/// declared `mod NAME;` (their files are test code too).
pub fn without_tests(code: &str) -> (String, Vec<String>) {
    const ATTR: &str = "#[cfg(test)]";
    let mut out = String::new();
    let mut outside = Vec::new();
    let mut rest = code;
    while let Some(at) = rest
        .match_indices(ATTR)
        .map(|(k, _)| k)
        .find(|&k| k == 0 || rest[..k].ends_with('\n'))
    {
        let after = rest[at + ATTR.len()..].trim_start();
        let Some(m) = after.strip_prefix("mod ") else {
            out.push_str(&rest[..at + ATTR.len()]);
            rest = &rest[at + ATTR.len()..];
            continue;
        };
        out.push_str(&rest[..at]);
        let m = m.trim_start();
        let name: String = m.chars().take_while(|&c| ident(c)).collect();
        let tail = m[name.len()..].trim_start();
        if let Some(t) = tail.strip_prefix(';') {
            outside.push(name);
            rest = t;
        } else {
            let mut depth = 0;
            let end = tail.char_indices().find(|&(_, c)| {
                depth += (c == '{') as i32 - (c == '}') as i32;
                c == '}' && depth == 0
            });
            rest = end.map_or("", |(k, _)| &tail[k + 1..]);
        }
    }
    out.push_str(rest);
    (out, outside)
}

/// `code` with every `pub(in PATH)` made `pub(crate)`: a visibility's path
/// names a module to limit who sees an item, and imports nothing.
pub fn unrestricted(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(k) = rest.find("pub(in ") {
        out.push_str(&rest[..k]);
        out.push_str("pub(crate)");
        rest = rest[k..].split_once(')').map_or("", |(_, r)| r);
    }
    out.push_str(rest);
    out
}
