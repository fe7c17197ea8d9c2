//! A long action's progress as the TUI's hook sees it (`AppState::progress`):
//! what runs, how far it got, and the hook's type, which draws it and says
//! whether to go on. Long actions themselves are `tui/update/long.rs`'s.

use std::time::Instant;

/// How far a long action got.
pub struct Progress<'a> {
    pub what: &'a str,
    /// Instructions run so far by this action.
    pub done: u64,
    /// Of how many, when known (a re-execution to a point).
    pub total: Option<u64>,
    pub started: Instant,
}

/// Draws progress; false stops the action.
pub type ProgressFn = Box<dyn FnMut(&Progress<'_>) -> bool>;
