//! Text the panes had no room for at 100×30 and was cut mid-word or with
//! no way to it: the source pane's lines past its right edge (Left/Right
//! scroll them, the heat, marks and numbers staying, and the border says
//! so), the source and disassembly titles (what the border has no room for
//! goes on a line at the top of the pane), pt_regs' one-sentence messages
//! (they wrap), the key hint (it says how many keys it leaves to `?`) and
//! a status line wider than the screen (it wraps).

use crate::common;
use common::tui::{app_at, screen};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use std::collections::BTreeMap;
use std::rc::Rc;
use trapscope::tui::render;
use trapscope::tui::state::{AppState, Lower, Pane};
use trapscope::tui::update::Action;

/// The pane alone at `w`×`h`: its rows inside the border.
fn inner(s: &AppState, pane: Pane, w: u16, h: u16) -> Vec<String> {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| render::draw_pane(f, Rect::new(0, 0, w, h), s, pane))
        .unwrap();
    let buf = t.backend().buffer().clone();
    (1..h.saturating_sub(1))
        .map(|y| (1..w - 1).map(|x| buf[(x, y)].symbol()).collect())
        .collect()
}

fn area_of(s: &AppState, pane: Pane, w: u16, h: u16) -> Rect {
    render::areas(Rect::new(0, 0, w, h), s)
        .into_iter()
        .find(|(p, _)| *p == pane)
        .unwrap()
        .1
}

#[test]
fn the_source_pane_scrolls_sideways_to_the_end_of_every_line_at_100x30() {
    let mut s = app_at("scenarios/ras-trap-entry.toml", None);
    s.go_to_start();
    let a = area_of(&s, Pane::Source, 100, 30);
    // The lesson opens in syscall(), whose comment lines are longer than
    // the pane: its bottom border says so.
    let text = screen(&mut s, 100, 30);
    let bottom: String = text
        .lines()
        .nth(usize::from(a.y + a.height - 1))
        .unwrap()
        .chars()
        .take(usize::from(a.width))
        .collect();
    assert!(bottom.contains("more →"), "{bottom}");
    s.update(Action::Focus(Pane::Source));
    // Each row past its gutter (heat 7, marks 2, line number 5 columns),
    // reassembled over the sideways offsets.
    let mut got: BTreeMap<usize, BTreeMap<usize, String>> = BTreeMap::new();
    for _ in 0..40 {
        let x = usize::from(s.views.offset(Pane::Source).0);
        for row in inner(&s, Pane::Source, a.width, a.height) {
            let c: Vec<&str> = row.split("").filter(|x| !x.is_empty()).collect();
            let Ok(n) = c[9..13].concat().trim().parse::<usize>() else {
                continue;
            };
            // The gutter stays: the line number is there at every offset.
            for (k, ch) in c[14..].iter().enumerate() {
                got.entry(n)
                    .or_default()
                    .entry(x + k)
                    .or_insert(ch.to_string());
            }
        }
        let before = s.views.offset(Pane::Source);
        s.update(Action::PanRight);
        if s.views.offset(Pane::Source) == before {
            break;
        }
    }
    let p = s.live.program();
    let file = p.loc(s.live.m.pc()).unwrap().file;
    let lines = s.sources.file(file);
    assert!(got.len() > 8, "{got:?}");
    for (n, cols) in &got {
        let row: String = cols.values().map(String::as_str).collect();
        assert_eq!(row.trim_end(), lines[n - 1].trim_end(), "line {n}");
    }
    // And Left goes back to the first column.
    for _ in 0..40 {
        s.update(Action::PanLeft);
    }
    assert_eq!(s.views.offset(Pane::Source).0, 0);
}

