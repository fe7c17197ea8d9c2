//! The keymap's table against what the user sees and what the keys do:
//! every binding of every mode is on the help screen with its words (drawn
//! through the test backend), every key the table lists for a mode does
//! its action through the real key handler (`input::handle`), the reader
//! thread's view of the mode keeps in step with the state's, and the
//! Markdown the table writes holds every key and command (the book's
//! docs/reference/keys.md shows it, generated: tests/docs/readme_generated.rs).

use crate::common::tui::{app_at, screen};

use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;
use trapscope::tui::input::{self, Stamped, Typing};
use trapscope::tui::keymap::{self, Binding, Does, Key, KeyMode, Keymap};
use trapscope::tui::layout;
use trapscope::tui::state::{AppState, Mode};
use trapscope::tui::update::Action;

const BIG: (u16, u16) = (160, 45);

fn app() -> AppState {
    app_at("scenarios/ras-trap-entry.toml", None)
}

/// Whitespace collapsed to single spaces.
fn words(t: &str) -> String {
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The help screen's items, drawn in one column (a screen tall enough for
/// all of it): each a label (what comes before the first run of two
/// spaces) and its text, wrapped lines joined.
fn help_items() -> Vec<(String, String)> {
    let mut s = app();
    s.update(Action::Help);
    let text = screen(&mut s, 120, 200);
    assert!(!text.contains("more lines"), "{text}");
    let rows: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    let top = rows
        .iter()
        .position(|r| r.iter().collect::<String>().contains("┌ trapscope keys"))
        .expect("the help box");
    let x = rows[top]
        .iter()
        .position(|c| *c == '┌')
        .expect("its corner");
    let end = x + rows[top][x..]
        .iter()
        .position(|c| *c == '┐')
        .expect("its other corner");
    let inside: Vec<String> = rows[top + 1..]
        .iter()
        .take_while(|r| r.get(x) != Some(&'└'))
        .map(|r| {
            r[x + 1..end]
                .iter()
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect();
    assert!(inside.len() > 40, "{}", inside.join("\n"));
    let mut items: Vec<(String, String)> = Vec::new();
    for row in inside {
        if row.is_empty() {
            continue;
        }
        match (row.starts_with(' '), items.last_mut()) {
            // A wrapped line, or a long form's text under it.
            (true, Some((_, t))) => {
                t.push(' ');
                t.push_str(row.trim());
            }
            _ => {
                let (label, t) = row.split_once("  ").unwrap_or((&row, ""));
                items.push((label.trim().to_string(), t.trim().to_string()));
            }
        }
    }
    items
}

/// Whether `label`'s words are among `group`'s, in a row.
fn names(group: &str, label: &str) -> bool {
    let g: Vec<&str> = group.split_whitespace().collect();
    let l: Vec<&str> = label.split_whitespace().collect();
    g.windows(l.len()).any(|w| w == l.as_slice())
}

/// Every binding of every mode, with its mode.
fn all_bindings() -> Vec<(KeyMode, &'static Binding)> {
    let keys = Keymap::default();
    KeyMode::ALL
        .into_iter()
        .flat_map(|m| keys.bindings(m).map(move |b| (m, b)))
        .collect()
}

#[test]
fn every_binding_of_every_mode_is_on_the_help_screen_with_its_words() {
    let items = help_items();
    for (mode, b) in all_bindings() {
        assert!(
            items
                .iter()
                .any(|(l, t)| names(l, b.label) && words(t) == words(b.help)),
            "{mode:?} {:?} ({}: {}) is not on the help screen: {items:#?}",
            b.key,
            b.label,
            b.help
        );
    }
    // A command's line is its form, then its short names: `break LOC (b)`.
    for c in keymap::commands::all() {
        let want = match &c.names[1..] {
            [] => c.usage.to_string(),
            short => format!("{} ({})", c.usage, short.join(", ")),
        };
        assert!(
            items
                .iter()
                .any(|(l, t)| *l == want && words(t) == words(c.help)),
            ":{} is not on the help screen: {items:#?}",
            c.names[0]
        );
    }
}

/// Key events the binding takes (a wildcard: a few it takes).
fn events(mode: KeyMode, b: &Binding) -> Vec<KeyEvent> {
    let ev = KeyEvent::new;
    match b.key {
        Key::Plain(c) => vec![ev(c, KeyModifiers::NONE)],
        Key::Ctrl(c) => vec![ev(KeyCode::Char(c), KeyModifiers::CONTROL)],
        Key::Bare(c) => vec![
            ev(c, KeyModifiers::NONE),
            ev(c, KeyModifiers::CONTROL | KeyModifiers::ALT),
        ],
        Key::AnyChar => ['x', 'q', 'Q', '1', ' ', ':']
            .into_iter()
            .map(|c| ev(KeyCode::Char(c), KeyModifiers::NONE))
            .collect(),
        Key::Other => {
            let keys = Keymap::default();
            let v: Vec<KeyEvent> = [
                KeyCode::Char('s'),
                KeyCode::Char('x'),
                KeyCode::F(2),
                KeyCode::Tab,
                KeyCode::Left,
            ]
            .into_iter()
            .map(|c| ev(c, KeyModifiers::NONE))
            .collect();
            // None of these is a key the mode names itself.
            for k in &v {
                assert_eq!(keys.binding(mode, k).map(|x| x.key), Some(Key::Other));
            }
            v
        }
        Key::Mouse => vec![],
    }
}

/// The state in `mode`.
fn put_in(s: &mut AppState, mode: KeyMode) {
    s.quit = false;
    s.mode = Mode::Normal;
    if s.diff.open != (mode == KeyMode::Diff) {
        s.update(Action::ToggleDiff);
    }
    s.mode = match mode {
        KeyMode::Normal | KeyMode::Diff => Mode::Normal,
        KeyMode::Command => Mode::Command("ab".into()),
        KeyMode::Search => Mode::Search("ab".into()),
        KeyMode::Help => Mode::Help,
    };
    assert_eq!(KeyMode::of(s), mode);
}

#[test]
fn every_key_the_table_lists_does_its_action_through_the_key_handler() {
    let keys = Keymap::default();
    let mut s = app();
    let mut size = BIG;
    let _ = screen(&mut s, BIG.0, BIG.1);
    for (mode, b) in all_bindings() {
        for ev in events(mode, b) {
            put_in(&mut s, mode);
            let before = s.mode.clone();
            // What the reader thread makes of it, in the same mode.
            assert_eq!(
                Typing::of(&before).key(&ev),
                b.urgent,
                "{mode:?} {ev:?}: at once"
            );
            let want: Vec<Action> = match (&b.does, ev.code) {
                (Does::Act(a), _) => vec![a.clone()],
                (Does::Type, KeyCode::Char(c)) => vec![Action::Input(c)],
                _ => vec![],
            };
            let h = input::handle(
                &mut s,
                &keys,
                &[Stamped::now(Event::Key(ev))],
                &mut size,
                &|| false,
            );
            assert_eq!(h.actions, want, "{mode:?} {ev:?} ({})", b.label);
        }
        if b.key == Key::Mouse {
            // A click focuses the pane under it, the wheel scrolls it.
            put_in(&mut s, mode);
            let area = Rect::new(0, 0, BIG.0, BIG.1);
            let (pane, r) = layout::areas(area, &s)[1];
            let at = |kind| {
                Stamped::now(Event::Mouse(MouseEvent {
                    kind,
                    column: r.x + 1,
                    row: r.y + 1,
                    modifiers: KeyModifiers::NONE,
                }))
            };
            let click = [at(MouseEventKind::Down(MouseButton::Left))];
            let h = input::handle(&mut s, &keys, &click, &mut size, &|| false);
            assert_eq!(h.actions, vec![Action::Focus(pane)]);
            put_in(&mut s, mode);
            let wheel = [at(MouseEventKind::ScrollDown)];
            let h = input::handle(&mut s, &keys, &wheel, &mut size, &|| false);
            assert_eq!(h.actions, vec![Action::Focus(pane), Action::ScrollDown]);
        }
    }
}

/// The reader thread cannot see the diff view: its keys must be normal
/// ones, doing what they do in normal mode.
#[test]
fn the_diff_views_keys_are_normal_keys() {
    let keys = Keymap::default();
    for b in keys.bindings(KeyMode::Diff) {
        for ev in events(KeyMode::Diff, b) {
            assert_eq!(
                keys.action_in(KeyMode::Diff, ev),
                keys.action_in(KeyMode::Normal, ev),
                "{ev:?}"
            );
            assert_eq!(
                keys.urgent(KeyMode::Diff, &ev),
                keys.urgent(KeyMode::Normal, &ev)
            );
        }
    }
}

/// Typed through the real handler, key by key, the reader thread's mode
/// (followed through the table) stays the state's.
#[test]
fn the_reader_threads_mode_keeps_in_step_with_the_state() {
    let keys = Keymap::default();
    let mut s = app();
    let mut size = BIG;
    let _ = screen(&mut s, BIG.0, BIG.1);
    let mut typing = Typing::of(&s.mode);
    let k = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
    let code = |c| KeyEvent::new(c, KeyModifiers::NONE);
    let ctrl = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL);
    let typed = [
        k(':'),
        k('q'),
        k('x'),
        code(KeyCode::Backspace),
        code(KeyCode::Backspace),
        code(KeyCode::Backspace),
        k('?'),
        code(KeyCode::Down),
        code(KeyCode::PageDown),
        k('s'),
        ctrl(':'),
        ctrl('/'),
        ctrl('?'),
        k('/'),
        k('q'),
        code(KeyCode::Esc),
        k('/'),
        ctrl('z'),
        k('a'),
        code(KeyCode::Enter),
        k('?'),
        code(KeyCode::Esc),
        k('D'),
        code(KeyCode::Down),
        k(':'),
        code(KeyCode::Tab),
        code(KeyCode::Enter),
        k('D'),
    ];
    for ev in typed {
        typing.key(&ev);
        input::handle(
            &mut s,
            &keys,
            &[Stamped::now(Event::Key(ev))],
            &mut size,
            &|| false,
        );
        assert_eq!(typing.mode, s.mode, "after {ev:?}");
        assert!(!s.quit, "after {ev:?}");
    }
}

#[test]
fn the_markdown_names_every_normal_key_and_command() {
    let md = keymap::markdown();
    let (key_table, command_table) = md
        .split_once("\n\n")
        .expect("two tables, a blank line between");
    // The first column of each row.
    let first_cells = |t: &str| -> Vec<String> {
        t.lines()
            .skip(2)
            .map(|l| {
                l.split(" | ")
                    .next()
                    .unwrap_or("")
                    .trim_start_matches("| ")
                    .to_string()
            })
            .collect()
    };
    let key_cells = first_cells(key_table).join(" ");
    let keys = Keymap::default();
    for b in keys.bindings(KeyMode::Normal) {
        if b.key == Key::Mouse {
            continue;
        }
        let ticked = format!("`{}`", b.label);
        assert!(
            key_cells.contains(&ticked) || key_cells.split([' ', ',', '/']).any(|w| w == b.label),
            "{} is not in the key table:\n{key_table}",
            b.label
        );
    }
    let command_cells = first_cells(command_table).join(" ");
    for row in keymap::COMMANDS {
        for c in row.commands {
            let named = command_cells.contains(&format!("`{} ", c.names[0]))
                || command_cells.contains(&format!("`{}`", c.names[0]));
            // A command the key page's table has no row for is on the help
            // screen only: the table says so with a row without a doc.
            assert_eq!(
                named,
                row.doc.is_some(),
                ":{} in the command table: {command_table}",
                c.names[0]
            );
        }
    }
}
