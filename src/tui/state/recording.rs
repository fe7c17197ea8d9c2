//! A lesson being recorded (`:record`): where its replay begins and the
//! steps taken so far, each with where it ended. How steps are recorded,
//! narrated and saved is `tui/record.rs`'s.

use crate::scenario::ScriptStep;

/// A position: variant, instructions executed, event-log length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    pub variant: usize,
    pub executed: u64,
    pub events: u64,
}

/// One recorded step and where it ended.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub step: ScriptStep,
    pub end: Mark,
}

/// A lesson being recorded: its origin and its steps.
#[derive(Clone, Debug)]
pub struct Recorder {
    /// Where a replay begins.
    pub origin: Mark,
    pub steps: Vec<Recorded>,
    /// After a Tab: the position it mapped to, where the next step begins
    /// (and switches variant).
    pub(in crate::tui) anchor: Option<Mark>,
}

impl Recorder {
    /// Where the next step begins.
    pub(in crate::tui) fn last(&self) -> Mark {
        self.anchor
            .or_else(|| self.steps.last().map(|r| r.end))
            .unwrap_or(self.origin)
    }
}
