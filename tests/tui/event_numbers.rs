//! The events pane's `#N` and `:goto N` name the same event however the
//! machine got to where it is: by single steps, by a run in blocks, or by
//! going back and re-executing from a checkpoint.

use crate::common;

use trapscope::tui::state::AppState;
use trapscope::tui::update::Action;

const SCENARIO: &str = "scenarios/ras-trap-entry.toml";
/// Past the first traps of the lesson's loop (it opens at 217).
const TARGET: u64 = 700;

fn msg(s: &AppState) -> String {
    s.message
        .as_ref()
        .map(|(m, _)| m.clone())
        .unwrap_or_default()
}

/// By single steps from power-on.
fn stepped() -> AppState {
    let mut s = common::tui::app_at(SCENARIO, None);
    s.update(Action::Reset);
    while s.live.executed() < TARGET {
        s.update(Action::Step);
    }
    s
}

/// By one run in blocks.
fn ran() -> AppState {
    let mut s = common::tui::app_at(SCENARIO, None);
    s.update(Action::Reset);
    s.command(&format!("run {TARGET}"));
    assert_eq!(s.live.executed(), TARGET);
    s
}

/// The events pane's rows, as the user reads them.
fn events_rows(s: &mut AppState) -> Vec<String> {
    s.update(Action::Focus(trapscope::tui::state::Pane::Events));
    let screen = common::tui::screen(s, 200, 60);
    screen
        .lines()
        .filter_map(|l| {
            let i = l.find('#')?;
            let row: String = l[i..].chars().take_while(|&c| c != '│').collect();
            row.split_whitespace()
                .next()
                .filter(|t| t.len() > 1 && t[1..].chars().all(|c| c.is_ascii_digit()))
                .map(|_| row.trim_end().to_string())
        })
        .collect()
}

#[test]
fn goto_lands_on_the_same_event_stepped_or_run() {
    let (mut a, mut b) = (stepped(), ran());
    assert_eq!(a.live.executed(), b.live.executed());
    let rows = events_rows(&mut b);
    assert!(rows.len() > 5, "events on screen: {rows:?}");
    assert_eq!(events_rows(&mut a), rows, "the same rows, the same numbers");
    for k in [1u64, 3, 6, 10] {
        a.command(&format!("goto {k}"));
        b.command(&format!("goto {k}"));
        assert_eq!(
            a.live.executed(),
            b.live.executed(),
            ":goto {k}: {} / {}",
            msg(&a),
            msg(&b)
        );
        assert_eq!(a.live.m.pc(), b.live.m.pc());
        assert!(
            msg(&a).starts_with(&format!("at event #{k} (")),
            "{}",
            msg(&a)
        );
        // Back to where they were, by different ways again.
        a.go_to(TARGET);
        b.command(&format!("run {}", TARGET - b.live.executed()));
    }
}

#[test]
fn goto_forward_runs_on_to_the_event() {
    // From where the run stands, an event it has not reached yet: the same
    // place as a machine that ran past it and went back by number.
    let mut s = ran();
    let ahead = s.live.stats().log.numbered() + 40;
    s.command(&format!("goto {ahead}"));
    assert!(
        msg(&s).starts_with(&format!("at event #{ahead} (")),
        "{}",
        msg(&s)
    );
    let mut far = ran();
    far.command(&format!("run {}", 20 * TARGET));
    far.command(&format!("goto {ahead}"));
    assert_eq!(s.live.executed(), far.live.executed());
    assert_eq!(s.live.m.pc(), far.live.m.pc());
}

#[test]
fn goto_past_the_runs_end_says_how_far_the_run_is() {
    let mut s = ran();
    let (here, pc) = (s.live.executed(), s.live.m.pc());
    s.command("goto 100000000");
    let m = msg(&s);
    assert!(m.contains("no event #100000000"), "{m}");
    assert!(m.contains("the run has reached #"), "{m}");
    // A number past the end moves nothing (it left the machine at the
    // run's end).
    assert_eq!((s.live.executed(), s.live.m.pc()), (here, pc), "{m}");
    assert!(
        m.ends_with(&format!("staying at {here} instructions")),
        "{m}"
    );
}

#[test]
fn t_says_which_trap_it_stopped_at() {
    let mut s = common::tui::app_at(SCENARIO, None);
    s.update(Action::RunToTrap);
    let m = msg(&s);
    assert!(m.starts_with("event #"), "t gives a feedback line: {m}");
    assert!(m.contains("instructions into the run"), "{m}");
}

/// Every place an event line names is `function+0xOFF`, the trap's handler
/// and a return's target too, where the offset is 0 (the trap line read
/// `-> handle_exception` beside lines naming `syscall+0xe`).
#[test]
fn every_place_an_event_line_names_has_its_offset() {
    let mut s = common::tui::app_at(SCENARIO, None);
    // The lesson's start is in the wrapper, before its ecall.
    s.go_to_start();
    s.update(Action::RunToTrap);
    let p = s.live.program().clone();
    let text = |e: &trapscope::trace::Event| trapscope::report::event_text(&p, e);
    let trap = s
        .live
        .stats()
        .log
        .iter()
        .rev()
        .find(|e| e.event.kind() == trapscope::trace::EventKind::TrapEnter)
        .map(|e| text(&e.event))
        .unwrap();
    // handle_exception is stvec on `before`: the handler's first
    // instruction, offset 0.
    assert!(trap.ends_with("-> handle_exception+0x0"), "{trap}");
    assert!(trap.contains("epc syscall+0xe"), "{trap}");
    // Every symbol the log names carries an offset.
    let names: Vec<&str> = p.symbols().iter().map(|s| s.name.as_str()).collect();
    for e in s.live.stats().log.iter() {
        let t = text(&e.event);
        for w in t.split([' ', ',', ':', '(', ')']) {
            assert!(!names.contains(&w), "'{w}' without an offset in: {t}");
        }
    }
}
