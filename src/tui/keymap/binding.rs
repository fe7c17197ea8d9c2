//! What a binding is: the modes a key is looked up in, a key as the table
//! writes it, what pressing it does, its action and its documentation. A
//! leaf of `keymap/`: the tables (`keys.rs`, `modes.rs`, `commands.rs`)
//! are written in these types, and `keymap.rs` looks keys up in them.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::tui::action::Action;
use crate::tui::state::{AppState, Mode};

/// Where the keyboard is, for the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyMode {
    Normal,
    /// Normal mode with the diff view open (`D`).
    Diff,
    /// Typing a `:` command.
    Command,
    /// Typing a `/` search.
    Search,
    Help,
}

impl KeyMode {
    pub const ALL: [KeyMode; 5] = [
        KeyMode::Normal,
        KeyMode::Diff,
        KeyMode::Command,
        KeyMode::Search,
        KeyMode::Help,
    ];

    /// The mode of `mode` (the diff view aside: `of` sees it).
    pub fn of_mode(mode: &Mode) -> KeyMode {
        match mode {
            Mode::Normal => KeyMode::Normal,
            Mode::Help => KeyMode::Help,
            Mode::Command(_) => KeyMode::Command,
            Mode::Search(_) => KeyMode::Search,
        }
    }

    /// The keyboard's mode in `s`.
    pub fn of(s: &AppState) -> KeyMode {
        match KeyMode::of_mode(&s.mode) {
            KeyMode::Normal if s.diff.open => KeyMode::Diff,
            m => m,
        }
    }

    /// The modes a key is looked up in, in order: the diff view's keys,
    /// then the normal ones.
    pub(in crate::tui) fn chain(self) -> &'static [KeyMode] {
        match self {
            KeyMode::Normal => &[KeyMode::Normal],
            KeyMode::Diff => &[KeyMode::Diff, KeyMode::Normal],
            KeyMode::Command => &[KeyMode::Command],
            KeyMode::Search => &[KeyMode::Search],
            KeyMode::Help => &[KeyMode::Help],
        }
    }

    /// The heading of the mode's part of the help screen.
    pub(in crate::tui) fn heading(self) -> &'static str {
        match self {
            KeyMode::Normal => "keys",
            KeyMode::Diff => "in the diff view (D)",
            KeyMode::Command | KeyMode::Search => "on the command line (:) and the / prompt",
            KeyMode::Help => "in this help",
        }
    }
}

/// Which key events a binding takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// The key with Ctrl up (Shift and Alt are not looked at).
    Plain(KeyCode),
    /// The character with Ctrl held.
    Ctrl(char),
    /// The key whatever the modifiers.
    Bare(KeyCode),
    /// Any character key, whatever the modifiers (a wildcard).
    AnyChar,
    /// Any key the mode names nowhere else (a wildcard).
    Other,
    /// Not a key: a click or the wheel over a pane (`input::handle`).
    Mouse,
}

impl Key {
    /// Whether `k` is this key; wildcards and the mouse take none here.
    pub(in crate::tui) fn names(self, k: &KeyEvent) -> bool {
        let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
        match self {
            Key::Plain(c) => k.code == c && !ctrl,
            Key::Ctrl(c) => k.code == KeyCode::Char(c) && ctrl,
            Key::Bare(c) => k.code == c,
            Key::AnyChar | Key::Other | Key::Mouse => false,
        }
    }

    /// Whether the wildcard takes `k`.
    pub(in crate::tui) fn takes(self, k: &KeyEvent) -> bool {
        match self {
            Key::AnyChar => matches!(k.code, KeyCode::Char(_)),
            Key::Other => true,
            _ => false,
        }
    }
}

/// What a binding does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Does {
    Act(Action),
    /// Types the key's character (`Action::Input`).
    Type,
    /// Focuses the pane under the pointer; the wheel scrolls it too.
    Point,
    /// Nothing to the state: the reader thread's interrupt alone (Esc
    /// stopping a long action).
    Interrupt,
}

/// What a key does at once, in the reader thread, before the queued keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Urgent {
    /// Quit, ahead of every key queued before it.
    Quit,
    /// Stop a long action (the machine's interrupt flag).
    Stop,
}

/// A key and what it does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    pub key: Key,
    /// The key as the help screen names it.
    pub label: &'static str,
    pub does: Does,
    pub urgent: Option<Urgent>,
    /// Its line on the help screen.
    pub help: &'static str,
}

impl Binding {
    /// The action for `k`, which this binding takes.
    pub fn action(&self, k: &KeyEvent) -> Option<Action> {
        match (&self.does, k.code) {
            (Does::Act(a), _) => Some(a.clone()),
            (Does::Type, KeyCode::Char(c)) => Some(Action::Input(c)),
            _ => None,
        }
    }
}

/// A row of the key page's key and command tables: the keys' cell and the
/// long description.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Doc {
    pub keys: &'static str,
    pub long: &'static str,
}

/// Keys that belong together, in the modes they act in, and their row in
/// the key page's table (none: on the help screen only).
#[derive(Debug)]
pub struct Entry {
    pub modes: &'static [KeyMode],
    pub bindings: &'static [Binding],
    pub doc: Option<Doc>,
}
