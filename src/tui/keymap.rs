//! Keys → actions. One table with compiled-in defaults; the help screen is
//! generated from it (docs/decisions.md C4).

use std::fmt;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::update::Action;

pub struct Binding {
    pub key: KeyCode,
    pub ctrl: bool,
    pub action: Action,
    pub label: &'static str,
    pub help: &'static str,
}

pub struct Keymap {
    pub bindings: Vec<Binding>,
}

fn b(key: KeyCode, action: Action, label: &'static str, help: &'static str) -> Binding {
    Binding {
        key,
        ctrl: false,
        action,
        label,
        help,
    }
}

impl Default for Keymap {
    fn default() -> Keymap {
        use KeyCode::Char as C;
        Keymap {
            bindings: vec![
                b(C('s'), Action::Step, "s", "step one instruction"),
                b(C('n'), Action::StepOver, "n", "step over a call"),
                b(C('o'), Action::StepOut, "o", "step out of the function"),
                b(
                    C('c'),
                    Action::Continue,
                    "c",
                    "continue to a breakpoint or watchpoint (or the end)",
                ),
                b(
                    C('t'),
                    Action::RunToTrap,
                    "t",
                    "run to the next trap or trap return",
                ),
                b(
                    C('b'),
                    Action::StepBack,
                    "b",
                    "step back (from the nearest checkpoint)",
                ),
                b(
                    C('B'),
                    Action::ReverseContinue,
                    "B",
                    "reverse-continue to the last breakpoint hit",
                ),
                b(
                    C('r'),
                    Action::Restart,
                    "r",
                    "back to the start (where the lesson is)",
                ),
                b(C('R'), Action::Reset, "R", "reset to power-on"),
                b(
                    KeyCode::Tab,
                    Action::SwitchVariant,
                    "Tab",
                    "switch variant, same iteration and event",
                ),
                b(
                    C(' '),
                    Action::Advance,
                    "Space",
                    "next lesson step (scenario script)",
                ),
                b(
                    C('p'),
                    Action::ToggleBreakpoint,
                    "p",
                    "toggle a breakpoint at the pc",
                ),
                b(C('d'), Action::ToggleDisasm, "d", "source / disassembly"),
                b(
                    C('v'),
                    Action::ToggleVector,
                    "v",
                    "the pane under the registers: RAS, vector (with V), LR/SC, FP, pt_regs, backtrace, memory, stack",
                ),
                b(
                    C('w'),
                    Action::NextTab,
                    "w",
                    "next pane in the shared place (compact layout)",
                ),
                b(
                    C('f'),
                    Action::CycleFilter,
                    "f",
                    "filter the events by kind",
                ),
                b(
                    KeyCode::BackTab,
                    Action::NextPane,
                    "S-Tab",
                    "focus the next pane on screen",
                ),
                b(
                    KeyCode::Up,
                    Action::ScrollUp,
                    "Up",
                    "scroll the focused pane",
                ),
                b(
                    KeyCode::Down,
                    Action::ScrollDown,
                    "Down",
                    "scroll the focused pane",
                ),
                b(
                    KeyCode::Left,
                    Action::PanLeft,
                    "Left",
                    "scroll the focused pane sideways (its border says where more is)",
                ),
                b(
                    KeyCode::Right,
                    Action::PanRight,
                    "Right",
                    "scroll the focused pane sideways (its border says where more is)",
                ),
                b(
                    KeyCode::PageUp,
                    Action::PageUp,
                    "PgUp",
                    "scroll the focused pane a page",
                ),
                b(
                    KeyCode::PageDown,
                    Action::PageDown,
                    "PgDn",
                    "scroll the focused pane a page",
                ),
                b(
                    C('D'),
                    Action::ToggleDiff,
                    "D",
                    "path diff: this variant against its pair, this iteration",
                ),
                b(
                    KeyCode::Enter,
                    Action::DiffJump,
                    "Enter",
                    "diff: show the selected line in the source",
                ),
                b(
                    C(':'),
                    Action::CommandStart,
                    ":",
                    "command line (see below)",
                ),
                b(
                    C('/'),
                    Action::SearchStart,
                    "/",
                    "search the focused source, disassembly or events",
                ),
                b(C(']'), Action::SearchNext, "]", "next match (n steps over)"),
                b(C('['), Action::SearchPrev, "[", "previous match"),
                b(C('?'), Action::Help, "?", "this help"),
                b(C('q'), Action::Quit, "q", "quit"),
                Binding {
                    key: C('c'),
                    ctrl: true,
                    action: Action::Quit,
                    label: "Ctrl-C",
                    help: "quit",
                },
                Binding {
                    key: C('z'),
                    ctrl: true,
                    action: Action::Suspend,
                    label: "Ctrl-Z",
                    help: "suspend to the shell (fg takes it back; without a job-control shell it says so and goes on)",
                },
            ],
        }
    }
}

impl Keymap {
    /// The action for a key in normal mode.
    pub fn action(&self, k: KeyEvent) -> Option<Action> {
        let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
        self.bindings
            .iter()
            .find(|b| b.key == k.code && b.ctrl == ctrl)
            .map(|b| b.action.clone())
    }
}

impl fmt::Display for Keymap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in &self.bindings {
            writeln!(f, "{:>7}  {}", b.label, b.help)?;
        }
        Ok(())
    }
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

/// The help screen's words: the keys (bindings that do the same thing
/// share one line), then the commands.
pub fn help_sections() -> Vec<HelpSection> {
    let keys = Keymap::default();
    let mut items: Vec<HelpItem> = Vec::new();
    for b in &keys.bindings {
        match items.last_mut() {
            Some(it) if it.text == b.help => {
                it.label.push(' ');
                it.label.push_str(b.label);
            }
            _ => items.push(HelpItem {
                label: b.label.to_string(),
                text: b.help,
            }),
        }
    }
    items.push(HelpItem {
        label: "Esc".into(),
        text: "stop a long action (continue, run to trap, a lesson step, a step back or any re-execution); leave the command line, the / prompt or this help",
    });
    items.push(HelpItem {
        label: "mouse".into(),
        text: "click a pane to focus it, wheel scrolls it",
    });
    let commands = super::command::HELP
        .iter()
        .map(|(c, h)| HelpItem {
            label: c.to_string(),
            text: h,
        })
        .collect();
    vec![
        HelpSection {
            heading: "keys",
            commands: false,
            items,
        },
        HelpSection {
            heading: "commands (after :)",
            commands: true,
            items: commands,
        },
    ]
}
