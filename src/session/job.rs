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

    /// The report of a run `advance` finished, with its band input (with
    /// `RunOpts::bands`) but no band yet: `band::BandJob` makes it a little
    /// at a time.
    pub fn finish(&mut self, scenario: &Scenario, variant: &Variant, opts: &RunOpts) -> VariantRun {
        let o = self.outcome.clone().unwrap_or(Outcome::Budget);
        let tape = self.m.observer_mut().tape.take();
        let mut run = report(scenario, variant, opts, &self.m, o, self.budget);
        keep_band(&mut run, self.m.observer(), tape, scenario, false);
        run
    }
}

/// Keeps a finished run's band input with its report (with a tape and an
/// estimate), and makes the estimate's band now if `now`.
pub(super) fn keep_band(
    run: &mut VariantRun,
    stats: &Stats,
    tape: Option<super::tape::Tape>,
    scenario: &Scenario,
    now: bool,
) {
    if run.estimate.is_none() {
        return;
    }
    let whole_run = scenario.measure.is_none();
    let Some(input) = tape.and_then(|t| super::band::input_of(stats, t, whole_run)) else {
        return;
    };
    let input = std::rc::Rc::new(input);
    if now && let Some(e) = run.estimate.as_mut() {
        e.band = super::band::of_work(&[(&input, 1.0)]);
    }
    run.band_input = Some(input);
}
