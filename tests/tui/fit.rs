//! Text wider or longer than its pane (every line reachable): each pane,
//! drawn at the size the layout gives it and scrolled through every offset
//! its keys reach, shows all the text it shows when drawn large enough to
//! need no scrolling. Also the cases users hit: a mispredict's targets in
//! the events pane, the narration's last word at 100×30, and all 19 of
//! generic-entry's variants in the cycles pane at 150×36.

use crate::common;
use common::tui::{app_at, screen};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use trapscope::tui::render;
use trapscope::tui::state::{AppState, Lower, Pane};
use trapscope::tui::update::Action;

/// The pane alone at `w`×`h`: its rows inside the border.
fn inner(s: &AppState, pane: Pane, w: u16, h: u16) -> Vec<Vec<String>> {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| render::draw_pane(f, Rect::new(0, 0, w, h), s, pane))
        .unwrap();
    let buf = t.backend().buffer().clone();
    (1..h.saturating_sub(1))
        .map(|y| {
            (1..w.saturating_sub(1))
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect()
        })
        .collect()
}

/// The pane's text as it reads when scrolled through every offset at
/// `w`×`h` (Right and Down with it focused), reassembled by position.
fn reached(s: &mut AppState, pane: Pane, w: u16, h: u16) -> Vec<String> {
    s.update(Action::Focus(pane));
    s.views.reset(pane);
    let mut grid: std::collections::BTreeMap<(usize, usize), String> = Default::default();
    let mut y = 0;
    loop {
        let mut x = 0;
        loop {
            for (r, row) in inner(s, pane, w, h).into_iter().enumerate() {
                for (c, ch) in row.into_iter().enumerate() {
                    grid.entry((y + r, x + c)).or_insert(ch);
                }
            }
            let before = s.views.offset(pane);
            s.update(Action::PanRight);
            let after = s.views.offset(pane);
            if after == before {
                break;
            }
            x = usize::from(after.0);
        }
        while s.views.offset(pane).0 > 0 {
            s.update(Action::PanLeft);
        }
        let before = s.views.offset(pane);
        s.update(Action::ScrollDown);
        inner(s, pane, w, h);
        let after = s.views.offset(pane);
        if after == before {
            break;
        }
        y = usize::from(after.1);
    }
    let rows = grid.keys().map(|k| k.0).max().unwrap_or(0) + 1;
    (0..rows)
        .map(|r| {
            grid.range((r, 0)..(r + 1, 0))
                .map(|(_, v)| v.as_str())
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect()
}

/// Every non-empty row of the pane drawn 300 columns wide and `tall` rows
/// (its own height where it scrolls its rows itself) is among the text
/// reached at `w`×`h`, word for word (prose panes wrap their lines).
fn all_reachable(s: &mut AppState, pane: Pane, w: u16, h: u16, tall: u16) {
    let squash = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let full: Vec<String> = inner(s, pane, 300, tall)
        .into_iter()
        .map(|r| squash(&r.concat()))
        .filter(|r| !r.is_empty())
        .collect();
    let got = reached(s, pane, w, h);
    let joined = format!(" {} ", squash(&got.join(" ")));
    for row in &full {
        assert!(
            joined.contains(&format!(" {row} ")),
            "{pane:?} at {w}x{h}: not reachable:\n{row}\nreached:\n{}",
            got.join("\n")
        );
    }
}

#[test]
fn the_events_pane_reaches_a_mispredicts_targets_at_100x30() {
    let mut s = app_at("scenarios/generic-entry.toml", None);
    s.go_to_start();
    // The events pane at 100×30 is the source column's 53 by 14.
    let area = render::areas(Rect::new(0, 0, 100, 30), &s)
        .into_iter()
        .find(|(p, _)| *p == Pane::Events)
        .unwrap()
        .1;
    let full = inner(&s, Pane::Events, 300, area.height).concat().concat();
    assert!(full.contains("went to"), "{full}");
    all_reachable(&mut s, Pane::Events, area.width, area.height, area.height);
    // The border says more is to the right.
    let text = screen(&mut s, 100, 30);
    assert!(text.contains("more →"), "{text}");
}

#[test]
fn the_lower_panes_and_the_csrs_reach_every_line_in_the_compact_layout() {
    // (scenario, the lower pane, commands that fill it)
    let cases: [(&str, Lower, &[&str]); 4] = [
        ("scenarios/ras-trap-entry.toml", Lower::Ras, &["run 3000"]),
        ("scenarios/generic-entry.toml", Lower::Reservation, &[]),
        ("scenarios/fp-lazy-switch.toml", Lower::Fp, &["run 3000"]),
        (
            "scenarios/ras-trap-entry.toml",
            Lower::Backtrace,
            &["run 3000"],
        ),
    ];
    for (path, lower, cmds) in cases {
        let mut s = app_at(path, None);
        s.go_to_start();
        for c in cmds {
            s.command(c);
        }
        s.lower = lower;
        let pane = render::tabs(lower)[3];
        // The shared place at 100×30: 47 columns by 10 rows.
        for (w, h) in [(47, 10), (30, 8)] {
            all_reachable(&mut s, pane, w, h, 120);
        }
    }
    // The memory view shortens its addresses to its width; what each word
    // points at is reachable whole.
    let mut s = app_at("scenarios/ras-trap-entry.toml", None);
    s.go_to_start();
    s.command("x task_bench 256");
    let wide = inner(&s, Pane::Memory, 300, 10).concat().concat();
    let got = reached(&mut s, Pane::Memory, 30, 10).join(" ");
    let targets: Vec<&str> = wide
        .split("→ ")
        .skip(1)
        .filter_map(|t| t.split_whitespace().next())
        .collect();
    assert!(!targets.is_empty(), "{wide}");
    for t in targets {
        assert!(got.contains(&format!("→ {t}")), "{t}: {got}");
    }
    let mut s = app_at("scenarios/ras-trap-entry.toml", None);
    s.go_to_start();
    for p in [Pane::Csrs, Pane::Privilege, Pane::Registers] {
        all_reachable(&mut s, p, 30, 8, 120);
    }
}

#[test]
fn the_narration_reaches_its_last_word_at_100x30() {
    let mut s = app_at("scenarios/ras-trap-entry.toml", None);
    s.go_to_start();
    let area = render::areas(Rect::new(0, 0, 100, 30), &s)
        .into_iter()
        .find(|(p, _)| *p == Pane::Narration)
        .unwrap()
        .1;
    for _ in 0..s.player.steps.len() {
        let said = s.narration.clone().unwrap_or_default();
        let text = reached(&mut s, Pane::Narration, area.width, area.height).join(" ");
        for w in said.split_whitespace() {
            assert!(
                text.split_whitespace().any(|t| t == w),
                "{w:?} of {said:?}:\n{text}"
            );
        }
        // The title's patch name, whole.
        assert!(
            text.contains(&s.scenario.patch) || {
                let top = screen(&mut s, 100, 30);
                top.contains(&s.scenario.patch)
            },
            "{text}"
        );
        s.update(Action::Advance);
    }
}

#[test]
fn the_cycles_pane_reaches_all_19_variants_at_150x36() {
    let mut s = app_at("scenarios/generic-entry.toml", Some("u74"));
    s.go_to_start();
    s.update(Action::Focus(Pane::Cycles));
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..40 {
        let text = screen(&mut s, 150, 36);
        for v in &s.scenario.variants {
            if text.contains(&format!("  {} ", v.name)) || text.contains(&format!("▶ {} ", v.name))
            {
                seen.insert(v.name.clone());
            }
        }
        s.update(Action::ScrollDown);
    }
    for _ in 0..40 {
        s.update(Action::ScrollUp);
        let text = screen(&mut s, 150, 36);
        for v in &s.scenario.variants {
            if text.contains(&format!("  {} ", v.name)) || text.contains(&format!("▶ {} ", v.name))
            {
                seen.insert(v.name.clone());
            }
        }
    }
    let names: Vec<&String> = s.scenario.variants.iter().map(|v| &v.name).collect();
    let missing: Vec<&&String> = names.iter().filter(|n| !seen.contains(**n)).collect();
    assert!(missing.is_empty(), "not reachable: {missing:?}");
}

#[test]
fn the_vector_pane_scrolls_to_v31_in_the_compact_layout() {
    // At 100×30 the shared place gives the vector registers a few rows
    // under the VS state: Down reaches each of v0-v31.
    let mut s = app_at("scenarios/vector-context-switch.toml", None);
    s.go_to_start();
    s.lower = Lower::Vector;
    s.update(Action::Focus(Pane::Vector));
    let area = render::areas(Rect::new(0, 0, 100, 30), &s)
        .into_iter()
        .find(|(p, _)| *p == Pane::Vector)
        .unwrap()
        .1;
    assert!(area.height < 32, "{area:?}");
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..40 {
        for row in inner(&s, Pane::Vector, area.width, area.height) {
            let t = row.concat();
            let name = t.trim_start_matches(['*', '#', ' ']);
            if let Some(n) = name.strip_prefix('v').and_then(|r| r.split(' ').next())
                && let Ok(i) = n.parse::<u32>()
            {
                seen.insert(i);
            }
        }
        s.update(Action::ScrollDown);
    }
    assert_eq!(seen, (0..32).collect(), "at {}x{}", area.width, area.height);
}
