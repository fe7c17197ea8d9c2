//! `/` search in the source, disassembly and events panes of the minikernel
//! (ras-trap-entry), driven through actions and drawn headless.

use std::path::Path;
use std::rc::Rc;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use trapscope::scenario::Scenario;
use trapscope::trace::EventKind;
use trapscope::tui::keymap::Keymap;
use trapscope::tui::render;
use trapscope::tui::state::{AppState, Mode, Pane};
use trapscope::tui::update::Action;

fn app() -> AppState {
    let s = Scenario::load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/ras-trap-entry.toml"),
    )
    .unwrap();
    AppState::new(Rc::new(s), None).unwrap()
}

fn draw(s: &AppState, pane: Pane, w: u16, h: u16) -> Vec<String> {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| render::draw_pane(f, Rect::new(0, 0, w, h), s, pane))
        .unwrap();
    let buf = t.backend().buffer().clone();
    (0..h)
        .map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect())
        .collect()
}

/// Types `/q` and Enter through the keymap and the prompt.
fn search(s: &mut AppState, q: &str) {
    let keys = Keymap::default();
    let key = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
    let a = trapscope::tui::key_action(&keys, &s.mode, key('/')).unwrap();
    s.update(a);
    assert_eq!(s.mode, Mode::Search(String::new()));
    for c in q.chars() {
        let a = trapscope::tui::key_action(&keys, &s.mode, key(c)).unwrap();
        s.update(a);
    }
    let enter = KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE);
    let a = trapscope::tui::key_action(&keys, &s.mode, enter).unwrap();
    s.update(a);
    assert_eq!(s.mode, Mode::Normal);
}

fn message(s: &AppState) -> (String, bool) {
    s.message.clone().expect("a status line")
}

/// The row marked as the match.
fn marked(rows: &[String]) -> &str {
    let hits: Vec<&String> = rows.iter().filter(|r| r.contains('»')).collect();
    assert_eq!(hits.len(), 1, "one marked row:\n{}", rows.join("\n"));
    hits[0]
}

#[test]
fn the_keys_are_slash_and_brackets_and_n_still_steps_over() {
    let keys = Keymap::default();
    let key = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
    assert_eq!(keys.action(key('/')), Some(Action::SearchStart));
    assert_eq!(keys.action(key(']')), Some(Action::SearchNext));
    assert_eq!(keys.action(key('[')), Some(Action::SearchPrev));
    assert_eq!(keys.action(key('n')), Some(Action::StepOver));
    let help = keys.to_string();
    assert!(help.contains("search"), "{help}");
}

#[test]
fn source_search_moves_to_the_line_and_marks_it() {
    let mut s = app();
    // At reset the view is fw.S; the label is in entry.S.
    search(&mut s, "RET_FROM_EXCEPTION:");
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("guest-asm/minikernel/entry.S"),
    )
    .unwrap();
    let line = 1 + text
        .lines()
        .position(|l| l.starts_with("ret_from_exception:"))
        .unwrap();
    let (m, err) = message(&s);
    assert!(!err, "{m}");
    assert!(m.contains(&format!("minikernel/entry.S:{line}")), "{m}");
    // Another file than the view's, not behind the view in its own: no wrap.
    assert!(!m.contains("wrapped"), "{m}");
    let rows = draw(&s, Pane::Source, 100, 30);
    assert!(rows[0].contains("minikernel/entry.S:"), "{}", rows[0]);
    let row = marked(&rows);
    assert!(
        row.contains(&format!("{line} ret_from_exception:")),
        "{row}"
    );

    // The only such line: the next match is the same one, found by
    // wrapping, and the status line says so.
    s.update(Action::SearchNext);
    let (m, _) = message(&s);
    assert!(m.contains(&format!("entry.S:{line}")), "{m}");
    assert!(m.contains("wrapped to the start"), "{m}");
    s.update(Action::SearchPrev);
    assert!(
        message(&s).0.contains("wrapped to the end"),
        "{:?}",
        s.message
    );

    // Moving the machine gives the view back to the pc.
    s.update(Action::Step);
    let rows = draw(&s, Pane::Source, 100, 30);
    assert!(rows[0].contains("fw.S:"), "{}", rows[0]);
    assert!(!rows.iter().any(|r| r.contains('»')));
}

