//! Starting where the lesson is (docs/tui.md, "Where the TUI opens"): the start rule, `r` and `R`, a
//! lesson replayed after its end, recording a lesson, and the shipped
//! lessons.

use std::path::{Path, PathBuf};
use std::rc::Rc;

use trapscope::machine::Outcome;
use trapscope::scenario::Scenario;
use trapscope::session;
use trapscope::tui::record::shown_events;
use trapscope::tui::start::Rule;
use trapscope::tui::state::AppState;
use trapscope::tui::update::Action;

/// Recording and saving a lesson.
mod recording;
/// Lessons replayed after their end, and the shipped ones.
mod replay;
/// Where the TUI opens.
mod start;
/// Stops at intercepted and probed instructions.
mod stops;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A shipped scenario's text without its `[[script]]` sections.
fn without_script(text: &str) -> String {
    let mut out = String::new();
    let mut skipping = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with('[') {
            skipping = t.starts_with("[[script]]");
        }
        if !skipping {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// Writes `text` (a scenario of scenarios/, its relative paths made
/// absolute) as a scenario of its own and loads it.
fn scenario_text(name: &str, text: &str) -> (PathBuf, Result<Scenario, String>) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tui_lesson");
    std::fs::create_dir_all(&dir).unwrap();
    let guest = root().join("assets/guest");
    let text = text.replace("\"../assets/guest/", &format!("\"{}/", guest.display()));
    let p = dir.join(format!("{name}-{}.toml", std::process::id()));
    std::fs::write(&p, text).unwrap();
    let s = Scenario::load(&p).map_err(|e| e.to_string());
    (p, s)
}

fn shipped(name: &str) -> String {
    std::fs::read_to_string(root().join("scenarios").join(name)).unwrap()
}

fn app(s: Scenario) -> AppState {
    AppState::new(Rc::new(s), None).unwrap()
}

/// The start is what stepping from power-on reaches: a fresh machine
/// stepped one instruction at a time to the same count has the same pc,
/// registers and events.
fn assert_stepping_agrees(s: &AppState) {
    let sc = &s.scenario;
    let v = &sc.variants[s.live.variant];
    let mut m = session::build_machine(sc, v, &s.opts()).unwrap();
    while m.executed() < s.live.executed() {
        assert_eq!(m.step(), Outcome::Stepped);
    }
    assert_eq!(m.executed(), s.live.executed());
    assert_eq!(m.pc(), s.live.m.pc());
    assert_eq!(m.gprs(), s.live.m.gprs());
    assert_eq!(
        shown_events(&m.observer().log),
        shown_events(&s.live.stats().log)
    );
}
