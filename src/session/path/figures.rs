//! Each timed iteration's figure in a run of one variant: what the path
//! diff's default iteration is chosen by (`report::pathdiff::typical`).
//! A plain run with a recorder that records no steps, only where the
//! measured iterations begin; the figures come from the run's own iteration
//! marks (`Stats::iteration_marks`), as `PathRun::marks_milli` does.

use crate::machine::Outcome;
use crate::scenario::{Scenario, Variant};

use super::super::{RunOpts, build_machine, run_to};
use crate::session::recorder::{PathRecorder, Which};

/// What a figure counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Modelled cycles, in thousandths (with a core).
    Milli,
    /// Instructions retired (without a core).
    Instructions,
}

/// Runs `variant` within the scenario's budget: the figure of every timed
/// iteration that completed, the first (iteration 1) at index 0.
pub fn iteration_figures(
    scenario: &Scenario,
    variant: &Variant,
    opts: &RunOpts,
) -> Result<(Vec<u64>, Unit), crate::session::SessionError> {
    let mut m = build_machine(scenario, variant, opts)?;
    // A recorder that never records (no iteration has this number): it
    // still notes the marker hit that began iteration 1.
    m.observer_mut().path = Some(PathRecorder::new(Which::Nth(u64::MAX)));
    let budget = opts.budget.unwrap_or(scenario.budget);
    while m.executed() < budget {
        let next = (m.executed() + 200_000).min(budget);
        let o = if opts.single_step {
            let mut o = Outcome::Stepped;
            while o == Outcome::Stepped && m.executed() < next {
                o = m.step();
            }
            o
        } else {
            run_to(&mut m, next)
        };
        if o != Outcome::Stepped || crate::machine::sigint::requested() {
            break;
        }
    }
    let st = m.observer();
    let unit = if st.model.is_some() {
        Unit::Milli
    } else {
        Unit::Instructions
    };
    let pick = |x: (u64, u64)| match unit {
        Unit::Milli => x.1,
        Unit::Instructions => x.0,
    };
    let Some(first) = st.path.as_ref().and_then(|p| p.first_hit) else {
        return Ok((Vec::new(), unit));
    };
    let marks = &st.iteration_marks;
    // The newest 4096 marks are kept: find the entries by hit number.
    let oldest = st.iteration_hits + 1 - marks.len() as u64;
    let at = |hit: u64| {
        hit.checked_sub(oldest)
            .and_then(|i| marks.get(usize::try_from(i).ok()?))
            .map(|&x| pick(x))
    };
    let end = st
        .window_end
        .as_ref()
        .map(|w| pick((w.phase.iter().sum(), w.cycles.iter().sum())));
    // Iteration 1's mark dropped (a loop of more than 4096): no figures
    // numbered from 1, so none.
    if at(first).is_none() {
        return Ok((Vec::new(), unit));
    }
    let mut out = Vec::new();
    for i in 1..=st.iterations {
        let hit = first + i - 1;
        let stop = if i == st.iterations { end } else { at(hit + 1) };
        match (at(hit), stop) {
            (Some(a), Some(b)) => out.push(b.saturating_sub(a)),
            // The last began and never completed.
            _ => break,
        }
    }
    Ok((out, unit))
}