#[test]
fn next_and_previous_visit_distinct_matching_lines_in_order() {
    let mut s = app();
    search(&mut s, "pt_status(sp)");
    let first = message(&s).0;
    s.update(Action::SearchNext);
    let second = message(&s).0;
    assert_ne!(first, second, "a second match");
    let rows = draw(&s, Pane::Source, 100, 30);
    assert!(marked(&rows).to_lowercase().contains("pt_status(sp)"));
    s.update(Action::SearchPrev);
    let place = |m: &str| m.split(" (").next().unwrap().trim().to_string();
    assert_eq!(place(&message(&s).0), place(&first));
}

#[test]
fn no_match_says_so_and_marks_nothing() {
    let mut s = app();
    search(&mut s, "no such text in any guest file");
    let (m, err) = message(&s);
    assert!(err && m.contains("no match"), "{m}");
    let rows = draw(&s, Pane::Source, 100, 30);
    assert!(!rows.iter().any(|r| r.contains('»')));
    // `]` with no search yet is refused with a hint.
    let mut s = app();
    s.update(Action::SearchNext);
    assert!(message(&s).0.contains("/ starts one"), "{:?}", s.message);
    // A pane search does not cover says which ones it does.
    s.update(Action::Focus(Pane::Registers));
    search(&mut s, "ra");
    let (m, err) = message(&s);
    assert!(err && m.contains("source, disassembly and events"), "{m}");
    // Esc leaves the prompt without searching.
    s.update(Action::SearchStart);
    s.update(Action::Input('x'));
    s.update(Action::Cancel);
    assert_eq!(s.mode, Mode::Normal);
    assert_eq!(s.search.query, "ra");
}

#[test]
fn events_search_finds_each_matching_event_in_order_and_wraps() {
    let mut s = app();
    s.command("break bench_timed_loop");
    s.update(Action::Continue);
    s.update(Action::Focus(Pane::Events));
    // The events the pane shows (all but retired blocks) whose text names
    // the old entry's handler, by the number the pane shows: the warm-up's
    // traps went there.
    let p = s.live.program().clone();
    let want: Vec<u64> = s
        .live
        .stats()
        .log
        .since(0)
        .filter(|(_, e)| e.event.kind() != EventKind::Retired)
        .filter(|(_, e)| {
            trapscope::report::event_text(&p, &e.event)
                .to_lowercase()
                .contains("handle_exception")
        })
        .map(|(_, e)| e.n)
        .collect();
    assert!(want.len() >= 3, "{want:?}");

    // The view follows the newest event, so the search starts at the oldest.
    search(&mut s, "Handle_Exception");
    assert!(
        message(&s).0.contains(&format!("event #{} ", want[0])),
        "{:?}",
        s.message
    );
    let rows = draw(&s, Pane::Events, 120, 12);
    let row = marked(&rows);
    assert!(row.contains(&format!("{:<5}", want[0])), "{row}");
    assert!(row.contains("handle_exception"), "{row}");
    s.update(Action::SearchNext);
    assert!(
        message(&s).0.contains(&format!("event #{} ", want[1])),
        "{:?}",
        s.message
    );
    s.update(Action::SearchPrev);
    assert!(
        message(&s).0.contains(&format!("event #{} ", want[0])),
        "{:?}",
        s.message
    );
    // Before the oldest match: around to the newest.
    s.update(Action::SearchPrev);
    let (m, _) = message(&s);
    assert!(
        m.contains(&format!("event #{} ", want[want.len() - 1])),
        "{m}"
    );
    assert!(m.contains("wrapped to the end"), "{m}");

    search(&mut s, "nothing like this");
    assert!(message(&s).1, "{:?}", s.message);
}

#[test]
fn disassembly_search_finds_instructions_and_marks_the_row() {
    let mut s = app();
    s.update(Action::ToggleDisasm);
    search(&mut s, "SRET");
    let (m, err) = message(&s);
    assert!(!err, "{m}");
    let rows = draw(&s, Pane::Source, 120, 30);
    let row = marked(&rows);
    assert!(row.contains("sret"), "{row}");
    // The place in the status line is the marked row's.
    let place = m.split(": ").nth(1).unwrap().split(' ').next().unwrap();
    let pc = s.live.program().locate(place).unwrap();
    assert!(row.contains(&format!("{pc:x} ")), "{row} at {place}");
    // The next one is further on, or the same after wrapping.
    s.update(Action::SearchNext);
    let (m2, _) = message(&s);
    let place2 = m2.split(": ").nth(1).unwrap().split(' ').next().unwrap();
    let pc2 = s.live.program().locate(place2).unwrap();
    assert!(pc2 > pc || m2.contains("wrapped"), "{m} then {m2}");
}
