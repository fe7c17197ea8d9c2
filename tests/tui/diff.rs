//! The TUI's path diff view (`D`), driven through actions and drawn into a
//! test backend: its rows, its cache, scrolling and Enter to the source.

use crate::common;
use common::tui::screen;

use trapscope::report::pathdiff::{Choice, Op};
use trapscope::tui::keymap::Keymap;
use trapscope::tui::state::{AppState, Pane};
use trapscope::tui::update::Action;

fn app() -> AppState {
    common::tui::app_at("scenarios/ras-trap-entry.toml", Some("u74"))
}

#[test]
fn help_lists_the_diff_key() {
    let help = Keymap::default().to_string();
    assert!(
        help.lines()
            .any(|l| l.trim_start().starts_with("D ") && l.contains("diff")),
        "{help}"
    );
    assert!(help.contains("PgDn") && help.contains("Enter"), "{help}");
}

#[test]
fn d_shows_the_aligned_paths_with_the_mispredicts_and_computes_once() {
    let mut s = app();
    s.update(Action::ToggleDiff);
    assert!(s.diff.open);
    assert_eq!(s.focus, Pane::Diff);
    assert_eq!(s.diff.computed, 1);
    let d = s.diff.result.clone().unwrap().unwrap();
    // Before the loop has begun: the default, a typical iteration (which
    // one tests/reports/pathdiff.rs checks against the run's own figures), not the
    // last (the 100th, with the loop exit's mispredict).
    assert!(matches!(d.choice, Choice::Typical { .. }), "{:?}", d.choice);
    assert_ne!(d.a.iteration, 100);
    let typical = d.a.iteration;
    // The status says why, and how to pick another in the TUI (a flag of
    // the command line's was named).
    let (m, _) = s.message.clone().expect("a status line");
    assert!(m.starts_with("diff: iteration "), "{m}");
    assert!(!m.contains("--iteration"), "{m}");
    assert!(m.contains("D inside the measured loop"), "{m}");
    // Select the row of the old entry's `jr t0` (guest-asm/include/
    // minikernel-entry.inc: only before the patch, a RAS mispredict).
    let at = d
        .ops
        .iter()
        .position(|o| matches!(o, Op::Del(i) if d.a.lines[*i].text == "jr t0"))
        .expect("jr t0 only on the before path");
    for _ in 0..at / 10 {
        s.update(Action::PageDown);
    }
    for _ in 0..at % 10 {
        s.update(Action::ScrollDown);
    }
    assert_eq!(s.diff.selected, at);
    // Scrolling reuses the diff.
    assert_eq!(s.diff.computed, 1);
    let text = screen(&mut s, 160, 45);
    assert!(
        text.contains(&format!(
            "Diff A before · B after · iteration {typical} (typical)"
        )),
        "{text}"
    );
    let row = text
        .lines()
        .find(|l| l.contains("handle_exception+0x") && l.contains("jr t0"))
        .unwrap_or_else(|| panic!("no jr t0 row:\n{text}"));
    assert!(row.contains("ras"), "{row}");
    // The selected row: the ▸ glyph, then its mark, only in A.
    assert!(row.contains("│▸-"), "marked as only in A: {row}");
    // The wrapper's `ret` mispredicts before the patch only: "ras|-".
    s.update(Action::PageDown);
    s.update(Action::PageDown);
    let ret = d
        .ops
        .iter()
        .position(|o| matches!(o, Op::Same(i, _) if d.a.lines[*i].function == "syscall" && d.a.lines[*i].text == "ret"))
        .unwrap();
    for _ in 0..20 {
        s.update(Action::PageDown);
    }
    for _ in 0..(d.ops.len() - 1 - ret) {
        s.update(Action::ScrollUp);
    }
    let text = screen(&mut s, 160, 45);
    let row = text
        .lines()
        .find(|l| l.contains("syscall+0x18") && l.contains("ret"))
        .unwrap_or_else(|| panic!("no syscall ret row:\n{text}"));
    assert!(row.contains("ras|-"), "{row}");
    assert!(
        text.contains("B-A -17 cycles") || text.contains("B-A"),
        "{text}"
    );
    // Closing and opening again at the same place: still one computation.
    s.update(Action::ToggleDiff);
    assert!(!s.diff.open);
    s.update(Action::ToggleDiff);
    assert_eq!(s.diff.computed, 1);
}

