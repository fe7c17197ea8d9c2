//! A variant's whole run in slices, for work done while the TUI waits for
//! keys (`tui/update/idle.rs`): the same run and report as `run_variant`.

use super::stats::Stats;
use super::{RunOpts, SessionError, VariantRun, build_machine, report, run_to};
use crate::machine::{Machine, Outcome};
use crate::scenario::{Scenario, Variant};

/// A variant's run done in slices (the TUI's cycles pane, computed while
/// it waits for keys): by blocks, as `run_variant` runs.
pub struct VariantJob {
    m: Machine<Stats>,
    budget: u64,
    outcome: Option<Outcome>,
}

impl VariantJob {
    pub fn new(
        scenario: &Scenario,
        variant: &Variant,
        opts: &RunOpts,
    ) -> Result<VariantJob, SessionError> {
        scenario.check_set(&opts.set)?;
        Ok(VariantJob {
            m: build_machine(scenario, variant, opts)?,
            budget: opts.budget.unwrap_or(scenario.budget),
            outcome: None,
        })
    }

    /// Runs up to `n` more instructions; true once the run is over.
    pub fn advance(&mut self, n: u64) -> bool {
        if self.outcome.is_some() {
            return true;
        }
        let to = self.m.executed().saturating_add(n).min(self.budget);
        match run_to(&mut self.m, to) {
            Outcome::Stepped if self.m.executed() < self.budget => return false,
            // Ctrl-C or Esc stopped the slice, not the run.
            Outcome::Interrupted => return false,
            Outcome::Stepped => {
                self.m.note_budget_exhausted();
                self.outcome = Some(Outcome::Budget);
            }
            o => self.outcome = Some(o),
        }
        true
    }

    /// The report of a run `advance` finished.
    pub fn finish(&self, scenario: &Scenario, variant: &Variant, opts: &RunOpts) -> VariantRun {
        let o = self.outcome.clone().unwrap_or(Outcome::Budget);
        report(scenario, variant, opts, &self.m, o, self.budget)
    }
}
