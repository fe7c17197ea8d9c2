//! `b` retraces single steps exactly, also across a trap delivered before
//! any instruction ran (a probe's breakpoint, an interrupt), where two
//! states share an instruction count: stepping forward then back visits
//! the same states in reverse.

use crate::common;

use trapscope::trace::{Event, EventKind};
use trapscope::tui::state::AppState;
use trapscope::tui::update::Action;

fn here(s: &AppState) -> (u64, u64, [u64; 32]) {
    (s.live.executed(), s.live.m.pc(), s.live.m.gprs())
}

/// Steps `n` times from where `s` is, then presses `b` `n` times: each `b`
/// must land on the state the matching step started from.
fn retrace(s: &mut AppState, n: usize) {
    let mut trail = vec![here(s)];
    for _ in 0..n {
        s.update(Action::Step);
        trail.push(here(s));
    }
    let shared = trail.windows(2).filter(|w| w[0].0 == w[1].0).count();
    assert!(
        shared > 0,
        "the steps cross a trap that counts no instruction"
    );
    for k in (0..n).rev() {
        s.update(Action::StepBack);
        assert_eq!(
            here(s),
            trail[k],
            "b number {} (from {:?}): {:?}",
            n - k,
            &trail[k + 1].0,
            s.message
        );
    }
}

#[test]
fn step_back_across_a_probe_trap() {
    // seed 004's probe inside the LR/SC loop: the probe's breakpoint trap
    // is delivered before the probed instruction runs.
    let mut s = common::tui::app_at("scenarios/probe-in-lrsc.toml", None);
    s.update(Action::Reset);
    s.command("break cmpxchg_probe_site");
    s.update(Action::Continue);
    assert!(
        s.message
            .as_ref()
            .is_some_and(|m| m.0.contains("stopped at"))
    );
    s.update(Action::StepBack);
    s.update(Action::StepBack);
    retrace(&mut s, 6);
}

#[test]
fn step_back_across_an_interrupt() {
    let mut s = common::tui::app_at("scenarios/irq-trap-entry.toml", None);
    s.update(Action::Reset);
    // The first interrupt: `t` until a trap entry whose cause has the MSB.
    let mut at = None;
    for _ in 0..200 {
        s.update(Action::RunToTrap);
        let last = s
            .live
            .stats()
            .log
            .iter()
            .rev()
            .find(|e| e.event.kind() == EventKind::TrapEnter)
            .cloned();
        if let Some(e) = last
            && let Event::TrapEnter { cause, .. } = e.event
            && cause >> 63 == 1
        {
            at = Some(e.at);
            break;
        }
    }
    let at = at.expect("an interrupt within 200 traps");
    s.go_to(at.saturating_sub(2));
    retrace(&mut s, 6);
}
