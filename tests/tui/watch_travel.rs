//! Going back and Tab ignore watchpoints: with a watch set and a position
//! reached by a watch stop, `b`, `B`, `r`, `:goto`, Tab and `:record` land
//! where they land on a machine that never had a watch, and the status line
//! describes where the machine is.

use crate::common;

use trapscope::tui::state::AppState;
use trapscope::tui::update::Action;

const SCENARIO: &str = "scenarios/ras-trap-entry.toml";
const WATCH: &str = "watch task_bench+0x8 8";

/// Where the machine is: variant, instructions, pc and registers.
fn here(s: &AppState) -> (usize, u64, u64, [u64; 32]) {
    (
        s.live.variant,
        s.live.executed(),
        s.live.m.pc(),
        s.live.m.gprs(),
    )
}

/// A `:` command typed as the user types it (so a recording sees it).
fn cmd(s: &mut AppState, line: &str) {
    s.update(Action::CommandStart);
    for c in line.chars() {
        s.update(Action::Input(c));
    }
    s.update(Action::Submit);
}

fn msg(s: &AppState) -> String {
    s.message
        .as_ref()
        .map(|(m, _)| m.clone())
        .unwrap_or_default()
}

/// A machine at the third watch stop of `task_bench+0x8`, and a twin
/// brought to the same instruction count with no watch ever set.
fn pair() -> (AppState, AppState) {
    let mut w = common::tui::app_at(SCENARIO, None);
    w.command(WATCH);
    for _ in 0..3 {
        w.update(Action::Continue);
        assert!(msg(&w).starts_with("watch 1:"), "a watch stop: {}", msg(&w));
    }
    let at = w.live.executed();
    let mut plain = common::tui::app_at(SCENARIO, None);
    plain.go_to(at);
    assert_eq!(
        here(&w),
        here(&plain),
        "the twin stands where the watch stopped"
    );
    (w, plain)
}

#[test]
fn step_back_ignores_watches() {
    let (mut w, mut plain) = pair();
    for _ in 0..5 {
        w.update(Action::StepBack);
        plain.update(Action::StepBack);
        assert_eq!(here(&w), here(&plain), "b: {}", msg(&w));
        assert!(!msg(&w).contains("watch"), "b names no watch: {}", msg(&w));
    }
}

#[test]
fn reverse_continue_ignores_watches() {
    let (mut w, mut plain) = pair();
    for s in [&mut w, &mut plain] {
        s.update(Action::ToggleBreakpoint); // here, so B has somewhere to go
        s.update(Action::Continue);
        s.update(Action::ReverseContinue);
    }
    assert_eq!(here(&w), here(&plain), "B: {}", msg(&w));
}

#[test]
fn restart_and_goto_ignore_watches() {
    // As a user would: back a step first, then r and :goto.
    let (mut w, mut plain) = pair();
    w.update(Action::StepBack);
    plain.update(Action::StepBack);
    w.update(Action::Restart);
    plain.update(Action::Restart);
    assert_eq!(here(&w), here(&plain), "r: {}", msg(&w));
    assert_eq!(msg(&w), msg(&plain), "r says the same");
    // Back to the watch stop's position, then to an event by number.
    let (mut w, mut plain) = pair();
    for s in [&mut w, &mut plain] {
        s.update(Action::StepBack);
        s.command("goto 3");
    }
    assert_eq!(here(&w), here(&plain), ":goto: {}", msg(&w));
    assert_eq!(msg(&w), msg(&plain), ":goto says the same");
}

#[test]
fn tab_ignores_watches_and_says_where_it_is() {
    let (mut w, mut plain) = pair();
    w.update(Action::StepBack);
    plain.update(Action::StepBack);
    w.update(Action::SwitchVariant);
    plain.update(Action::SwitchVariant);
    assert_eq!(here(&w), here(&plain), "Tab: {}", msg(&w));
    assert_eq!(msg(&w), msg(&plain), "Tab's line describes the same place");
    // Back again: the watch is still listed, and still stops a run.
    w.update(Action::SwitchVariant);
    plain.update(Action::SwitchVariant);
    assert_eq!(here(&w), here(&plain), "Tab back: {}", msg(&w));
    assert_eq!(w.debug.watches.len(), 1, "the watch is kept");
}

#[test]
fn a_recording_made_through_watch_stops_replays_the_same_steps() {
    let mut w = common::tui::app_at(SCENARIO, None);
    let mut plain = common::tui::app_at(SCENARIO, None);
    cmd(&mut w, WATCH);
    for s in [&mut w, &mut plain] {
        cmd(s, "record");
    }
    // The watched machine stops at watch hits; the plain one is driven to
    // the same counts by `:run`, so both record the same positions.
    for _ in 0..3 {
        let from = w.live.executed();
        w.update(Action::Continue);
        let n = w.live.executed() - from;
        cmd(&mut plain, &format!("run {n}"));
        assert_eq!(here(&w), here(&plain));
    }
    // A step back, and on again to the next watch stop: the recording
    // drops the step past the new position and names the next one.
    w.update(Action::StepBack);
    plain.update(Action::StepBack);
    assert_eq!(here(&w), here(&plain), "b while recording");
    let from = w.live.executed();
    w.update(Action::Continue);
    let n = w.live.executed() - from;
    cmd(&mut plain, &format!("run {n}"));
    assert_eq!(here(&w), here(&plain));
    let (a, b) = (
        w.recorder.as_ref().expect("recording").steps.clone(),
        plain.recorder.as_ref().expect("recording").steps.clone(),
    );
    // Three stops, the third cut back by `b` to a step of its own, and one more.
    assert_eq!(a.len(), 4);
    let steps = |r: &[trapscope::tui::record::Recorded]| -> Vec<String> {
        r.iter().map(|s| format!("{:?}", s.step)).collect()
    };
    assert_eq!(steps(&a), steps(&b), "the same steps named");
}
