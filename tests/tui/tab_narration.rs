//! After Tab the narration is about where the machine now is: the
//! narration of the function the new variant's pc is in, else a line that
//! names the variant and the place; never the text of a lesson step played
//! on the variant Tab left (ras-trap-entry's "the wrapper's own `ret` now
//! finds the RAS emptied by the kernel" is not true of `after`, whose RAS
//! is balanced). Tab straight back, to the place it left, brings that
//! place's text back.

use crate::common;

use trapscope::tui::state::AppState;
use trapscope::tui::update::Action;

/// The narration fits the live machine's place.
fn describes_here(s: &AppState, what: &str) {
    let p = s.live.program();
    let pc = s.live.m.pc();
    let text = s.narration.clone().unwrap_or_default();
    let func = p.symbol_at(pc).map(|(x, _)| x.name.clone());
    match func.as_deref().and_then(|f| s.scenario.narration_for(f)) {
        Some(t) => assert_eq!(text, t, "{what}: at {}", p.describe(pc)),
        None => {
            for want in [p.describe(pc).as_str(), s.variant_name()] {
                assert!(text.contains(want), "{what}: {want:?} not in {text:?}");
            }
        }
    }
}

#[test]
fn after_tab_the_narration_is_the_new_variants_place() {
    let mut s = common::tui::app_at("scenarios/ras-trap-entry.toml", None);
    s.go_to_start();
    let n = s.player.steps.len();
    let mut said_elsewhere = 0;
    for k in 0..n {
        let said = s.narration.clone();
        let (v, at) = (s.live.variant, s.live.executed());
        s.update(Action::SwitchVariant);
        assert_ne!(s.live.variant, v);
        describes_here(&s, &format!("step {k}, Tab"));
        if said != s.narration {
            said_elsewhere += 1;
        }
        s.update(Action::SwitchVariant);
        assert_eq!((s.live.variant, s.live.executed()), (v, at));
        assert_eq!(s.narration, said, "step {k}: Tab back");
        s.update(Action::Advance);
    }
    assert!(said_elsewhere > 0);
}

#[test]
fn tab_r_tab_narrates_each_place() {
    // The lesson opens in sys_sched_yield, which has no narration of its
    // own: the first step's text (about mainline) is what is on screen.
    let mut s = common::tui::app_at("scenarios/vector-context-switch.toml", None);
    s.go_to_start();
    let first = s.player.steps[0].say.clone();
    assert_eq!(s.narration.as_deref(), Some(first.as_str()));
    s.update(Action::SwitchVariant);
    describes_here(&s, "Tab");
    assert_ne!(s.narration.as_deref(), Some(first.as_str()));
    s.update(Action::Restart);
    describes_here(&s, "Tab, r");
    s.update(Action::SwitchVariant);
    describes_here(&s, "Tab, r, Tab");
}
