//! `/` in the source pane: code this run executed comes first (a comment
//! in a file the scenario never runs only after every line that ran),
//! the match is on screen even past the pane's right edge, and the title
//! keeps the match's line apart from the pc's symbol.

use crate::common;
use common::tui::{app_at, screen};

use trapscope::tui::state::{AppState, Pane};
use trapscope::tui::update::Action;

fn search(s: &mut AppState, q: &str) {
    s.update(Action::SearchStart);
    for c in q.chars() {
        s.update(Action::Input(c));
    }
    s.update(Action::Submit);
}

fn source_rows(text: &str) -> Vec<&str> {
    // The source pane is the top-left box: rows up to its bottom border.
    text.lines().take_while(|l| !l.starts_with('└')).collect()
}

#[test]
fn the_search_lands_on_code_that_ran_not_a_comment_in_an_unrun_file() {
    // ras-trap-entry at its start (217 instructions in): `sret` occurs in
    // vector.S's comments (no vector code runs here) before kernel.S's
    // `sret` at boot, which has run.
    let mut s = app_at("scenarios/ras-trap-entry.toml", None);
    s.go_to_start();
    s.update(Action::Focus(Pane::Source));
    search(&mut s, "sret");
    let text = screen(&mut s, 100, 30);
    let rows = source_rows(&text);
    let hit = rows.iter().find(|r| r.contains('»')).expect("a marked row");
    assert!(!hit.contains('#'), "a comment: {hit}\n{text}");
    assert!(hit.contains("sret"), "{hit}");
    // The match's line came from code the run executed.
    let msg = s.message.clone().unwrap().0;
    assert!(!msg.contains("has not run"), "{msg}");
    // The title: the match's file and line, then the pc, said as the pc.
    assert!(rows[0].contains("/ match · pc at syscall"), "{}", rows[0]);
}

#[test]
fn a_match_past_the_right_edge_is_shown() {
    // minikernel-entry.inc:120, `jr t0 # rs1 = x5 (a link register): RAS
    // pop`, runs on every trap: at 100×30 the source column shows 37
    // characters of text, and "RAS pop" starts past column 40.
    let mut s = app_at("scenarios/ras-trap-entry.toml", None);
    s.go_to_start();
    s.update(Action::Focus(Pane::Source));
    search(&mut s, "RAS pop");
    let text = screen(&mut s, 100, 30);
    let rows = source_rows(&text);
    let hit = rows.iter().find(|r| r.contains('»')).expect("a marked row");
    assert!(hit.contains("RAS pop"), "{hit}\n{text}");
}
