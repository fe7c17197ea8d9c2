//! The events pane's filter (`f`) reaches every event kind, interrupts
//! too, and its title says what `#` and `@` count.

use crate::common;
use common::tui::screen;

use trapscope::report::EventFilter;
use trapscope::trace::EventKind;
use trapscope::tui::state::AppState;
use trapscope::tui::update::Action;

fn app(name: &str) -> AppState {
    common::tui::app_at(&format!("scenarios/{name}"), None)
}

#[test]
fn f_cycles_through_every_event_kind_and_interrupts_then_back() {
    let mut s = app("ras-trap-entry.toml");
    let start = s.filter;
    let mut seen = vec![start];
    loop {
        s.update(Action::CycleFilter);
        if s.filter == start {
            break;
        }
        assert!(!seen.contains(&s.filter), "{:?} twice", s.filter);
        seen.push(s.filter);
        assert!(seen.len() < 100, "the cycle never comes back");
    }
    for k in EventKind::ALL {
        assert!(
            seen.contains(&EventFilter::Kind(k)),
            "f never shows {}",
            k.name()
        );
    }
    // The ones the issue found missing.
    for name in ["lr", "sc", "vs", "vector", "interrupt"] {
        assert!(
            seen.iter().any(|f| f.name() == name),
            "f never shows {name}"
        );
    }
}

#[test]
fn the_interrupt_filter_shows_only_traps_taken_for_interrupts() {
    let mut s = app("irq-trap-entry.toml");
    s.update(Action::Continue);
    let log = &s.live.stats().log;
    let irqs = log
        .iter()
        .filter(|e| matches!(e.event, trapscope::trace::Event::TrapEnter { cause, .. } if cause >> 63 == 1))
        .count();
    let traps = log
        .iter()
        .filter(|e| e.event.kind() == EventKind::TrapEnter)
        .count();
    assert!(irqs > 0, "the irq scenario takes interrupts");
    while s.filter != EventFilter::Interrupt {
        s.update(Action::CycleFilter);
    }
    let text = screen(&mut s, 160, 45);
    let title = text
        .lines()
        .find(|l| l.contains("Events ["))
        .expect("the events pane");
    assert!(
        title.contains(&format!("Events [interrupt] {irqs} ")),
        "{title}"
    );
    // Exceptions (the ecalls) are traps, not interrupts.
    assert!(traps > irqs, "{traps} traps, {irqs} interrupts");
}

#[test]
fn the_events_title_says_that_at_counts_instructions() {
    let mut s = app("ras-trap-entry.toml");
    s.update(Action::RunToTrap);
    let text = screen(&mut s, 160, 45);
    let title = text
        .lines()
        .find(|l| l.contains("Events ["))
        .expect("the events pane");
    assert!(title.contains("@instructions"), "{title}");
    // And the rows carry the `@N` it explains.
    assert!(text.contains(" @"), "{text}");
}
