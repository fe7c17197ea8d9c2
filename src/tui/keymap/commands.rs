//! The `:` commands as one table, beside the keys' (`keys.rs`): each
//! command's names (the short ones too), its form and line on the help
//! screen, and the row of the command table on docs/reference/keys.md it
//! belongs to. `command.rs` finds what a typed name means here, so the
//! names the parser takes and the names the help lists are one list.

use crate::tui::keymap::binding::Doc;

/// What a command does (`AppState::command` carries it out).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmd {
    Break,
    Delete,
    Probe,
    /// `probe!`: a probe even inside an LR/SC sequence.
    ProbeAnyway,
    Unprobe,
    /// `x`: memory in the Memory pane.
    Examine,
    Watch,
    Unwatch,
    Run,
    Core,
    Variant,
    Set,
    Goto,
    Record,
    Say,
    Save,
}

/// A command: the names it is typed as (the first is the one the help
/// gives), its form with its arguments and what it does, for the help.
#[derive(Debug)]
pub struct Command {
    pub names: &'static [&'static str],
    pub cmd: Cmd,
    pub usage: &'static str,
    pub help: &'static str,
}

/// Commands that belong together and their row in the key page's command
/// table (none: on the help screen only).
#[derive(Debug)]
pub struct CommandRow {
    pub commands: &'static [Command],
    pub doc: Option<Doc>,
}

/// Every `:` command.
pub static COMMANDS: &[CommandRow] = &[
    CommandRow {
        commands: &[Command {
            names: &["break", "b"],
            cmd: Cmd::Break,
            usage: "break SYM|SYM+0xOFF|FILE:LINE|0xADDR",
            help: "stop there (c continues to it)",
        }],
        doc: Some(Doc {
            keys: "`break LOCATION`",
            long: "a breakpoint: `SYMBOL`, `SYMBOL+0xOFF` as the panes print it, `file.S:LINE` or `0xADDR` (a place inside an LR/SC sequence is set, with a warning)",
        }),
    },
    CommandRow {
        commands: &[Command {
            names: &["delete", "d"],
            cmd: Cmd::Delete,
            usage: "delete SYMBOL|0xADDR|all",
            help: "remove breakpoints",
        }],
        doc: Some(Doc {
            keys: "`delete LOCATION|all`",
            long: "remove breakpoints",
        }),
    },
    CommandRow {
        commands: &[
            Command {
                names: &["probe"],
                cmd: Cmd::Probe,
                usage: "probe SYMBOL|0xADDR",
                help: "a guest-visible probe (a breakpoint trap, kprobe-like)",
            },
            Command {
                names: &["probe!"],
                cmd: Cmd::ProbeAnyway,
                usage: "probe! SYMBOL|0xADDR",
                help: "place it even inside an LR/SC sequence",
            },
        ],
        doc: Some(Doc {
            keys: "`probe SYMBOL|0xADDR`, `probe! ...`",
            long: "a guest-visible probe (a breakpoint trap, kprobe-like; [LR/SC loops and AMOs](../scenarios/lrsc-amos.md))",
        }),
    },
    CommandRow {
        commands: &[Command {
            names: &["x"],
            cmd: Cmd::Examine,
            usage: "x ADDR|SYM|REG [N]",
            help: "memory there, N bytes (default 128), in the Memory pane",
        }],
        doc: Some(Doc {
            keys: "`x ADDR|SYM|REG [N]`",
            long: "N bytes of memory there (default 128, at most 4096) in the Memory pane",
        }),
    },
    CommandRow {
        commands: &[
            Command {
                names: &["watch", "w"],
                cmd: Cmd::Watch,
                usage: "watch ADDR|SYM [LEN]",
                help: "stop after any load/store there (physical: aliases hit)",
            },
            Command {
                names: &["unwatch"],
                cmd: Cmd::Unwatch,
                usage: "unwatch N|ADDR|SYM|all",
                help: "remove watchpoints",
            },
        ],
        doc: Some(Doc {
            keys: "`watch ADDR|SYM [LEN]`, `unwatch N|ADDR|SYM|all`",
            long: "stop after any load or store of those bytes ([Kernel-debugger views](../tui.md#kernel-debugger-views))",
        }),
    },
    CommandRow {
        commands: &[Command {
            names: &["unprobe"],
            cmd: Cmd::Unprobe,
            usage: "unprobe SYMBOL|0xADDR|all",
            help: "remove probes (the guest reruns to here)",
        }],
        doc: Some(Doc {
            keys: "`unprobe SYMBOL|0xADDR|all`",
            long: "remove probes (the guest runs again to the same place without them)",
        }),
    },
    CommandRow {
        commands: &[Command {
            names: &["run", "r"],
            cmd: Cmd::Run,
            usage: "run N",
            help: "run N more instructions",
        }],
        doc: Some(Doc {
            keys: "`run N`",
            long: "run N more instructions",
        }),
    },
    CommandRow {
        commands: &[Command {
            names: &["core"],
            cmd: Cmd::Core,
            usage: "core NAME|PATH.toml",
            help: "estimate for another core (same pc and iteration)",
        }],
        doc: Some(Doc {
            keys: "`core NAME|PATH.toml`",
            long: "estimate for another core, at the same place: the same pc, iteration and arrival at the pc within it (the instruction count may differ: the core's clock moves the timer interrupts); where that core does not reach the pc as often (an AMO's emulation), the iteration's start, said so; a core without V on a scenario whose cores all have V is refused",
        }),
    },
    CommandRow {
        commands: &[Command {
            names: &["variant"],
            cmd: Cmd::Variant,
            usage: "variant NAME",
            help: "show another variant (same iteration and event)",
        }],
        doc: Some(Doc {
            keys: "`variant NAME`",
            long: "show another variant (same iteration and event)",
        }),
    },
    CommandRow {
        commands: &[Command {
            names: &["set"],
            cmd: Cmd::Set,
            usage: "set KNOB=VALUE",
            help: "change a knob and restart",
        }],
        doc: Some(Doc {
            keys: "`set KNOB=VALUE`",
            long: "change a knob and start again from power-on",
        }),
    },
    CommandRow {
        commands: &[Command {
            names: &["goto", "g"],
            cmd: Cmd::Goto,
            usage: "goto N",
            help: "go to event #N of the events pane",
        }],
        doc: Some(Doc {
            keys: "`goto N`",
            long: "go to event `#N` of the events pane (back, or on until it happens)",
        }),
    },
    CommandRow {
        commands: &[
            Command {
                names: &["record"],
                cmd: Cmd::Record,
                usage: "record | record off",
                help: "record a lesson: each step taken becomes a [[script]] step",
            },
            Command {
                names: &["say"],
                cmd: Cmd::Say,
                usage: "say TEXT",
                help: "narration for the step just recorded",
            },
            Command {
                names: &["save"],
                cmd: Cmd::Save,
                usage: "save FILE",
                help: "write the recorded lesson as [[script]] TOML (a new file)",
            },
        ],
        doc: Some(Doc {
            keys: "`record`, `say TEXT`, `save FILE`, `record off`",
            long: "record a lesson ([Recording a lesson](../guides/lessons.md#recording-a-lesson))",
        }),
    },
];

/// The command typed as `name`.
pub fn find(name: &str) -> Option<&'static Command> {
    all().find(|c| c.names.contains(&name))
}

/// Every command, in the table's order.
pub fn all() -> impl Iterator<Item = &'static Command> {
    COMMANDS.iter().flat_map(|r| r.commands.iter())
}
