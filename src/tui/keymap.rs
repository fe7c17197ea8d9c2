//! What every key means, in every mode, in one table
//! (docs/decisions.md C4): `keys.rs` and `modes.rs` list each mode's keys
//! with their action, their line on the help screen and their row of
//! the key page's table (docs/reference/keys.md); `commands.rs` does the same for the `:`
//! commands. Everything that asks what a key does reads it here:
//! `key_action` and `input::handle` (the action), the reader thread
//! (`input::Typing`: whether a key starts or goes on typing a line, and
//! whether it quits or stops a long action at once), the help screen
//! (`help_sections`) and the Markdown tables (`markdown`).
//!
//! A key is looked up in its mode; a key the mode names beats a wildcard
//! (any character on a line, any other key in the help). The diff view is
//! normal mode while `D` has the diff open: its own entries say what the
//! keys do to the diff, and every other key is a normal one.

mod binding;
pub mod commands;
mod keys;
mod markdown;
mod modes;
mod table;

use std::fmt;

use ratatui::crossterm::event::KeyEvent;

use super::action::Action;
use super::state::Mode;
pub use binding::{Binding, Doc, Does, Entry, Key, KeyMode, Urgent};
pub use commands::{COMMANDS, Cmd, Command, CommandRow};
pub use markdown::markdown;
pub use table::KEYS;

/// The keymap: the compiled-in tables.
#[derive(Clone, Copy, Debug)]
pub struct Keymap {
    pub entries: &'static [&'static [Entry]],
    pub commands: &'static [CommandRow],
}

impl Default for Keymap {
    fn default() -> Keymap {
        Keymap {
            entries: KEYS,
            commands: COMMANDS,
        }
    }
}

impl Keymap {
    /// The bindings of `mode` itself (not those it falls back to), in the
    /// table's order.
    pub fn bindings(&self, mode: KeyMode) -> impl Iterator<Item = &'static Binding> + 'static {
        self.entries
            .iter()
            .flat_map(|part| part.iter())
            .filter(move |e| e.modes.contains(&mode))
            .flat_map(|e| e.bindings.iter())
    }

    /// The binding that takes `k` in `mode`.
    pub fn binding(&self, mode: KeyMode, k: &KeyEvent) -> Option<&'static Binding> {
        mode.chain().iter().find_map(|&m| {
            self.bindings(m)
                .find(|b| b.key.names(k))
                .or_else(|| self.bindings(m).find(|b| b.key.takes(k)))
        })
    }

    /// The action for `k` in `mode`.
    pub fn action_in(&self, mode: KeyMode, k: KeyEvent) -> Option<Action> {
        self.binding(mode, &k).and_then(|b| b.action(&k))
    }

    /// The action for a key in normal mode.
    pub fn action(&self, k: KeyEvent) -> Option<Action> {
        self.action_in(KeyMode::Normal, k)
    }

    /// What `k` does at once in `mode`, in the reader thread.
    pub fn urgent(&self, mode: KeyMode, k: &KeyEvent) -> Option<Urgent> {
        self.binding(mode, k).and_then(|b| b.urgent)
    }
}

/// The normal mode's keys, one a line.
impl fmt::Display for Keymap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.bindings(KeyMode::Normal) {
            writeln!(f, "{:>7}  {}", b.label, b.help)?;
        }
        Ok(())
    }
}

/// The mode `a` leaves the keyboard in, from `mode`: what `update` does to
/// `AppState::mode`, and how the reader thread follows it.
pub fn next_mode(mode: &Mode, a: &Action) -> Mode {
    match (mode, a) {
        (m, Action::Quit | Action::Suspend) => m.clone(),
        // Up/Down and PgUp/PgDn scroll the help; any other key closes it.
        (Mode::Help, Action::ScrollUp | Action::ScrollDown | Action::PageUp | Action::PageDown) => {
            Mode::Help
        }
        (Mode::Help, _) => Mode::Normal,
        (_, Action::Help) => Mode::Help,
        (_, Action::CommandStart) => Mode::Command(String::new()),
        (_, Action::SearchStart) => Mode::Search(String::new()),
        (Mode::Command(s), Action::Input(c)) => Mode::Command(format!("{s}{c}")),
        (Mode::Search(s), Action::Input(c)) => Mode::Search(format!("{s}{c}")),
        // Backspace on an empty line leaves it.
        (Mode::Command(s) | Mode::Search(s), Action::Backspace) if s.is_empty() => Mode::Normal,
        (Mode::Command(s), Action::Backspace) => Mode::Command(erase(s)),
        (Mode::Search(s), Action::Backspace) => Mode::Search(erase(s)),
        (_, Action::Submit | Action::Cancel) => Mode::Normal,
        (m, _) => m.clone(),
    }
}

/// `s` without its last character.
fn erase(s: &str) -> String {
    let mut s = s.to_string();
    s.pop();
    s
}

/// A line of the help screen: a key (or keys, or a command's form) and what
/// it does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HelpItem {
    pub label: String,
    pub text: &'static str,
}

/// A part of the help screen under its heading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HelpSection {
    pub heading: &'static str,
    /// The `:` commands (long forms go on a line of their own).
    pub commands: bool,
    pub items: Vec<HelpItem>,
}

/// The help screen's words, from the tables: each mode's keys under its
/// heading, in the table's order (keys that do the same thing, one after
/// the other, share a line; a key said already in an earlier part, with
/// the same words, is not said again), then the commands.
pub fn help_sections() -> Vec<HelpSection> {
    let mut out: Vec<HelpSection> = Vec::new();
    let mut said: Vec<(&str, &str)> = Vec::new();
    for e in KEYS.iter().flat_map(|part| part.iter()) {
        let heading = e.modes.first().map_or("keys", |m| m.heading());
        if out.last().is_none_or(|s| s.heading != heading) {
            out.push(HelpSection {
                heading,
                commands: false,
                items: Vec::new(),
            });
        }
        let Some(section) = out.last_mut() else {
            continue;
        };
        for b in e.bindings {
            if said.contains(&(b.label, b.help)) {
                continue;
            }
            said.push((b.label, b.help));
            match section.items.last_mut() {
                Some(it) if it.text == b.help => {
                    it.label.push(' ');
                    it.label.push_str(b.label);
                }
                _ => section.items.push(HelpItem {
                    label: b.label.to_string(),
                    text: b.help,
                }),
            }
        }
    }
    out.retain(|s| !s.items.is_empty());
    out.push(HelpSection {
        heading: "commands (after :)",
        commands: true,
        items: commands::all()
            .map(|c| HelpItem {
                label: with_short(c.usage, c.names),
                text: c.help,
            })
            .collect(),
    });
    out
}

/// A command's usage with its short names after it: `break LOC (b)`.
pub(crate) fn with_short(usage: &str, names: &[&str]) -> String {
    match names.get(1..) {
        Some(short) if !short.is_empty() => format!("{usage} ({})", short.join(", ")),
        _ => usage.to_string(),
    }
}