#[test]
fn enter_points_the_source_pane_at_the_selected_line() {
    let mut s = app();
    s.update(Action::ToggleDiff);
    let d = s.diff.result.clone().unwrap().unwrap();
    let at = d
        .ops
        .iter()
        .position(|o| matches!(o, Op::Del(i) if d.a.lines[*i].text == "jr t0"))
        .unwrap();
    for _ in 0..at {
        s.update(Action::ScrollDown);
    }
    s.update(Action::DiffJump);
    let Op::Del(i) = d.ops[at] else {
        unreachable!()
    };
    let want = s.live.program().loc(d.a.lines[i].pc).unwrap();
    assert_eq!(s.diff.source_at, Some(want));
    let text = screen(&mut s, 160, 45);
    // The source pane now shows the entry template around `jr t0`, marked
    // as the diff row's line (the pc's line keeps ▶).
    let line = text
        .lines()
        .find(|l| l.contains('→'))
        .unwrap_or_else(|| panic!("no marked line:\n{text}"));
    assert!(line.contains("jr") && line.contains("t0"), "{line}");
    // A step moves the machine: the source follows the pc again.
    s.update(Action::Step);
    assert_eq!(s.diff.source_at, None);
}

#[test]
fn the_view_follows_the_iteration_the_live_machine_is_in() {
    let mut s = app();
    s.update(Action::ToggleDiff);
    assert_eq!(s.diff.computed, 1);
    // Into the measured loop: stop at its top (before it runs) four
    // times; the diff follows the iteration counted so far.
    let pc = s.live.program().symbol("bench_timed_loop").unwrap().addr;
    s.breakpoints.insert(pc);
    let mut seen = 0;
    for _ in 0..4 {
        s.update(Action::Continue);
        let k = s.live.stats().iterations;
        let d = s.diff.result.clone().unwrap().unwrap();
        if k > 0 {
            seen += 1;
            assert_eq!((d.a.iteration, d.b.iteration), (k, k));
            assert_eq!(d.choice, Choice::Live);
        } else {
            assert!(
                matches!(d.choice, Choice::Typical { .. }),
                "before the loop: the default"
            );
        }
        assert_eq!(s.diff.computed, 1 + seen, "once per iteration");
    }
    assert_eq!(s.live.stats().iterations, 3);
    // The loop's top runs: iteration 4 begins, one more computation; the
    // steps after it, inside the same iteration, keep it.
    s.update(Action::Step);
    assert_eq!(s.live.stats().iterations, 4);
    assert_eq!(s.diff.computed, 2 + seen);
    s.update(Action::Step);
    s.update(Action::Step);
    assert_eq!(s.diff.computed, 2 + seen);
}

/// PgDn in the diff view moves a page of the rows on screen, less one kept
/// for context (it moved 10 of about 28 at 160×45).
#[test]
fn page_down_in_the_diff_view_moves_a_screenful() {
    let mut s = common::tui::app_at("scenarios/ras-trap-entry.toml", Some("u74"));
    s.update(Action::ToggleDiff);
    let text = common::tui::screen(&mut s, 160, 45);
    // The rows the view shows: between its title and its total line.
    let lines: Vec<&str> = text.lines().collect();
    let top = lines
        .iter()
        .position(|l| l.contains("Diff A before"))
        .unwrap();
    let total = lines.iter().position(|l| l.contains("│total  A")).unwrap();
    let rows = total - top - 1;
    assert!(rows > 20, "{rows}\n{text}");
    let before = s.diff.selected;
    s.update(Action::PageDown);
    assert_eq!(s.diff.selected - before, rows - 1, "{text}");
}
