//! Status lines that say why a move ended where it did.

use crate::common;

#[test]
fn a_run_that_the_loop_end_cuts_short_names_the_iterations_knob() {
    let mut s = common::tui::app_at("scenarios/ras-trap-entry.toml", None);
    s.command("run 10000000");
    assert!(s.live.executed() < 10_000_000, "the loop ends first");
    let m = s.message.as_ref().map(|m| m.0.clone()).unwrap_or_default();
    assert!(
        m.contains("exited") || m.contains("the measured loop ended"),
        "{m}"
    );
    // The scenario's default, from its [knobs.iterations].
    let n = s
        .scenario
        .knob("iterations")
        .map(|k| k.default)
        .expect("an iterations knob");
    assert!(m.contains(&format!("after its {n} iterations")), "{m}");
    assert!(m.contains(":set iterations=N"), "{m}");
}