#[test]
fn the_source_and_disassembly_titles_are_whole_at_100x30() {
    let mut s = app_at("scenarios/ras-trap-entry.toml", None);
    s.go_to_start();
    let p = s.live.program().clone();
    let pc = s.live.m.pc();
    let loc = p.loc(pc).unwrap();
    let place = p.describe(pc);
    let file_line = format!("{}:{}", p.files[loc.file as usize], loc.line);
    for focused in [false, true] {
        if focused {
            s.update(Action::Focus(Pane::Source));
        }
        let a = area_of(&s, Pane::Source, 100, 30);
        let text = screen(&mut s, 100, 30);
        // The pane's columns only: its title and the rows under it.
        let pane: Vec<String> = text
            .lines()
            .skip(usize::from(a.y))
            .take(usize::from(a.height))
            .map(|l| l.chars().take(usize::from(a.width)).collect())
            .collect();
        let joined = pane.join("\n");
        // Before the measured loop: no iteration has completed.
        for want in [
            file_line.as_str(),
            place.as_str(),
            "[cyc/it: no iteration done yet]",
        ] {
            assert!(joined.contains(want), "{want:?}:\n{joined}");
        }
        s.update(Action::ToggleDisasm);
        let text = screen(&mut s, 100, 30);
        let pane: Vec<String> = text
            .lines()
            .skip(usize::from(a.y))
            .take(usize::from(a.height))
            .map(|l| l.chars().take(usize::from(a.width)).collect())
            .collect();
        let joined = pane.join("\n");
        for want in [
            "Disassembly",
            place.as_str(),
            "[cyc/it: no iteration done yet]",
        ] {
            assert!(joined.contains(want), "disassembly {want:?}:\n{joined}");
        }
        s.update(Action::ToggleDisasm);
    }
}

#[test]
fn pt_regs_messages_wrap_in_the_shared_place_at_100x30() {
    let mut s = app_at("scenarios/ras-trap-entry.toml", None);
    s.go_to_start();
    s.lower = Lower::PtRegs;
    // Before the ecall: no trap frame; at the trap's first instruction:
    // entered, the frame not saved yet.
    for step in ["start", "t"] {
        if step == "t" {
            s.update(Action::RunToTrap);
        }
        let wide = inner(&s, Pane::PtRegs, 300, 10).concat();
        let said = wide.trim();
        assert!(
            said.starts_with("no trap frame") || said.starts_with("not saved yet"),
            "{said}"
        );
        let shown = inner(&s, Pane::PtRegs, 47, 10);
        let words: Vec<&str> = shown.iter().flat_map(|r| r.split_whitespace()).collect();
        for w in said.split_whitespace() {
            assert!(
                words.contains(&w),
                "{step}: {w:?} cut:\n{}",
                shown.join("\n")
            );
        }
    }
}

#[test]
fn the_key_hint_says_how_many_keys_it_leaves_to_help() {
    let mut s = app_at("scenarios/ras-trap-entry.toml", None);
    let items = |text: &str| -> Vec<String> {
        text.lines()
            .last()
            .unwrap()
            .trim()
            .split(" · ")
            .map(str::to_string)
            .collect()
    };
    let all = items(&screen(&mut s, 300, 45));
    assert!(all.iter().any(|i| i == "R power-on"), "{all:?}");
    for w in [100, 110, 128] {
        let shown = items(&screen(&mut s, w, 45));
        let named: Vec<&str> = shown
            .iter()
            .map(|i| i.split_once(" more: ").map_or(i.as_str(), |(_, k)| k))
            .collect();
        let missing = all.iter().filter(|i| !named.contains(&i.as_str())).count();
        // At 100 columns some give way; at 128 all fit, and none is said
        // to be missing.
        assert_eq!(missing > 0, w < 128, "{w}: {shown:?}");
        if missing > 0 {
            let more = format!("+{missing} more: ? help");
            assert!(shown.contains(&more), "{w}: no {more:?} in {shown:?}");
        } else {
            assert!(shown.iter().all(|i| !i.contains(" more")), "{w}: {shown:?}");
        }
    }
}

#[test]
fn a_status_line_wider_than_the_screen_wraps() {
    let mut sc = trapscope::scenario::Scenario::load(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/ras-trap-entry.toml"),
    )
    .unwrap();
    sc.variants[0].name =
        "a-variant-named-at-such-length-that-the-status-line-cannot-hold-it".into();
    let mut s = AppState::new(Rc::new(sc), None).unwrap();
    let text = screen(&mut s, 100, 30);
    let status: Vec<&str> = text.lines().rev().take(4).collect();
    let words: Vec<&str> = status.iter().flat_map(|l| l.split_whitespace()).collect();
    for w in [
        "a-variant-named-at-such-length-that-the-status-line-cannot-hold-it",
        "u74",
        "instructions",
        "window",
    ] {
        assert!(words.contains(&w), "{w:?}:\n{}", status.join("\n"));
    }
}
