//! The keymap's table, the modes other than normal (`keys.rs` has the
//! normal mode's): what the diff view, the command line and the `/`
//! prompt, and the help screen make of keys. None has a row in the
//! key page's table; the help screen lists them under their mode.

use ratatui::crossterm::event::KeyCode;
use ratatui::crossterm::event::KeyCode::Char as C;

use super::keys::{act, urgent};
use crate::tui::action::Action;
use crate::tui::keymap::binding::{Binding, Does, Entry, Key, KeyMode, Urgent};

const DIFF: &[KeyMode] = &[KeyMode::Diff];
const LINE: &[KeyMode] = &[KeyMode::Command, KeyMode::Search];
const HELP: &[KeyMode] = &[KeyMode::Help];

/// Ctrl-C and Ctrl-Z, which do in a line and in the help what they do
/// everywhere.
const QUIT_AND_SUSPEND: &[Binding] = &[
    urgent(
        Key::Ctrl('c'),
        "Ctrl-C",
        Does::Act(Action::Quit),
        Urgent::Quit,
        "quit",
    ),
    act(
        Key::Ctrl('z'),
        "Ctrl-Z",
        Action::Suspend,
        "suspend to the shell (fg takes it back; without a job-control shell it says so and goes on)",
    ),
];

/// What the diff view, the command line and the help make of keys.
pub static OTHER_KEYS: &[Entry] = &[
    Entry {
        modes: DIFF,
        bindings: &[
            act(
                Key::Plain(KeyCode::Up),
                "Up",
                Action::ScrollUp,
                "move the selected row (a line, a page)",
            ),
            act(
                Key::Plain(KeyCode::Down),
                "Down",
                Action::ScrollDown,
                "move the selected row (a line, a page)",
            ),
            act(
                Key::Plain(KeyCode::PageUp),
                "PgUp",
                Action::PageUp,
                "move the selected row (a line, a page)",
            ),
            act(
                Key::Plain(KeyCode::PageDown),
                "PgDn",
                Action::PageDown,
                "move the selected row (a line, a page)",
            ),
        ],
        doc: None,
    },
    Entry {
        modes: DIFF,
        bindings: &[act(
            Key::Plain(KeyCode::Enter),
            "Enter",
            Action::DiffJump,
            "diff: show the selected line in the source",
        )],
        doc: None,
    },
    Entry {
        modes: DIFF,
        bindings: &[act(
            Key::Plain(C('D')),
            "D",
            Action::ToggleDiff,
            "close the diff view",
        )],
        doc: None,
    },
    Entry {
        modes: LINE,
        bindings: &[act(
            Key::Bare(KeyCode::Enter),
            "Enter",
            Action::Submit,
            "run it (an empty search repeats the last)",
        )],
        doc: None,
    },
    Entry {
        modes: LINE,
        bindings: &[urgent(
            Key::Bare(KeyCode::Esc),
            "Esc",
            Does::Act(Action::Cancel),
            Urgent::Stop,
            "leave the line (and stop a long action)",
        )],
        doc: None,
    },
    Entry {
        modes: LINE,
        bindings: &[act(
            Key::Bare(KeyCode::Backspace),
            "Backspace",
            Action::Backspace,
            "erase a character (empty: leave the line)",
        )],
        doc: None,
    },
    Entry {
        modes: LINE,
        bindings: &[Binding {
            key: Key::AnyChar,
            label: "a character",
            does: Does::Type,
            urgent: None,
            help: "is typed on the line",
        }],
        doc: None,
    },
    Entry {
        modes: LINE,
        bindings: QUIT_AND_SUSPEND,
        doc: None,
    },
    Entry {
        modes: HELP,
        bindings: &[
            act(
                Key::Bare(KeyCode::Up),
                "Up",
                Action::ScrollUp,
                "scroll this help, a row or a page",
            ),
            act(
                Key::Bare(KeyCode::Down),
                "Down",
                Action::ScrollDown,
                "scroll this help, a row or a page",
            ),
            act(
                Key::Bare(KeyCode::PageUp),
                "PgUp",
                Action::PageUp,
                "scroll this help, a row or a page",
            ),
            act(
                Key::Bare(KeyCode::PageDown),
                "PgDn",
                Action::PageDown,
                "scroll this help, a row or a page",
            ),
        ],
        doc: None,
    },
    Entry {
        modes: HELP,
        bindings: &[urgent(
            Key::Bare(C('q')),
            "q",
            Does::Act(Action::Quit),
            Urgent::Quit,
            "quit",
        )],
        doc: None,
    },
    Entry {
        modes: HELP,
        bindings: &[urgent(
            Key::Bare(KeyCode::Esc),
            "Esc",
            Does::Act(Action::Cancel),
            Urgent::Stop,
            "closes this help",
        )],
        doc: None,
    },
    Entry {
        modes: HELP,
        bindings: QUIT_AND_SUSPEND,
        doc: None,
    },
    Entry {
        modes: HELP,
        bindings: &[act(
            Key::Other,
            "any other key",
            Action::Cancel,
            "closes this help",
        )],
        doc: None,
    },
];
