//! The layout at the sizes a reviewer and a classroom use: 100×30 (a
//! projector), 128×32, 160×45 and 200×55. Below 150×36 the CSRs, the call
//! stack, the cycles and the lower pane share one place (`w`).

use crate::common;
use common::tui::screen;

use trapscope::tui::render;
use trapscope::tui::state::{AppState, Mode, Pane};
use trapscope::tui::update::Action;

fn app_of(name: &str) -> AppState {
    common::tui::app_at(&format!("scenarios/{name}"), None)
}

/// The panes the layout places at `w`×`h`.
fn placed(s: &AppState, w: u16, h: u16) -> Vec<Pane> {
    render::areas(ratatui::layout::Rect::new(0, 0, w, h), s)
        .into_iter()
        .map(|(p, _)| p)
        .collect()
}

#[test]
fn at_100x30_every_pane_is_on_screen_or_one_key_away() {
    let mut s = app_of("ras-trap-entry.toml");
    s.command("run 3000");
    let text = screen(&mut s, 100, 30);
    assert!(!text.contains("needs a terminal"), "{text}");
    // Always there: source, narration, events, registers.
    for p in [Pane::Source, Pane::Narration, Pane::Events, Pane::Registers] {
        assert!(placed(&s, 100, 30).contains(&p), "{p:?}");
    }
    // The shared place: its tab line names all four, the CSRs in front.
    assert!(text.contains("[CSRs] Traps  Cycles  RAS"), "{text}");
    assert!(text.contains("sstatus"), "{text}");
    // `w` brings each forward in turn; each is drawn then.
    let mut seen = vec![Pane::Csrs];
    for _ in 0..3 {
        s.update(Action::NextTab);
        let shown = render::front(&s);
        assert!(placed(&s, 100, 30).contains(&shown), "{shown:?}");
        seen.push(shown);
    }
    assert_eq!(
        seen,
        [Pane::Csrs, Pane::Privilege, Pane::Cycles, Pane::Ras],
        "the shared place cycles through the four"
    );
    s.update(Action::NextTab);
    assert_eq!(render::front(&s), Pane::Csrs, "and back to the first");
}

#[test]
fn the_cycles_pane_keeps_its_before_after_rows_at_100x30_and_128x32() {
    for (w, h) in [(100, 30), (128, 32)] {
        let mut s = app_of("ras-trap-entry.toml");
        s.update(Action::Focus(Pane::Cycles));
        let text = screen(&mut s, w, h);
        // The scenario's two variants, each with its per-iteration figure
        // (without a core: instructions), the after line with its
        // difference from before.
        let before = text.lines().find(|l| l.contains("▶ before"));
        let after = text.lines().find(|l| l.contains("  after "));
        assert!(before.is_some(), "{w}x{h}: no before row\n{text}");
        let after = after.unwrap_or_else(|| panic!("{w}x{h}: no after row\n{text}"));
        assert!(
            after.contains('+') || after.contains('-'),
            "{w}x{h}: the after row has no difference: {after}"
        );
    }
}

#[test]
fn the_source_gets_most_of_the_width_below_150_columns() {
    // At 128×32 the three-column layout left the source 25 characters;
    // the compact one gives it all but the registers' 47 columns.
    let s = app_of("ras-trap-entry.toml");
    let src = render::areas(ratatui::layout::Rect::new(0, 0, 128, 32), &s)
        .into_iter()
        .find(|(p, _)| *p == Pane::Source)
        .map(|(_, r)| r)
        .unwrap();
    assert_eq!(src.width, 128 - 47);
}

#[test]
fn the_wide_layout_places_every_pane_at_160x45_and_200x55() {
    let s = app_of("ras-trap-entry.toml");
    for (w, h) in [(160, 45), (200, 55)] {
        let p = placed(&s, w, h);
        for want in [
            Pane::Source,
            Pane::Narration,
            Pane::Events,
            Pane::Registers,
            Pane::Csrs,
            Pane::Privilege,
            Pane::Cycles,
            Pane::Ras,
        ] {
            assert!(p.contains(&want), "{w}x{h}: {want:?} not placed");
        }
    }
}

#[test]
fn a_lesson_step_brings_its_pane_forward_in_the_compact_layout() {
    let mut s = app_of("ras-trap-entry.toml");
    s.highlight = Some(Pane::Cycles);
    assert_eq!(render::front(&s), Pane::Cycles);
    let text = screen(&mut s, 100, 30);
    assert!(text.contains("[Cycles]"), "{text}");
    // The highlighted pane is marked by a glyph, not only a colour.
    assert!(text.contains("◆ Cycles"), "{text}");
    // `w` moves on, and the highlight gives way.
    s.update(Action::NextTab);
    assert_eq!(render::front(&s), Pane::Ras);
}

#[test]
fn the_focused_pane_carries_a_glyph() {
    let mut s = app_of("ras-trap-entry.toml");
    s.update(Action::Focus(Pane::Registers));
    let text = screen(&mut s, 160, 45);
    assert!(text.contains("┌▸ Registers"), "{text}");
    assert!(!text.contains("▸ Events"), "{text}");
}

