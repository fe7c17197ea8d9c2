//! The keymap's table, normal mode (`keymap.rs` says how it is read; the
//! other modes are in `modes.rs`): each entry the keys that belong
//! together, each key with its action and its line on the help screen, and
//! the entry's row of the key table on docs/reference/keys.md, keys and long
//! description, which `keymap::markdown` writes back, in that table's
//! order.

use ratatui::crossterm::event::KeyCode;
use ratatui::crossterm::event::KeyCode::Char as C;

use crate::tui::action::Action;
use crate::tui::keymap::binding::{Binding, Doc, Does, Entry, Key, KeyMode, Urgent};

const NORMAL: &[KeyMode] = &[KeyMode::Normal];

/// The key's binding to `action`.
pub(super) const fn act(
    key: Key,
    label: &'static str,
    action: Action,
    help: &'static str,
) -> Binding {
    Binding {
        key,
        label,
        does: Does::Act(action),
        urgent: None,
        help,
    }
}

/// A binding the reader thread acts on at once, before the queued keys.
pub(super) const fn urgent(
    key: Key,
    label: &'static str,
    does: Does,
    urgent: Urgent,
    help: &'static str,
) -> Binding {
    Binding {
        key,
        label,
        does,
        urgent: Some(urgent),
        help,
    }
}

