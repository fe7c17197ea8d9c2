//! `:core` keeps the place, not the instruction count: the core's clock
//! sets the guest's time, so another core moves the timer interrupts (and
//! a core that emulates AMOs runs other code), and the same count is
//! elsewhere. The pc and the iteration stay.

use crate::common;

use trapscope::tui::state::AppState;
use trapscope::tui::update::Action;

fn place(s: &AppState) -> (u64, u64) {
    (s.live.m.pc(), s.live.stats().iteration_hits)
}

fn msg(s: &AppState) -> String {
    s.message
        .as_ref()
        .map(|(m, _)| m.clone())
        .unwrap_or_default()
}

#[test]
fn core_keeps_the_pc_before_the_loop() {
    let mut s = common::tui::app_at("scenarios/zalrsc-atomics.toml", None);
    s.command("break atomics_main+0xba");
    s.update(Action::Continue);
    let want = s.live.program().locate("atomics_main+0xba").unwrap();
    assert_eq!(s.live.m.pc(), want, "{}", msg(&s));
    let before = place(&s);
    for core in ["u74", "p8700", "x60"] {
        s.command(&format!("core {core}"));
        assert_eq!(place(&s), before, ":core {core}: {}", msg(&s));
        assert!(msg(&s).contains("the same place"), "{}", msg(&s));
    }
}

#[test]
fn core_keeps_the_pc_and_iteration_inside_the_loop() {
    let mut s = common::tui::app_at("scenarios/zalrsc-atomics.toml", None);
    s.update(Action::Reset);
    // Into the measured loop, on a core that traps AMOs (p8700): the u74
    // runs them natively, so its counts differ by the emulation's path.
    s.command("core p8700");
    s.command("run 120000");
    let before = place(&s);
    assert!(before.1 > 1, "inside the loop: {before:?}");
    s.command("core u74");
    let on_u74 = place(&s);
    assert_eq!(on_u74.1, before.1, "the same iteration: {}", msg(&s));
    // Either the same pc, or (emulation code the u74 never runs) the
    // iteration's start, said so.
    assert!(
        on_u74.0 == before.0 || msg(&s).contains("start of the same iteration"),
        "{}",
        msg(&s)
    );
    s.command("core p8700");
    assert_eq!(place(&s).1, before.1, "{}", msg(&s));
}

#[test]
fn core_without_v_is_refused_on_a_vector_scenario() {
    // vstate-initial's guest runs vector code; the U74 has no V unit, so
    // the guest would end at its first vector instruction.
    let mut s = common::tui::app_at("scenarios/vstate-initial.toml", None);
    s.command("run 1715");
    let before = (s.live.executed(), s.live.m.pc());
    s.command("core u74");
    let (m, err) = s.message.clone().unwrap_or_default();
    assert!(err, "an error line: {m}");
    assert!(m.contains("no V 1.0 unit"), "{m}");
    assert_eq!((s.live.executed(), s.live.m.pc()), before, "nothing moved");
}
