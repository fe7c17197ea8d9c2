//! A clone of the repository can read everything its comments and prose
//! cite. The design decisions and conventions the code relies on are in
//! docs/decisions.md, cited as `docs/decisions.md D4` or `... C7`; nothing
//! cites the design brief or the conventions list outside the repository,
//! and nothing cites a tracker number, which a reader cannot look up.
//!
//! The patterns are spelt in pieces below so that this file does not match
//! itself: it is scanned like every other.

use std::path::{Path, PathBuf};

/// Directories and files scanned (relative to the repository root).
const DIRS: &[&str] = &[
    "src",
    "guest-asm",
    "tests",
    "scenarios",
    "docs",
    "tools",
    ".ci",
    ".cargo",
];
const FILES: &[&str] = &[
    "README.md",
    "ARCHITECTURE.md",
    "REFERENCE.md",
    "Cargo.toml",
    "build.rs",
];

/// Words before "issue N" that make it something else: a public tracker
/// named in full, or the cost breakdown's "issue" category in a screen.
const ISSUE_ALLOWED_AFTER: &[&str] = &["riscv-v-spec", "by cause"];

const DECISIONS: &str = "docs/decisions.md";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        for e in rd.flatten() {
            let p = e.path();
            let ft = e.file_type().unwrap();
            if ft.is_dir() {
                walk(&p, out);
            } else if ft.is_file() {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    for d in DIRS {
        walk(&root().join(d), &mut out);
    }
    for f in FILES {
        let p = root().join(f);
        if p.is_file() {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// The text files among `files()` (binary ones, such as ELFs, are skipped),
/// as (path relative to the root, contents).
fn texts() -> Vec<(String, String)> {
    files()
        .into_iter()
        .filter_map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            let text = String::from_utf8(bytes).ok()?;
            if text.contains('\0') {
                return None;
            }
            let rel = p.strip_prefix(root()).unwrap().display().to_string();
            Some((rel, text))
        })
        .collect()
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Byte offsets where `word` occurs in `line` as a whole word (ASCII case
/// folded when `fold`).
fn word_at(line: &str, word: &str, fold: bool) -> Vec<usize> {
    let hay = if fold {
        line.to_ascii_lowercase()
    } else {
        line.to_string()
    };
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = hay[from..].find(word) {
        let at = from + i;
        let end = at + word.len();
        let before = hay[..at].chars().next_back();
        let after = hay[end..].chars().next();
        if !before.is_some_and(is_word_char) && !after.is_some_and(|c| is_word_char(c) && c != 's')
        {
            out.push(at);
        }
        from = end;
    }
    out
}

/// Whether the text right after a word (an optional plural `s`, spaces, an
/// optional `#`) starts with a digit, as in a tracker citation.
fn numbered(rest: &str) -> bool {
    let rest = rest.strip_prefix('s').unwrap_or(rest);
    let trimmed = rest.trim_start();
    if trimmed.len() == rest.len() && !rest.starts_with('#') {
        return false;
    }
    let trimmed = trimmed.strip_prefix('#').unwrap_or(trimmed);
    trimmed.starts_with(|c: char| c.is_ascii_digit())
}

/// What is wrong with one line, if anything.
fn outside_citation(line: &str) -> Option<String> {
    let design = ["DES", "IGN"].concat();
    let conventions = ["CONVEN", "TIONS"].concat();
    for w in [&design, &conventions] {
        if !word_at(line, w, false).is_empty() {
            return Some(format!("cites {w}"));
        }
    }
    for w in ["decision", "issue", "defect"] {
        for at in word_at(line, w, true) {
            if !numbered(&line[at + w.len()..]) {
                continue;
            }
            let before = line[..at].trim_end().to_ascii_lowercase();
            if w == "issue" && ISSUE_ALLOWED_AFTER.iter().any(|a| before.ends_with(a)) {
                continue;
            }
            if w == "decision" && before.ends_with(DECISIONS) {
                continue;
            }
            return Some(format!("cites a {w} by number"));
        }
    }
    None
}

#[test]
fn nothing_cites_what_a_clone_cannot_read() {
    let mut bad = Vec::new();
    let mut scanned = 0;
    for (rel, text) in texts() {
        scanned += 1;
        for (n, line) in text.lines().enumerate() {
            if let Some(why) = outside_citation(line) {
                bad.push(format!("{rel}:{}: {why}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(scanned > 100, "only {scanned} files scanned");
    assert!(
        bad.is_empty(),
        "{} outside citations:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// The ids of docs/decisions.md's headings: "## D4. Instruction
/// interception" gives D4.
fn heading_ids() -> Vec<String> {
    let text = std::fs::read_to_string(root().join(DECISIONS)).unwrap();
    text.lines()
        .filter_map(|l| l.strip_prefix("## "))
        .filter_map(|h| h.split_once('.').map(|(id, _)| id.to_string()))
        .filter(|id| ref_id(id))
        .collect()
}

/// "D4", "C12": a letter D or C and a number.
fn ref_id(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some('D' | 'C')) && {
        let n = c.as_str();
        !n.is_empty() && n.chars().all(|c| c.is_ascii_digit())
    }
}

/// The ids cited right after `docs/decisions.md` on a line: "D6, D7",
/// "C2, C3", "D2 and D4". None when the line ends right after the name
/// (a citation split across lines cannot be checked).
fn cited_ids(rest: &str) -> Option<Vec<String>> {
    if rest.trim().is_empty() {
        return None;
    }
    let mut ids = Vec::new();
    for w in rest.split([' ', ',']).filter(|w| !w.is_empty()) {
        let w = w.trim_end_matches(['.', ')', ';', ':', '`']);
        if ref_id(w) {
            ids.push(w.to_string());
            continue;
        }
        if w == "and" && !ids.is_empty() {
            continue;
        }
        break;
    }
    Some(ids)
}

#[test]
fn every_decisions_citation_names_a_heading_that_exists() {
    let ids = heading_ids();
    assert!(
        ids.iter().filter(|i| i.starts_with('D')).count() >= 10,
        "{ids:?}"
    );
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), ids.len(), "a heading id twice: {ids:?}");
    let mut bad = Vec::new();
    let mut cited = 0;
    for (rel, text) in texts() {
        for (n, line) in text.lines().enumerate() {
            let mut from = 0;
            while let Some(i) = line[from..].find(DECISIONS) {
                let end = from + i + DECISIONS.len();
                from = end;
                let rest = &line[end..];
                // A link or a mention of the file as a whole: `[...](docs/decisions.md)`.
                if rest.starts_with([']', ')', '`', '"']) {
                    continue;
                }
                match cited_ids(rest) {
                    None => bad.push(format!(
                        "{rel}:{}: the citation's ids are not on its line",
                        n + 1
                    )),
                    Some(v) => {
                        for id in v {
                            cited += 1;
                            if !ids.contains(&id) {
                                bad.push(format!(
                                    "{rel}:{}: {id} is no heading of {DECISIONS}",
                                    n + 1
                                ));
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(cited > 20, "only {cited} citations of {DECISIONS} found");
}

#[test]
fn the_matcher_flags_citations_and_passes_other_uses() {
    let design = ["DES", "IGN"].concat();
    // The words in braces, so that these lines do not match themselves.
    let (issue, defect, decision) = ("issue", "defect", "decision");
    let flagged = [
        format!("(see {design}.md {decision} 4)"),
        format!("// {}.md 7", ["CONVEN", "TIONS"].concat()),
        format!("//! Checkpoints ({issue} 14): restoring"),
        format!("/// I{} 9 §6's spec corners", &issue[1..]),
        format!("({issue}s 12 and 13)"),
        format!("see {issue} #3"),
        format!("/// D{} 12: q acts first", &defect[1..]),
        format!("the second {decision} 3 says"),
    ];
    for l in &flagged {
        assert!(outside_citation(l).is_some(), "not flagged: {l}");
    }
    let spec_issue = format!("in riscv-v-spec {issue} 642: implementations should rename");
    let pane_row = format!("│by cause  {issue} 116  rules 64  data 71   │");
    let passed = [
        "docs/decisions.md D4: hook exactly these",
        spec_issue.as_str(),
        pane_row.as_str(),
        "the issue width is 2",
        "an issue: 3 of them",
        "makes the same decision once, at boot",
        "Issue, IssueDto, \"issue\" {",
        "seed 002's hand counts",
    ];
    for l in passed {
        assert_eq!(outside_citation(l), None, "flagged: {l}");
    }
    assert_eq!(
        cited_ids(" D6 and D7)."),
        Some(vec!["D6".into(), "D7".into()])
    );
    assert_eq!(cited_ids(" C2, C3)"), Some(vec!["C2".into(), "C3".into()]));
    assert_eq!(cited_ids(""), None);
}
