//! The documentation's pages, for the tests that check them: README.md (the
//! front page) and every `.md` file under docs/ (the mdBook), and the
//! Markdown they are read by: fenced blocks, headings and their anchors,
//! links.

use std::path::{Path, PathBuf};

pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.md` file under `dir`, recursively, sorted.
pub fn markdown_under(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}

/// README.md, then every page under docs/, as paths relative to the root
/// (`docs/guides/patch-review.md`).
pub fn pages() -> Vec<String> {
    let mut out = vec!["README.md".to_string()];
    for p in markdown_under(&root().join("docs")) {
        out.push(rel(&p));
    }
    assert!(out.len() > 20, "only {} pages: {out:?}", out.len());
    out
}

/// A path relative to the repository root, with `/` between components.
pub fn rel(p: &Path) -> String {
    p.strip_prefix(root())
        .unwrap()
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

pub fn read(page: &str) -> String {
    std::fs::read_to_string(root().join(page)).unwrap_or_else(|e| panic!("{page}: {e}"))
}

/// Whether a line opens or closes a fenced code block (``` or ~~~, indented
/// inside a list item or not).
pub fn is_fence(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("```") || t.starts_with("~~~")
}

/// The text with every fenced block's lines (fences included) blanked, so
/// that line numbers stay and nothing inside a block reads as Markdown.
pub fn without_fences(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if is_fence(line) {
            fenced = !fenced;
            out.push('\n');
            continue;
        }
        if !fenced {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// The text with every inline code span (`` `...` ``, which may run over a
/// line break) blanked to spaces, so that a bracket inside one is no link.
pub fn without_code_spans(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_code = false;
    for c in text.chars() {
        if c == '`' {
            in_code = !in_code;
            out.push(' ');
        } else if in_code && c != '\n' {
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

/// A heading's anchor as GitHub and mdBook make it: lower case, spaces to
/// `-`, every other character that is not alphanumeric, `-` or `_` dropped.
/// A link inside the heading counts by its text.
pub fn slug(heading: &str) -> String {
    let text = link_texts(heading);
    let mut out = String::new();
    for c in text.trim().chars() {
        if c.is_alphanumeric() || c == '-' || c == '_' {
            out.extend(c.to_lowercase());
        } else if c == ' ' {
            out.push('-');
        }
    }
    out
}

/// `[text](url)` replaced by `text`.
fn link_texts(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find("](").map(|i| open + i) else {
            break;
        };
        let Some(end) = rest[close..].find(')').map(|i| close + i) else {
            break;
        };
        out.push_str(&rest[..open]);
        out.push_str(&rest[open + 1..close]);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

/// The ATX headings of a Markdown text outside fenced blocks, as (level,
/// text).
pub fn headings(text: &str) -> Vec<(usize, String)> {
    without_fences(text)
        .lines()
        .filter_map(|l| {
            let level = l.chars().take_while(|&c| c == '#').count();
            if !(1..=6).contains(&level) || !l[level..].starts_with(' ') {
                return None;
            }
            let t = l[level..].trim().trim_end_matches('#').trim_end();
            Some((level, t.to_string()))
        })
        .collect()
}

/// The anchors a page's headings give, a repeated one suffixed `-1`, `-2`,
/// ... as GitHub and mdBook do.
pub fn anchors(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (_, h) in headings(text) {
        let s = slug(&h);
        let mut a = s.clone();
        let mut n = 0;
        while out.contains(&a) {
            n += 1;
            a = format!("{s}-{n}");
        }
        out.push(a);
    }
    out
}

/// The link targets of a Markdown text (inline `[text](url)` and `![alt](url)`,
/// and reference definitions `[name]: url`), outside fenced blocks and code
/// spans, each with the line it is on (from 1).
pub fn links(text: &str) -> Vec<(usize, String)> {
    let t = without_code_spans(&without_fences(text));
    let mut out = Vec::new();
    let bytes = t.as_bytes();
    let mut i = 0;
    while let Some(at) = t[i..].find("](").map(|k| i + k) {
        let start = at + 2;
        let mut end = start;
        let mut depth = 0;
        while end < bytes.len() {
            match bytes[end] {
                b'(' => depth += 1,
                b')' if depth == 0 => break,
                b')' => depth -= 1,
                b'\n' => break,
                _ => {}
            }
            end += 1;
        }
        let target = t[start..end].split_whitespace().next().unwrap_or("");
        let target = target.trim_start_matches('<').trim_end_matches('>');
        let line = t[..at].matches('\n').count() + 1;
        out.push((line, target.to_string()));
        i = end.max(start);
    }
    for (n, l) in t.lines().enumerate() {
        let l = l.trim_start();
        if let Some(k) = l
            .find("]: ")
            .filter(|&k| l.starts_with('[') && !l[1..k].contains(']'))
        {
            out.push((n + 1, l[k + 3..].trim().to_string()));
        }
    }
    out
}

/// Whether a link target names something outside the repository (a URL
/// with a scheme).
pub fn is_external(target: &str) -> bool {
    match target.find(':') {
        Some(k) => {
            let scheme = &target[..k];
            !scheme.is_empty()
                && !scheme.contains(['/', '#', '.'])
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-".contains(c))
        }
        None => false,
    }
}

/// The first place at or after `from` where `marker` starts a line (a
/// marker quoted inside a sentence is not one).
pub fn find_marker(text: &str, from: usize, marker: &str) -> Option<usize> {
    let mut at = from;
    while let Some(i) = text[at..].find(marker).map(|i| at + i) {
        if i == 0 || text.as_bytes()[i - 1] == b'\n' {
            return Some(i);
        }
        at = i + marker.len();
    }
    None
}