/// Every word of every help entry, in the order the help gives them.
fn help_words() -> Vec<String> {
    render::help::entries(200)
        .into_iter()
        .flatten()
        .flat_map(|l| {
            l.spans
                .iter()
                .flat_map(|s| s.content.split_whitespace().map(str::to_string))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn the_help_wraps_instead_of_cutting_at_100x30_and_160x45() {
    for (w, h) in [(100, 30), (160, 45)] {
        let mut s = app_of("ras-trap-entry.toml");
        s.mode = Mode::Help;
        let text = screen(&mut s, w, h);
        let more = text.contains("more lines: Down scrolls");
        let missing: Vec<String> = help_words()
            .into_iter()
            .filter(|word| !text.contains(word.as_str()))
            .collect();
        // Each word is on screen, unless the help says lines did not fit.
        assert!(
            missing.is_empty() || more,
            "{w}x{h}: cut without saying so: {missing:?}\n{text}"
        );
        if (w, h) == (160, 45) {
            assert!(missing.is_empty(), "{w}x{h}: {missing:?}\n{text}");
        }
    }
}

#[test]
fn the_amo_probe_status_names_the_variants_core_and_no_loop() {
    let mut s = app_of("amo-speed-probe.toml");
    let text = screen(&mut s, 160, 45);
    let status = text.lines().rev().nth(1).unwrap();
    // The p8700 variant carries its own core (the scenario sets none for
    // the session), and the scenario has no measured loop.
    assert!(status.contains("· p8700 ·"), "{status}");
    assert!(!status.contains("no core"), "{status}");
    assert!(status.contains("no measured loop"), "{status}");
    assert!(!status.contains("iteration 0"), "{status}");
    assert!(text.contains("whole run (no measured loop)"), "{text}");
}

#[test]
fn a_long_message_wraps_in_the_status_line_at_100x30() {
    let mut s = app_of("zalrsc-atomics.toml");
    s.command("probe cmpxchg_probe_site");
    let msg = match &s.message {
        Some((m, true)) => m.clone(),
        other => panic!("{other:?}"),
    };
    assert!(
        msg.len() > 100,
        "the rejection is longer than the screen: {msg}"
    );
    let text = screen(&mut s, 100, 30);
    // The status takes the rows the message needs; every word is there.
    let tail: String = text.lines().rev().take(4).collect::<Vec<_>>().join(" ");
    for word in msg.split_whitespace() {
        assert!(tail.contains(word), "{word} cut from the status:\n{text}");
    }
}

#[test]
fn the_key_hint_fits_the_width_and_keeps_help_and_quit() {
    let mut s = app_of("ras-trap-entry.toml");
    for w in [100, 128, 160] {
        let text = screen(&mut s, w, 45);
        let hint = text.lines().last().unwrap().trim_end();
        assert!(hint.ends_with("? help · q quit"), "{w}: {hint}");
        assert!(hint.chars().count() <= usize::from(w), "{w}: {hint}");
    }
}

/// S-Tab visits the panes on screen, and only those: at each size, with
/// each lower pane and with the diff view open, every press lands on a pane
/// the frame draws, marked `▸`, and a round visits each of them once.
#[test]
fn s_tab_focuses_only_the_panes_on_screen() {
    for (w, h) in [(100, 30), (160, 45)] {
        for diff in [false, true] {
            let mut s = app_of("ras-trap-entry.toml");
            if diff {
                s.update(Action::ToggleDiff);
            }
            let mut visited = Vec::new();
            for _ in 0..17 {
                let text = screen(&mut s, w, h);
                s.update(Action::NextPane);
                let text_after = screen(&mut s, w, h);
                let on = render::shown(ratatui::layout::Rect::new(0, 0, w, h), &s);
                assert!(
                    on.contains(&s.focus),
                    "{w}x{h} diff {diff}: {:?} is not on screen ({on:?})\n{text}",
                    s.focus
                );
                assert!(
                    text_after.contains('▸'),
                    "{w}x{h}: nothing looks focused\n{text_after}"
                );
                visited.push(s.focus);
            }
            let on = render::shown(ratatui::layout::Rect::new(0, 0, w, h), &s);
            for p in &on {
                assert!(
                    visited.contains(p),
                    "{w}x{h} diff {diff}: {p:?} never focused"
                );
            }
        }
    }
}

/// A resize to the compact layout and S-Tabs read in the same batch (keys
/// typed while the screen was being resized): the S-Tabs go round the
/// panes the new size shows, not the ones the last frame (wide) drew.
#[test]
fn s_tab_right_after_a_resize_goes_round_the_new_layout() {
    use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
    use trapscope::tui::input::{self, Stamped};
    let mut s = app_of("ras-trap-entry.toml");
    screen(&mut s, 160, 45);
    s.update(Action::Focus(Pane::Source));
    let compact = render::shown(ratatui::layout::Rect::new(0, 0, 100, 30), &s);
    assert_eq!(compact.len(), 5, "{compact:?}");
    let back_tab = || {
        Stamped::now(Event::Key(KeyEvent::new(
            KeyCode::BackTab,
            KeyModifiers::SHIFT,
        )))
    };
    let mut batch = vec![Stamped::now(Event::Resize(100, 30))];
    batch.extend((0..compact.len()).map(|_| back_tab()));
    let mut size = (160, 45);
    input::handle(
        &mut s,
        &trapscope::tui::keymap::Keymap::default(),
        &batch,
        &mut size,
        &|| false,
    );
    assert_eq!(s.focus, Pane::Source, "a round of {} S-Tabs", compact.len());
}