/// The normal mode's keys, in the order of the key page's table.
pub static NORMAL_KEYS: &[Entry] = &[
    Entry {
        modes: NORMAL,
        bindings: &[
            act(
                Key::Plain(C('s')),
                "s",
                Action::Step,
                "step one instruction",
            ),
            act(
                Key::Plain(C('n')),
                "n",
                Action::StepOver,
                "step over a call",
            ),
            act(
                Key::Plain(C('o')),
                "o",
                Action::StepOut,
                "step out of the function",
            ),
        ],
        doc: Some(Doc {
            keys: "`s` / `n` / `o`",
            long: "step / step over a call / step out of the function",
        }),
    },
    Entry {
        modes: NORMAL,
        bindings: &[act(
            Key::Plain(C('c')),
            "c",
            Action::Continue,
            "continue to a breakpoint or watchpoint (or the end)",
        )],
        doc: Some(Doc {
            keys: "`c`",
            long: "continue to a breakpoint or watchpoint (or the end)",
        }),
    },
    Entry {
        modes: NORMAL,
        bindings: &[act(
            Key::Plain(C('t')),
            "t",
            Action::RunToTrap,
            "run to the next trap or trap return",
        )],
        doc: Some(Doc {
            keys: "`t`",
            long: "run to the next trap or trap return",
        }),
    },
    Entry {
        modes: NORMAL,
        bindings: &[
            act(
                Key::Plain(C('b')),
                "b",
                Action::StepBack,
                "step back (from the nearest checkpoint)",
            ),
            act(
                Key::Plain(C('B')),
                "B",
                Action::ReverseContinue,
                "reverse-continue to the last breakpoint hit",
            ),
        ],
        doc: Some(Doc {
            keys: "`b` / `B`",
            long: "step back / reverse-continue to the last time a breakpoint was reached (from the nearest checkpoint: [Time travel](../guides/time-travel.md))",
        }),
    },
    Entry {
        modes: NORMAL,
        bindings: &[
            act(
                Key::Plain(C('r')),
                "r",
                Action::Restart,
                "back to the start (where the lesson is)",
            ),
            act(Key::Plain(C('R')), "R", Action::Reset, "reset to power-on"),
        ],
        doc: Some(Doc {
            keys: "`r` / `R`",
            long: "back to the start, where the TUI opened (where the lesson is), on the variant on screen / reset to power-on",
        }),
    },
    Entry {
        modes: NORMAL,
        bindings: &[act(
            Key::Plain(KeyCode::Tab),
            "Tab",
            Action::SwitchVariant,
            "switch variant, same iteration and event",
        )],
        doc: Some(Doc {
            keys: "Tab",
            long: "switch variant, staying at the same place: in the measured loop, the same iteration and the same arrival at the same function and offset since it began; before the loop, or where the other variant does not run that code as often, the same trap event and offset. Tabs round the variants with nothing moved come back exactly where the round began",
        }),
    },
    Entry {
        modes: NORMAL,
        bindings: &[act(
            Key::Plain(C(' ')),
            "Space",
            Action::Advance,
            "next lesson step (scenario script)",
        )],
        doc: Some(Doc {
            keys: "Space",
            long: "next lesson step; after the last, the lesson again from its start",
        }),
    },
    Entry {
        modes: NORMAL,
        bindings: &[act(
            Key::Plain(C('p')),
            "p",
            Action::ToggleBreakpoint,
            "toggle a breakpoint at the pc",
        )],
        doc: Some(Doc {
            keys: "`p`",
            long: "toggle a breakpoint at the pc",
        }),
    },
    Entry {
        modes: NORMAL,
        bindings: &[
            act(
                Key::Plain(C('d')),
                "d",
                Action::ToggleDisasm,
                "source / disassembly",
            ),
            act(
                Key::Plain(C('f')),
                "f",
                Action::CycleFilter,
                "filter the events by kind",
            ),
        ],
        doc: Some(Doc {
            keys: "`d` / `f`",
            long: "source or disassembly / filter events",
        }),
    },
    Entry {
        modes: NORMAL,
        bindings: &[act(
            Key::Plain(C('v')),
            "v",
            Action::ToggleVector,
            "the pane under the registers: RAS, vector (with V), LR/SC, FP, pt_regs, backtrace, memory, stack",
        )],
        doc: Some(Doc {
            keys: "`v`",
            long: "the lower pane: RAS, vector (cores with V), LR/SC, FP, pt_regs, backtrace, memory, stack",
        }),
    },
    Entry {
        modes: NORMAL,
        bindings: &[act(
            Key::Plain(C('D')),
            "D",
            Action::ToggleDiff,
            "path diff: this variant against its pair, this iteration",
        )],
        doc: Some(Doc {
            keys: "`D`",
            long: "the path diff of this variant against its pair partner, this iteration (again: close it)",
        }),
    },
    Entry {
        modes: NORMAL,
        bindings: &[
            act(
                Key::Plain(KeyCode::Up),
                "Up",
                Action::ScrollUp,
                "scroll the focused pane",
            ),
            act(
                Key::Plain(KeyCode::Down),
                "Down",
                Action::ScrollDown,
                "scroll the focused pane",
            ),
            act(
                Key::Plain(KeyCode::PageUp),
                "PgUp",
                Action::PageUp,
                "scroll the focused pane a page",
            ),
            act(
                Key::Plain(KeyCode::PageDown),
                "PgDn",
                Action::PageDown,
                "scroll the focused pane a page",
            ),
        ],
        doc: Some(Doc {
            keys: "Up / Down, PgUp / PgDn",
            long: "scroll the focused pane a line / a page (in the diff view, move the selected row)",
        }),
    },
    Entry {
        modes: NORMAL,
        bindings: &[
            act(
                Key::Plain(KeyCode::Left),
                "Left",
                Action::PanLeft,
                "scroll the focused pane sideways (its border says where more is)",
            ),
            act(
                Key::Plain(KeyCode::Right),
                "Right",
                Action::PanRight,
                "scroll the focused pane sideways (its border says where more is)",
            ),
        ],
        doc: Some(Doc {
            keys: "Left / Right",
            long: "scroll the focused pane sideways: a pane too narrow or too short for its text says so on its bottom border (`more →`, `more ↓3`), and the arrows reach every column and row",
        }),
    },
    Entry {
        modes: NORMAL,
        bindings: &[act(
            Key::Plain(KeyCode::Enter),
            "Enter",
            Action::DiffJump,
            "diff: show the selected line in the source",
        )],
        doc: Some(Doc {
            keys: "Enter",
            long: "in the diff view: show the selected row's line in the source pane (the next step returns it to the pc)",
        }),
    },
    Entry {
        modes: NORMAL,
        bindings: &[
            act(
                Key::Plain(C('/')),
                "/",
                Action::SearchStart,
                "search the focused source, disassembly or events",
            ),
            act(
                Key::Plain(C(']')),
                "]",
                Action::SearchNext,
                "next match (n steps over)",
            ),
            act(
                Key::Plain(C('[')),
                "[",
                Action::SearchPrev,
                "previous match",
            ),
        ],
        doc: Some(Doc {
            keys: "`/` then `]` / `[`",
            long: "search the focused pane (source, disassembly or events; case-insensitive): the view moves to the match, marked `»` (in the source, every matching line of the files the program's line table names, in one cycle fixed when the search starts from the view: the lines this run has executed, then those it has not (said so), each group from the line after the view's round through the files in the table's order; the status line says `k of N`, and `]` visits each once before it wraps to the first (`[` goes the same way back; moving the machine or scrolling off the match starts a new cycle); a match past the pane's right edge is brought on screen, and the title says `/ match · pc at …`); `]`/`[` go to the next/previous match, Enter on an empty prompt repeats the last search, and the status line says when a search wraps or finds nothing",
        }),
    },
    Entry {
        modes: NORMAL,
        bindings: &[act(
            Key::Plain(C('w')),
            "w",
            Action::NextTab,
            "next pane in the shared place (compact layout)",
        )],
        doc: Some(Doc {
            keys: "`w`",
            long: "in the compact layout (below 150×36), bring the next of the shared panes forward",
        }),
    },
    Entry {
        modes: NORMAL,
        bindings: &[act(
            Key::Plain(KeyCode::BackTab),
            "S-Tab",
            Action::NextPane,
            "focus the next pane on screen",
        )],
        doc: Some(Doc {
            keys: "S-Tab",
            long: "focus the next pane on screen (left to right, top to bottom; in the compact layout the shared place counts as the one in front), at the terminal's size even when pressed during a resize",
        }),
    },
    Entry {
        modes: NORMAL,
        bindings: &[act(
            Key::Plain(C(':')),
            ":",
            Action::CommandStart,
            "command line (see below)",
        )],
        doc: Some(Doc {
            keys: "`:`",
            long: "command line (the command table below)",
        }),
    },
    Entry {
        modes: NORMAL,
        bindings: &[urgent(
            Key::Bare(KeyCode::Esc),
            "Esc",
            Does::Interrupt,
            Urgent::Stop,
            "stop a long action (continue, run to trap, a lesson step, a step back or any re-execution); leave the command line, the / prompt or this help",
        )],
        doc: Some(Doc {
            keys: "Esc",
            long: "stop a long action (continue, run to trap, a lesson step, a step back or any re-execution); leave the command line",
        }),
    },
    Entry {
        modes: NORMAL,
        bindings: &[act(Key::Plain(C('?')), "?", Action::Help, "this help")],
        doc: Some(Doc {
            keys: "`?`",
            long: "help, generated from the keymap (Up/Down scroll it row by row; Esc or any other key closes it)",
        }),
    },
    Entry {
        modes: NORMAL,
        bindings: &[
            urgent(
                Key::Bare(C('q')),
                "q",
                Does::Act(Action::Quit),
                Urgent::Quit,
                "quit",
            ),
            urgent(
                Key::Ctrl('c'),
                "Ctrl-C",
                Does::Act(Action::Quit),
                Urgent::Quit,
                "quit",
            ),
        ],
        doc: Some(Doc {
            keys: "`q`, Ctrl-C",
            long: "quit, at once, even behind queued keys or during a long action (exit status 0)",
        }),
    },
    Entry {
        modes: NORMAL,
        bindings: &[act(
            Key::Ctrl('z'),
            "Ctrl-Z",
            Action::Suspend,
            "suspend to the shell (fg takes it back; without a job-control shell it says so and goes on)",
        )],
        doc: Some(Doc {
            keys: "Ctrl-Z",
            long: "suspend to the shell with the terminal restored; `fg` takes it back and redraws. Started without a job-control shell (as tmux's or `setsid`'s own command) nothing could continue it, so it says so on the status line and goes on",
        }),
    },
    Entry {
        modes: NORMAL,
        bindings: &[Binding {
            key: Key::Mouse,
            label: "mouse",
            does: Does::Point,
            urgent: None,
            help: "click a pane to focus it, wheel scrolls it",
        }],
        doc: None,
    },
];
