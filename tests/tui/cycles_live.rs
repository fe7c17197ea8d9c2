//! The Cycles pane keeps the live variant's line in view when a scenario
//! has more variants than the pane has rows (generic-entry.toml has 19).

use crate::common;
use common::tui::{app_at, screen};

use trapscope::tui::update::Action;

#[test]
fn the_live_variant_stays_in_the_cycles_pane() {
    let mut s = app_at("scenarios/generic-entry.toml", Some("u74"));
    let n = s.scenario.variants.len();
    let last = s.scenario.variants[n - 1].name.clone();
    // Tab to the last variant: at 160x45 the pane has room for fewer lines
    // than there are variants, so without the window its line is cut.
    for _ in 1..n {
        s.update(Action::SwitchVariant);
    }
    assert_eq!(s.live.variant, n - 1);
    let text = screen(&mut s, 160, 45);
    let live = format!("▶ {last}");
    assert!(text.contains(&live), "{live} not shown:\n{text}");
    assert!(text.contains("more above"), "{text}");
    // Back on the first, the list starts at the top again.
    s.update(Action::SwitchVariant);
    assert_eq!(s.live.variant, 0);
    let text = screen(&mut s, 160, 45);
    assert!(text.contains("▶ fast"), "{text}");
    assert!(!text.contains("more above"), "{text}");
}
