//! Tabs round the variants come back to where the round began. In the
//! measured loop a place is the iteration and the arrival at the pc since
//! it began, not the trap event (the V=1 variants take a first-use trap the
//! V=0 ones do not, so "the same trap event" is another syscall), and a
//! round of Tabs with nothing moved ends where it started even through code
//! only some variants run.

use crate::common;

use trapscope::tui::state::AppState;
use trapscope::tui::update::Action;

fn here(s: &AppState) -> (usize, u64, u64, [u64; 32]) {
    (
        s.live.variant,
        s.live.executed(),
        s.live.m.pc(),
        s.live.m.gprs(),
    )
}

fn round(s: &mut AppState) {
    let start = here(s);
    let n = s.scenario.variants.len();
    for _ in 0..n {
        s.update(Action::SwitchVariant);
    }
    assert_eq!(here(s), start, "after {n} Tabs: {:?}", s.message);
}

#[test]
fn six_tabs_round_vstate_initial_come_back() {
    for at in [1898, 2500, 4000] {
        let mut s = common::tui::app_at("scenarios/vstate-initial.toml", None);
        s.command("variant fix_v1");
        s.go_to(at);
        round(&mut s);
        // A second round from the same place, after a step.
        s.update(Action::Step);
        round(&mut s);
    }
}

#[test]
fn tab_in_the_loop_keeps_the_iteration_and_the_pc() {
    let mut s = common::tui::app_at("scenarios/vstate-initial.toml", None);
    s.command("variant fix_v1");
    s.go_to(4000);
    let (k, pc) = (s.live.stats().iteration_hits, s.live.m.pc());
    assert!(k > 0, "inside the measured loop");
    for _ in 0..5 {
        s.update(Action::SwitchVariant);
        assert_eq!(s.live.stats().iteration_hits, k, "{:?}", s.message);
        assert_eq!(s.live.m.pc(), pc, "{:?}", s.message);
        assert!(
            s.message
                .as_ref()
                .is_some_and(|m| m.0.contains("arrival 1 there in this iteration")),
            "{:?}",
            s.message
        );
    }
}
