//! The help screen: it names Esc, and scrolling moves its rows without
//! reflowing them (the columns were flowed anew from the first entry on
//! screen, so the split between the two columns moved at every press).

use crate::common;
use common::tui::{app_at, screen};

use trapscope::tui::state::Mode;
use trapscope::tui::update::Action;

/// The help box's inside rows (between its top and bottom borders).
fn help_rows(text: &str) -> Vec<String> {
    let lines: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    let top = lines
        .iter()
        .position(|l| l.iter().collect::<String>().contains("trapscope keys"))
        .unwrap();
    let row: String = lines[top].iter().collect();
    let x = row[..row.find("┌ trapscope keys").unwrap()].chars().count();
    let end = x + lines[top][x..].iter().position(|c| *c == '┐').unwrap();
    lines[top + 1..]
        .iter()
        .take_while(|l| l.get(x) != Some(&'└'))
        .map(|l| l[x..=end].iter().collect())
        .collect()
}

#[test]
fn the_help_names_esc() {
    let mut s = app_at("scenarios/ras-trap-entry.toml", None);
    s.update(Action::Help);
    let text = screen(&mut s, 160, 45);
    assert!(
        text.lines()
            .any(|l| l.contains(" Esc ") && l.contains("stop a long action")),
        "{text}"
    );
}

#[test]
fn scrolling_the_help_moves_its_rows_and_never_reflows_them() {
    for (w, h) in [(100, 30), (128, 32)] {
        let mut s = app_at("scenarios/ras-trap-entry.toml", None);
        s.update(Action::Help);
        let mut before = help_rows(&screen(&mut s, w, h));
        let mut moved = 0;
        for _ in 0..60 {
            s.update(Action::ScrollDown);
            assert_eq!(s.mode, Mode::Help);
            let after = help_rows(&screen(&mut s, w, h));
            if after == before {
                break;
            }
            moved += 1;
            // Each row moved up by one; the last row (the "more" line) aside.
            let n = before.len().min(after.len());
            for r in 1..n.saturating_sub(1) {
                assert_eq!(
                    after[r - 1],
                    before[r],
                    "{w}x{h}, press {moved}: row {r} reflowed\nbefore:\n{}\nafter:\n{}",
                    before.join("\n"),
                    after.join("\n")
                );
            }
            before = after;
        }
        assert!(moved > 0, "{w}x{h}: the help did not scroll");
        // At the end, the last command is on screen.
        assert!(
            before.iter().any(|r| r.contains("save FILE")),
            "{}",
            before.join("\n")
        );
    }
}

/// `c` stops at watchpoints as well as breakpoints (`:watch`), and the
/// help's line for it says so.
#[test]
fn the_help_says_c_stops_at_watchpoints_too() {
    let mut s = app_at("scenarios/ras-trap-entry.toml", None);
    // What `c` does: a watch on the task's counter stops it there.
    s.command("watch task_bench+0x8 8");
    s.update(Action::Continue);
    let (msg, _) = s.message.clone().unwrap();
    assert!(msg.contains("watch"), "{msg}");
    s.update(Action::Help);
    let rows = help_rows(&screen(&mut s, 160, 45));
    let line = rows
        .iter()
        .find(|l| l.trim_start_matches('│').starts_with("c "))
        .unwrap_or_else(|| panic!("no line for c in\n{}", rows.join("\n")));
    assert!(
        line.contains("breakpoint") && line.contains("watchpoint"),
        "{line}"
    );
}
