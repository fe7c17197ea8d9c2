//! `r` goes to the start on the variant on screen: after a Tab to `after`
//! it stays on `after` (the lesson, which plays on `before`, says so),
//! and on the lesson's own variant it rewinds the lesson as before.

use crate::common;

use trapscope::tui::update::Action;

fn msg(s: &trapscope::tui::state::AppState) -> String {
    s.message
        .as_ref()
        .map(|(m, _)| m.clone())
        .unwrap_or_default()
}

#[test]
fn r_after_tab_stays_on_the_variant() {
    let mut s = common::tui::app_at("scenarios/ras-trap-entry.toml", None);
    s.update(Action::Restart);
    let lesson_variant = s.live.variant;
    let start = (s.live.executed(), s.live.m.pc());
    assert!(msg(&s).contains("lesson's start"), "{}", msg(&s));
    s.update(Action::Advance);
    s.update(Action::SwitchVariant);
    let other = s.live.variant;
    assert_ne!(other, lesson_variant);
    s.update(Action::Step);
    s.update(Action::Restart);
    assert_eq!(s.live.variant, other, "r stays on the variant: {}", msg(&s));
    assert!(msg(&s).contains("the lesson plays on"), "{}", msg(&s));
    // Space there does not play the lesson on this variant: it goes to
    // the lesson's own start.
    let mut u = common::tui::app_at("scenarios/ras-trap-entry.toml", None);
    u.update(Action::Restart);
    u.update(Action::SwitchVariant);
    u.update(Action::Restart);
    u.update(Action::Advance);
    assert_eq!(u.live.variant, lesson_variant, "{}", msg(&u));
    assert_eq!((u.live.executed(), u.live.m.pc()), start);
    assert!(msg(&u).contains("the lesson plays on"), "{}", msg(&u));
    // The same place as Tab from the start gives.
    let here = (s.live.executed(), s.live.m.pc());
    let mut t = common::tui::app_at("scenarios/ras-trap-entry.toml", None);
    t.update(Action::Restart);
    t.update(Action::SwitchVariant);
    assert_eq!((t.live.executed(), t.live.m.pc()), here);
    // Back on the lesson's variant, r rewinds the lesson.
    s.update(Action::SwitchVariant);
    s.update(Action::Restart);
    assert_eq!(s.live.variant, lesson_variant);
    assert_eq!((s.live.executed(), s.live.m.pc()), start);
    assert!(msg(&s).contains("step 1/"), "{}", msg(&s));
}
