//! What is left of the work the TUI does while it waits for keys: the
//! whole runs behind the cycles pane still to make, and the one under way.
//! The work itself is `tui/update/idle.rs`'s.

use crate::session::band::BandJob;
use crate::session::{VariantJob, VariantRun};

/// The idle work queued and under way.
pub struct Idle {
    /// Whole runs are made here rather than at once (the terminal's TUI).
    pub lazy: bool,
    /// The summaries still to make, and the one under way.
    pub(in crate::tui) todo: Vec<usize>,
    pub(in crate::tui) job: Option<(usize, VariantJob)>,
    /// The bands of finished summaries, made after the runs.
    pub(in crate::tui) bands: Vec<(usize, BandJob)>,
}

impl Idle {
    pub fn new(lazy: bool) -> Idle {
        Idle {
            lazy,
            todo: Vec::new(),
            job: None,
            bands: Vec::new(),
        }
    }

    /// Every variant's summary is to be made again.
    pub fn queue_summaries(&mut self, n: usize, summaries: &mut Vec<Option<VariantRun>>) {
        *summaries = vec![None; n];
        self.todo = (0..n).collect();
        self.job = None;
        self.bands.clear();
    }

    /// Whether summaries are still being made (the cycles pane says so).
    pub fn summarising(&self) -> bool {
        self.job.is_some() || !self.todo.is_empty() || !self.bands.is_empty()
    }
}
