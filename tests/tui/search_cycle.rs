//! `/` in the source pane goes round every matching line: `]` visits each
//! line of every guest file the program's line table names exactly once
//! per cycle (lines this run executed first), says when it wraps back to
//! the first, and `[` goes the same way back.

use crate::common;
use std::collections::BTreeSet;
use std::path::Path;

use common::tui::app_at;

use trapscope::tui::state::{AppState, Pane};
use trapscope::tui::update::Action;

fn search(s: &mut AppState, q: &str) {
    s.update(Action::SearchStart);
    for c in q.chars() {
        s.update(Action::Input(c));
    }
    s.update(Action::Submit);
}

/// The status line: (the match's `file:line`, the whole message).
fn place(s: &AppState, q: &str) -> (String, String) {
    let (m, err) = s.message.clone().expect("a status line");
    assert!(!err, "{m}");
    let rest = m
        .strip_prefix(&format!("/{q}: "))
        .unwrap_or_else(|| panic!("{m}"));
    (rest.split(" (").next().unwrap().trim().to_string(), m)
}

#[test]
fn next_visits_every_sret_line_once_then_says_it_wrapped() {
    // The default scenario at its start, as `trapscope` opens it.
    let mut s = app_at("scenarios/ras-trap-entry.toml", None);
    s.go_to_start();
    s.update(Action::Focus(Pane::Source));

    // By hand: every line with "sret" (any case) in the guest sources the
    // ELF's line table names.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("guest-asm");
    let files: BTreeSet<String> = s.live.program().files.iter().cloned().collect();
    let mut want = BTreeSet::new();
    for f in &files {
        let Ok(text) = std::fs::read_to_string(root.join(f)) else {
            continue;
        };
        for (i, l) in text.lines().enumerate() {
            if l.to_ascii_lowercase().contains("sret") {
                want.insert(format!("{f}:{}", i + 1));
            }
        }
    }
    let n = want.len();
    assert!(n >= 10, "{want:?}");

    search(&mut s, "sret");
    let (first, m) = place(&s, "sret");
    assert!(!m.contains("wrapped"), "{m}");
    assert!(
        !m.contains("has not run"),
        "a line that ran comes first: {m}"
    );
    let mut seen = vec![first.clone()];
    let mut unrun = false;
    for k in 1..n {
        s.update(Action::SearchNext);
        let (p, m) = place(&s, "sret");
        assert!(!m.contains("wrapped"), "press {k} of {n}: {m}\n{seen:?}");
        assert!(!seen.contains(&p), "press {k} of {n}: {p} again\n{seen:?}");
        // Lines that ran, then those that did not: never back again.
        let not_run = m.contains("has not run");
        assert!(!unrun || not_run, "press {k}: {m} after a line not run");
        unrun |= not_run;
        seen.push(p);
    }
    let got: BTreeSet<String> = seen.iter().cloned().collect();
    assert_eq!(got, want, "the matches ] visited");

    // The n-th press: back at the first, and said so.
    s.update(Action::SearchNext);
    let (p, m) = place(&s, "sret");
    assert_eq!(p, first, "{m}");
    assert!(m.contains("wrapped to the start"), "{m}");

    // `[` goes back the same way, wrapping (to the end) on its first press.
    let mut back = Vec::new();
    for k in 0..n {
        s.update(Action::SearchPrev);
        let (p, m) = place(&s, "sret");
        assert_eq!(m.contains("wrapped to the end"), k == 0, "[ {k}: {m}");
        back.push(p);
    }
    back.reverse();
    assert_eq!(back, seen, "[ retraces ]");
}
