//! Which rule chose where the TUI opens and `r` returns, as the state keeps
//! it once found (`AppState::start_found`). Finding it is `tui/start.rs`'s.

/// Which rule chose the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    StartAt,
    FirstStep,
    FirstIteration,
    Entry,
}
