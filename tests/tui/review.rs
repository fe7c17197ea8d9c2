//! What a first review of the TUI found, each kept from coming
//! back: probes that could not be removed, the breakpoint glyph hiding the
//! current line, the diff's selected row marked by colour only, the help
//! that could not scroll.

use crate::common;
use common::tui::{app_at, screen};
use trapscope::trace::Event;
use trapscope::tui::state::Mode;
use trapscope::tui::update::Action;

/// Breakpoint traps (cause 3) in the live machine's log.
fn breakpoint_traps(s: &trapscope::tui::state::AppState) -> usize {
    s.live
        .stats()
        .log
        .since(0)
        .filter(|(_, e)| matches!(e.event, Event::TrapEnter { cause: 3, .. }))
        .count()
}

#[test]
fn a_probe_shows_in_the_status_line_and_unprobe_removes_it() {
    let mut s = app_at("scenarios/zalrsc-atomics.toml", None);
    s.command("probe sys_atomics_wake");
    assert_eq!(s.probes.len(), 1, "{:?}", s.message);
    // Far enough for the probe to trap, not to the guest's end (without
    // the probe's traps the guest ends sooner).
    s.command("run 100000");
    assert!(breakpoint_traps(&s) > 0, "the probe traps the guest");
    let text = screen(&mut s, 160, 45);
    assert!(text.contains("· 1 probe "), "{text}");
    let at = s.live.executed();
    s.command("unprobe sys_atomics_wake");
    assert!(s.probes.is_empty(), "{:?}", s.message);
    assert!(matches!(&s.message, Some((m, false)) if m.contains("removed")));
    // Rebuilt at the same count, without the probe's traps.
    assert_eq!(s.live.executed(), at);
    assert_eq!(breakpoint_traps(&s), 0);
    s.command("unprobe sys_atomics_wake");
    assert!(matches!(&s.message, Some((m, true)) if m.contains("no probe")));
}

#[test]
fn stopped_on_a_breakpoint_the_line_shows_both_glyphs() {
    let mut s = app_at("scenarios/ras-trap-entry.toml", None);
    s.command("break do_trap_ecall_u");
    s.update(Action::Continue);
    let text = screen(&mut s, 160, 45);
    let line = text
        .lines()
        .find(|l| l.contains("●▶"))
        .unwrap_or_else(|| panic!("no line with both the breakpoint and the pc:\n{text}"));
    assert!(
        line.contains("do_trap_ecall_u") || line.contains("addi"),
        "{line}"
    );
}

#[test]
fn the_diff_view_marks_its_selected_row_with_a_glyph() {
    let mut s = app_at("scenarios/ras-trap-entry.toml", Some("u74"));
    s.update(Action::ToggleDiff);
    s.update(Action::ScrollDown);
    let text = screen(&mut s, 160, 45);
    let marked: Vec<&str> = text.lines().filter(|l| l.contains("│▸")).collect();
    assert_eq!(marked.len(), 1, "one selected row:\n{text}");
}

#[test]
fn the_help_scrolls_to_what_a_small_screen_cannot_show() {
    let mut s = app_at("scenarios/ras-trap-entry.toml", None);
    s.update(Action::Help);
    let first = screen(&mut s, 100, 30);
    assert!(first.contains("more lines"), "{first}");
    assert!(!first.contains("unprobe SYMBOL"), "{first}");
    // Down keeps the help open and shows what was below.
    for _ in 0..40 {
        s.update(Action::ScrollDown);
    }
    assert_eq!(s.mode, Mode::Help);
    let later = screen(&mut s, 100, 30);
    assert!(later.contains("unprobe SYMBOL"), "{later}");
    // Any other key closes it.
    s.update(Action::Step);
    assert_eq!(s.mode, Mode::Normal);
}
