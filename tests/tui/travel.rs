//! Time travel in the TUI (docs/guides/time-travel.md): Tab straight back returns to exactly
//! where the variant was, even where mapping by iteration and trap event is
//! not symmetric (past the end of the measured loop), and even after idle
//! time ran the parked variant on; `b` at instruction 0 says why nothing
//! happens.

use crate::common;

use std::time::Duration;

use trapscope::tui::update::Action;

fn here(s: &trapscope::tui::state::AppState) -> (usize, u64, u64, [u64; 32]) {
    (
        s.live.variant,
        s.live.executed(),
        s.live.m.pc(),
        s.live.m.gprs(),
    )
}

#[test]
fn tab_twice_comes_back_exactly_past_the_loop_end() {
    let mut s = common::tui::app_at("scenarios/zalrsc-atomics.toml", None);
    // To the end of the run: the measured loop is over.
    s.update(Action::Continue);
    assert!(s.live.m.loop_ended() || s.live.executed() > 0);
    let start = here(&s);
    for round in 0..3 {
        s.update(Action::SwitchVariant);
        assert_ne!(s.live.variant, start.0, "round {round}");
        // Idle time may run the parked variant on meanwhile.
        for _ in 0..50 {
            if !s.idle_pending() {
                break;
            }
            s.idle_step(Duration::from_millis(20));
        }
        s.update(Action::SwitchVariant);
        assert_eq!(here(&s), start, "round {round}: {:?}", s.message);
    }
    // Moving on the other variant ends the round trip: Tab maps again.
    s.update(Action::SwitchVariant);
    s.update(Action::StepBack);
    let other = s.live.executed();
    s.update(Action::SwitchVariant);
    assert_eq!(s.live.variant, start.0);
    assert!(
        s.message
            .as_ref()
            .is_some_and(|(m, _)| m.contains("iteration")),
        "a mapped Tab says the iteration: {:?} (other variant at {other})",
        s.message
    );
}

#[test]
fn step_back_at_instruction_zero_says_there_is_nothing_before() {
    let mut s = common::tui::app_at("scenarios/ras-trap-entry.toml", None);
    s.update(Action::Reset);
    assert_eq!(s.live.executed(), 0);
    s.update(Action::StepBack);
    assert_eq!(s.live.executed(), 0);
    assert!(
        s.message
            .as_ref()
            .is_some_and(|(m, _)| m.contains("nothing before it")),
        "{:?}",
        s.message
    );
}
