//! What every command shares, below them all: the exit statuses and their
//! words, the default budget, and loading a scenario file.

use std::path::Path;

use crate::scenario::Scenario;

/// `elf`'s instruction budget when `--budget` is not given.
pub const DEFAULT_ELF_BUDGET: u64 = 100_000_000;

/// Exit status when the guest did not end within its instruction budget.
pub const EXIT_BUDGET: u8 = 124;

/// Exit status when the guest faulted (unmapped memory, unsupported instruction).
pub const EXIT_FAULT: u8 = 125;

/// Exit status when a guest of `run`, `compare` or `check` exited with a
/// non-zero code (or an expectation failed).
pub const EXIT_GUEST_FAILED: u8 = 1;

/// Exit status of a headless run stopped by Ctrl-C (128 + SIGINT, as shells report it).
pub const EXIT_INTERRUPTED: u8 = 130;

/// Exit status of an internal error (a bug in trapscope caught inside an
/// emulator callback): 101, the status of any other Rust panic, so one
/// number means "trapscope's own fault" however it surfaced.
pub const EXIT_INTERNAL: u8 = 101;

/// "the guest exited with code N", saying so when N is one of trapscope's
/// own statuses (124, 125), so the two are not confused.
pub(super) fn guest_exit_text(code: u64) -> String {
    let own = match code {
        124 => " (the guest's own exit code, not trapscope's budget status)",
        125 => " (the guest's own exit code, not trapscope's fault status)",
        _ => "",
    };
    format!("the guest exited with code {code}{own}")
}

/// `guest_exit_text`, with what the scenario's `[exit_codes]` says the code
/// means.
pub(super) fn scenario_exit_text(s: &crate::scenario::Scenario, code: u64) -> String {
    match s.exit_codes.get(&code) {
        Some(m) => format!("{}: {m}", guest_exit_text(code)),
        None => guest_exit_text(code),
    }
}

pub(super) fn load(path: &Path) -> anyhow::Result<Scenario> {
    Scenario::load(path).map_err(|e| anyhow::anyhow!("{e}"))
}
