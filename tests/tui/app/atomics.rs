//! The atomics scenarios (split from app.rs): they open on the reservation
//! pane with the AMO policy, a breakpoint inside an LR/SC sequence warns and
//! a probe there is rejected, and placing the probe anyway shows the
//! livelock.

use super::*;

fn app_of(scenario: &str) -> AppState {
    common::tui::app_at(scenario, None)
}

#[test]
fn atomics_scenarios_open_on_the_reservation_pane_with_the_amo_policy() {
    let mut s = app_of("scenarios/zalrsc-atomics.toml");
    let text = screen(&mut s, 160, 45);
    assert!(text.contains("LR/SC reservation"), "{text}");
    // The scenario's first core is the P8700, whose profile traps AMOs.
    assert!(text.contains("trapped to M-mode firmware"), "{text}");
}

#[test]
fn a_breakpoint_inside_an_lr_sc_sequence_warns_and_a_probe_is_rejected() {
    let mut s = app_of("scenarios/zalrsc-atomics.toml");
    s.command("break cmpxchg_probe_site");
    assert!(
        matches!(&s.message, Some((m, true)) if m.contains("inside the LR/SC sequence") && m.contains(":probe!")),
        "{:?}",
        s.message
    );
    s.command("probe cmpxchg_probe_site");
    assert!(
        matches!(&s.message, Some((m, true)) if m.starts_with("probe rejected")),
        "{:?}",
        s.message
    );
    assert!(s.probes.is_empty());
    // Outside any sequence, a probe is fine.
    s.command("probe sys_atomics_wake");
    assert!(matches!(&s.message, Some((_, false))), "{:?}", s.message);
    assert_eq!(s.probes.len(), 1);
}

#[test]
fn placing_the_probe_anyway_shows_the_livelock() {
    let mut s = app_of("scenarios/probe-in-lrsc.toml");
    s.update(Action::Continue);
    assert!(
        matches!(&s.message, Some((m, true)) if m.contains("livelock")),
        "{:?}",
        s.message
    );
    let text = screen(&mut s, 160, 45);
    assert!(
        text.contains("cmpxchg_probe_site (rejected") && text.contains("placed anyway"),
        "{text}"
    );
    assert!(text.contains("last sc  arch_cmpxchg+0x8 fails"), "{text}");
}
