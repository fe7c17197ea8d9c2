//! The retired path of one iteration of the measured loop, instruction by
//! instruction, with what the cost model charged each one: what
//! `report::pathdiff` aligns between two variants. `record` runs a variant
//! with a `PathRecorder` (`recorder.rs`) attached and returns its iteration.

use std::rc::Rc;

use crate::machine::Outcome;
use crate::scenario::{Scenario, Variant};

use super::stats::Stats;
use super::{RunOpts, SessionError, build_machine, run_to};

mod figures;
pub use super::recorder::{PathRecorder, Recorded, Step, Which};
pub use figures::{Unit, iteration_figures};

/// A variant's recorded iteration and the run around it.
#[derive(Clone, Debug)]
pub struct PathRun {
    pub variant: String,
    pub label: String,
    pub program: Rc<crate::machine::Program>,
    pub path: Recorded,
    /// Measured iterations that began in the run.
    pub iterations: u64,
    /// The core whose cycles were charged (`None`: instructions only).
    pub core: Option<String>,
    /// The iteration's cycles (milli) as the run's own iteration marks
    /// count them (`Stats::iteration_marks`, or the window's end for the
    /// last), independent of the steps: what the steps must add up to.
    pub marks_milli: Option<u64>,
    /// The run's tape and model, for the iteration's band (with
    /// `RunOpts::bands`).
    pub band: Option<Rc<super::band::BandInput>>,
}

/// Runs `variant` within the scenario's budget and records iteration `which`.
/// An error when the scenario has no measured loop, when the run ends
/// before that iteration completes, or when the variant cannot run.
pub fn record(
    scenario: &Scenario,
    variant: &Variant,
    opts: &RunOpts,
    which: Which,
) -> Result<PathRun, SessionError> {
    if scenario.measure.is_none() {
        return Err(SessionError::NoLoop {
            scenario: scenario.path.clone(),
        });
    }
    let mut m = build_machine(scenario, variant, opts)?;
    m.observer_mut().path = Some(PathRecorder::new(which));
    let budget = opts.budget.unwrap_or(scenario.budget);
    // Stop as soon as the wanted iteration is in: in chunks, so a run that
    // recorded it early does not go on to its budget.
    let mut outcome = Outcome::Stepped;
    while m.executed() < budget {
        let next = (m.executed() + 200_000).min(budget);
        outcome = if opts.single_step {
            let mut o = Outcome::Stepped;
            while o == Outcome::Stepped && m.executed() < next {
                o = m.step();
            }
            o
        } else {
            run_to(&mut m, next)
        };
        if outcome != Outcome::Stepped
            || m.observer()
                .path
                .as_ref()
                .is_some_and(PathRecorder::finished)
            || crate::machine::sigint::requested()
        {
            break;
        }
    }
    let tape = m.observer_mut().tape.take();
    let stats: &Stats = m.observer();
    let Some(rec) = stats.path.as_ref() else {
        return Err(SessionError::NoRecorder);
    };
    let Some(path) = rec.done().cloned() else {
        let (_, code, err) = super::describe_outcome(&outcome, &m, budget);
        let end = match (err, code) {
            (Some(e), _) => Some(e),
            (None, Some(c)) if c != 0 => Some(exit_text(c)),
            _ => None,
        };
        return Err(SessionError::Incomplete {
            variant: variant.name.clone(),
            which,
            began: rec.began,
            end,
        });
    };
    let marks_milli = stats.model.as_ref().and_then(|_| {
        let marks = &stats.iteration_marks;
        // The newest 4096 marks are kept: find the entries by hit number.
        let first = stats.iteration_hits.checked_sub(marks.len() as u64)? + 1;
        let at = |hit: u64| marks.get(usize::try_from(hit.checked_sub(first)?).ok()?);
        let start = at(path.hit)?.1;
        let end = match &stats.window_end {
            Some(w) if path.iteration == stats.iterations => w.cycles.iter().sum(),
            _ => at(path.hit + 1)?.1,
        };
        end.checked_sub(start)
    });
    Ok(PathRun {
        variant: variant.name.clone(),
        label: variant.label.clone(),
        program: variant.program.clone(),
        iterations: rec.began,
        core: stats.model.as_ref().map(|m| m.profile.name.clone()),
        marks_milli,
        band: tape
            .and_then(|t| super::band::input_of(stats, t, false))
            .map(Rc::new),
        path,
    })
}

/// Why a run that exited gave no iteration.
fn exit_text(code: u64) -> String {
    format!("the guest exited with code {code:#x} first")
}
